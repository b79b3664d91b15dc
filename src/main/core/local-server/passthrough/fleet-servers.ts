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
      const found: UpstreamServer[] = [];
      for (const server of servers()) {
        if (!(server instanceof ChildServer) || !server.enabled || !setIncludesServer(set, server.name)) continue;
        const client = server.sdkClient;
        if (client) found.push({ name: server.name, client });
      }
      return found.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
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
