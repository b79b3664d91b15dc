/**
 * The environment of a CLI under test: this one, without MCP_ENDPOINT, and in English (the tests
 * assert English; the machine's locale may be Chinese) unless `extra` sets a locale of its own.
 */
export function cliEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return { ...process.env, MCP_ENDPOINT: '', LC_ALL: '', LC_MESSAGES: '', LANG: 'C', ...extra };
}
