import { randomBytes } from 'node:crypto';

import WebSocket from 'ws';

import { isXiaozhiMe } from '../../../shared/endpoint-url';

/**
 * Whether the self-hosted relay (xinnan-tech/mcp-endpoint-server) still routes xiaozhi to us.
 *
 * The relay keeps one tool connection per agent, and forgets it silently: when a replaced
 * connection's handler ends it unregisters the agent by id (src/core/connection_manager.py), so the
 * connection that replaced it stays open but serves nothing ("工具端未连接" for xiaozhi). Nothing
 * reaches the forgotten connection to say so. So we ask as xiaozhi does: xiaozhi-esp32-server
 * connects to the endpoint URL with `/mcp/` made `/call/` (its app.py); a `ping` sent there comes
 * to whichever tool connection the relay knows (ours, when we see it arrive), or is answered
 * -32001 "工具端未连接" when it knows none (src/handlers/websocket_handler.py).
 */
export type RelayVerdict =
  /** Our connection got the ping: the relay routes xiaozhi to us. */
  | 'us'
  /** Another connection answered it: another program holds the endpoint. */
  | 'other'
  /** The relay knows no tool connection for this agent. */
  | 'nobody'
  /** No relay there (the path is refused, or this is not such a server): nothing to ask. */
  | 'unsupported'
  /** No answer in time: nothing can be said. */
  | 'unknown';

/** The relay's error codes (src/utils/jsonrpc.py): tool side not connected; forwarding to it failed. */
const TOOL_NOT_CONNECTED = -32001;
const FORWARD_FAILED = -32002;

/**
 * Where xiaozhi's side of a self-hosted relay connects for this endpoint URL: the path's `/mcp/`
 * made `/call/`, as xiaozhi-esp32-server does. Only for the relay's own path (`/mcp_endpoint/mcp/`,
 * src/server.py), unless `anyPath` (an endpoint that already closed us as the relay does: behind a
 * proxy, under another path). None for xiaozhi.me, a broker of its own.
 */
export function relayCallUrl(endpointUrl: string, options: { anyPath?: boolean } = {}): string | undefined {
  if (isXiaozhiMe(endpointUrl)) return undefined;
  let url: URL;
  try {
    url = new URL(endpointUrl);
  } catch {
    return undefined;
  }
  const path = url.pathname.replace(/\/?$/, '/');
  if (!path.endsWith('/mcp/') || (!options.anyPath && !path.endsWith('/mcp_endpoint/mcp/'))) return undefined;
  url.pathname = `${path.slice(0, -'/mcp/'.length)}/call/`;
  // The token as the user wrote it (URL re-serialising could change its quoting).
  const query = endpointUrl.indexOf('?');
  return `${url.origin}${url.pathname}${query >= 0 ? endpointUrl.slice(query) : ''}`;
}

export interface RelayCheckOptions {
  callUrl: string;
  timeoutMs: number;
  /**
   * Called with the ping's id before it is sent: the link says whether that id then reached its
   * own connection (`seen()`), which tells "us" from "another program".
   */
  watch(nonce: string): { seen(): boolean; done(): void };
}

/** One ping through the relay, as xiaozhi would send it; what it says of who holds the endpoint. */
export function checkRelay(opts: RelayCheckOptions): Promise<RelayVerdict> {
  const nonce = `xiaozhi-tray-check-${randomBytes(6).toString('hex')}`;
  const watched = opts.watch(nonce);
  return new Promise<RelayVerdict>((resolve) => {
    let settled = false;
    const socket = new WebSocket(opts.callUrl, { handshakeTimeout: opts.timeoutMs, perMessageDeflate: false, maxPayload: 64 * 1024 });
    const finish = (verdict: RelayVerdict) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      watched.done();
      socket.removeAllListeners();
      socket.on('error', () => undefined);
      if (socket.readyState === WebSocket.OPEN) socket.close(1000, 'check done');
      else socket.terminate();
      resolve(verdict);
    };
    const timer = setTimeout(() => finish('unknown'), opts.timeoutMs);
    socket.on('unexpected-response', () => finish('unsupported'));
    socket.on('error', () => finish('unsupported'));
    // Closed before it answered: the relay refused (a 1008 for the token) or went away.
    socket.on('close', (code) => finish(code === 1008 ? 'unsupported' : 'unknown'));
    socket.on('open', () => socket.send(JSON.stringify({ jsonrpc: '2.0', id: nonce, method: 'ping' })));
    socket.on('message', (data) => {
      let message: { id?: unknown; result?: unknown; error?: { code?: unknown } | null };
      try {
        message = JSON.parse(data.toString()) as typeof message;
      } catch {
        return;
      }
      if (message.id !== nonce) return;
      const code = message.error?.code;
      if (code === TOOL_NOT_CONNECTED || code === FORWARD_FAILED) finish('nobody');
      else if (message.error) finish('unknown');
      else finish(watched.seen() ? 'us' : 'other');
    });
  });
}
