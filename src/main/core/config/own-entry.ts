import type { ServerSettings } from '../../../shared/settings';
import { isLoopbackHost } from '../io/http-gate';

/**
 * True for an MCP server entry that is this app itself: its local MCP server (a loopback URL on its
 * port, under /mcp) or `xiaozhi-tray connect`. Such an entry is what "Add to Cursor" writes; read
 * back by an import it would serve the app's own tools back to itself, in a loop that never ends.
 */
export function isOwnEntry(server: ServerSettings, localPort: number): boolean {
  if (server.transport !== 'stdio') {
    if (server.transport !== 'sse' && server.transport !== 'streamable-http') return false;
    try {
      const url = new URL(server.url);
      return isLoopbackHost(url.hostname) && Number(url.port || 80) === localPort && /^\/mcp(\/|$)/.test(url.pathname);
    } catch {
      return false;
    }
  }
  if (!server.args.includes('connect')) return false;
  return [server.command, ...server.args].some((part) => /xiaozhi[-_ ]?tray|out[\\/]cli[\\/]index\.js$/i.test(part));
}

/** The sentence said when such an entry is left out. */
export const OWN_ENTRY_SKIPPED = (name: string) =>
  `skipped "${name}": it is Xiaozhi Tray's own local MCP server; adding it would serve the app's tools back to itself`;
