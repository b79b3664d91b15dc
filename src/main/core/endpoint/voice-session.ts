/**
 * The self-hosted relay's request ids: every device's conversation reaches us on the agent's one
 * connection, its ids rewritten to "<that conversation's uuid>_n_<id>" (or `_s_` for a string id):
 * xinnan-tech/mcp-endpoint-server, src/core/connection_manager.py, `_transform_jsonrpc_id`.
 */
const RELAY_ID = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})_[ns]_/i;

/**
 * The voice session a call belongs to: one device's conversation. Behind the relay, the connection
 * and the conversation's uuid in the id (so one device's wrong PINs or held calls are not
 * another's); otherwise the connection (xiaozhi.me and the self-hosted server's own ids carry none).
 */
export function voiceSession(connection: string, requestId: string | number): string {
  const device = typeof requestId === 'string' ? RELAY_ID.exec(requestId)?.[1] : undefined;
  return device === undefined ? connection : `${connection}/${device.toLowerCase()}`;
}

/** Whether a voice session came on this connection (it closed: what its sessions hold ends). */
export function onConnection(connection: string): (session: string) => boolean {
  return (session) => session === connection || session.startsWith(`${connection}/`);
}
