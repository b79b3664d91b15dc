import type { ToolSet } from '../../../../shared/settings';
import { setIncludesServer } from '../../hub/tool-set-view';
import { ChildServer } from '../../servers/child-server';
import type { PassthroughServers, ServerNotice, UpstreamServer } from './upstream';

/**
 * The fleet's MCP servers as local sessions reach them: only those running, only those a set
 * includes (a web service has no SDK client: it offers tools only). `notify` is what the fleet
 * calls with each server's notices.
 */
export function fleetPassthrough(
  servers: () => Iterable<unknown>,
  setOf: (id: string) => ToolSet,
): PassthroughServers & { notify(server: string, notice: ServerNotice): void } {
  const listeners = new Set<(server: string, notice: ServerNotice) => void>();
  return {
    serversOf(setId) {
      const set = setOf(setId);
      return runningClients(servers())
        .filter((up) => up.enabled && setIncludesServer(set, up.name))
        .map(({ name, client }) => ({ name, client }))
        .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    },
    onNotice(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    notify(server, notice) {
      for (const listener of listeners) listener(server, notice);
    },
  };
}

/** The fleet's running MCP servers with their SDK clients (a web service has none). */
export function runningClients(servers: Iterable<unknown>): (UpstreamServer & { enabled: boolean })[] {
  const found: (UpstreamServer & { enabled: boolean })[] = [];
  for (const server of servers) {
    if (!(server instanceof ChildServer)) continue;
    const client = server.sdkClient;
    if (client) found.push({ name: server.name, client, enabled: server.enabled });
  }
  return found;
}
