/**
 * The bridge's own secrets in its environment (the endpoint, the tokens of `connect` and of the
 * local server, the ModelScope key): no process it starts inherits them, neither a server (unless
 * its own config sets one) nor the watchdog. One list, so a new secret is kept from both.
 */
export const PRIVATE_ENV: readonly string[] = ['MCP_ENDPOINT', 'MODELSCOPE_API_TOKEN', 'XIAOZHI_TRAY_TOKEN', 'XIAOZHI_TRAY_MCP_TOKEN'];

/** `env` without the bridge's own secrets (and without unset names). */
export function withoutPrivateEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(
    Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined && !PRIVATE_ENV.includes(entry[0])),
  );
}
