import path from 'node:path';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { LOCAL_CLIENT_ID, SENDABLE_TOKEN } from '../shared/settings';
import { STATE_FILE_NAME, appStateDir, readStateFile, type StateLookup } from '../main/core/local-server/state-file';
import { StdioRelay, type RelayTarget } from '../main/core/local-server/stdio-relay';

export interface ConnectOptions {
  url?: string;
  token?: string;
  client?: string;
  /** Where the running app's state file is (default: the app's folder, or XIAOZHI_TRAY_STATE_DIR). */
  stateDir?: string;
}

const say = (line: string) => process.stderr.write(`xiaozhi-tray connect: ${line}\n`);

function notRunning(lookup: Exclude<StateLookup, { ok: true }>): string {
  switch (lookup.reason) {
    case 'stale':
      return `Xiaozhi Tray is not running (${lookup.file} is left from a process that has ended).`;
    case 'invalid':
      return `cannot read ${lookup.file}; start Xiaozhi Tray again, or pass --url and --token.`;
    case 'untrusted':
      return `not using ${lookup.file}: ${lookup.why}. Remove it and start Xiaozhi Tray again, or pass --url and --token.`;
    default:
      return 'Xiaozhi Tray is not running, or its local MCP server is off (turn it on in Settings, or run: xiaozhi-tray run --config FILE --mcp-port 18790).';
  }
}

/** A token an Authorization header can carry; the error fetch gives for any other quotes the token. */
const sendable = (token: string) => SENDABLE_TOKEN.test(token);
const UNSENDABLE = 'has a space, a line break or another character an HTTP header cannot carry';

/** The app's base URL (…/mcp), from the flags or the running app's state file. */
function findTarget(options: ConnectOptions): { ok: true; target: RelayTarget } | { ok: false; message: string } {
  const client = options.client ? `/${options.client}` : '';
  if (options.url) {
    const base = options.url.replace(/\/+$/, '');
    const token = options.token ?? process.env.XIAOZHI_TRAY_TOKEN ?? '';
    if (!token) return { ok: false, message: '--url needs --token (or XIAOZHI_TRAY_TOKEN): copy it from Xiaozhi Tray, Settings → Local MCP server.' };
    if (!sendable(token)) return { ok: false, message: `the token ${UNSENDABLE}: copy it again from Xiaozhi Tray, Settings → Local MCP server.` };
    // Accepted: the server (http://127.0.0.1:18790), its /mcp, or a client's own /mcp/<id>.
    let path: string;
    try {
      path = new URL(base).pathname;
    } catch {
      return { ok: false, message: `--url must be an http:// URL like http://127.0.0.1:18790/mcp, not "${options.url}".` };
    }
    const url = /\/mcp\/[^/]+$/.test(path) ? base : /\/mcp$/.test(path) ? `${base}${client}` : `${base}/mcp${client}`;
    return { ok: true, target: { url, token } };
  }
  const dir = options.stateDir ?? appStateDir();
  const lookup = readStateFile(dir);
  if (!lookup.ok) return { ok: false, message: notRunning(lookup) };
  const token = options.token ?? lookup.state.token;
  if (!sendable(token)) return { ok: false, message: `the token ${options.token === undefined ? `in ${path.join(dir, STATE_FILE_NAME)}` : 'given'} ${UNSENDABLE}; start Xiaozhi Tray again, or pass --url and --token.` };
  return { ok: true, target: { url: `${lookup.state.url}${client}`, token } };
}

/** Is the app there, and does it take our token? One clear sentence when not. */
async function probe(target: RelayTarget): Promise<string | undefined> {
  const status = new URL('/status', target.url);
  let response: Response;
  try {
    response = await fetch(status, { headers: { Authorization: `Bearer ${target.token}` }, signal: AbortSignal.timeout(5000) });
  } catch (error) {
    const code = (error as { cause?: { code?: string } }).cause?.code;
    return code === 'ECONNREFUSED' ? `Xiaozhi Tray is not running at ${status.origin} (nothing listens there).` : `cannot reach Xiaozhi Tray at ${status.origin}: ${(error as Error).message}.`;
  }
  await response.body?.cancel();
  if (response.status === 401) return 'Xiaozhi Tray refused the token (was it regenerated?). Copy the new one from Settings → Local MCP server.';
  if (response.ok) return undefined;
  return `Xiaozhi Tray answered HTTP ${response.status} at ${status.origin}.`;
}

/**
 * `xiaozhi-tray connect`: for clients that only start stdio servers (Claude Desktop). Relays to the
 * running app's local MCP server until the client closes stdin. Exits 1 with one line on stderr
 * when the app is not there; stdout carries MCP messages only.
 */
export async function connectCommand(flags: Record<string, string | true>, where: { stateDir?: string } = {}): Promise<number> {
  const options: ConnectOptions = { ...where };
  for (const key of ['url', 'token', 'client'] as const) if (typeof flags[key] === 'string') options[key] = flags[key];
  if (options.client !== undefined && !LOCAL_CLIENT_ID.test(options.client)) {
    say(`--client must be lowercase letters, digits, - or _ (like claude-desktop), not "${options.client}".`);
    return 2;
  }
  const found = findTarget(options);
  if (!found.ok) {
    say(found.message);
    return 1;
  }
  const problem = await probe(found.target);
  if (problem) {
    say(problem);
    return 1;
  }
  const relay = new StdioRelay({
    local: new StdioServerTransport(),
    // After an app restart the state file may name a new port: read it again.
    target: () => {
      const again = findTarget(options);
      return again.ok ? again.target : found.target;
    },
    say,
  });
  await relay.start();
  process.stdin.on('end', () => void relay.close());
  await relay.done;
  return 0;
}
