import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { LOCAL_CLIENT_ID, SENDABLE_TOKEN } from '../shared/settings';
import { clientToken, proofMatches } from '../main/core/local-server/client-tokens';
import { STATE_FILE_NAME, appStateDir, isLoopbackUrl, readStateFile, type StateLookup } from '../main/core/local-server/state-file';
import { StdioRelay, type RelayTarget } from '../main/core/local-server/stdio-relay';
import { secretOption } from './secret-input';

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
      return `cannot read ${lookup.file}; start Xiaozhi Tray again, or pass --url with --token-file (or XIAOZHI_TRAY_TOKEN).`;
    case 'untrusted':
      return `not using ${lookup.file}: ${lookup.why}. Remove it and start Xiaozhi Tray again, or pass --url with --token-file (or XIAOZHI_TRAY_TOKEN).`;
    default:
      return 'Xiaozhi Tray is not running, or its local MCP server is off (turn it on in Settings, or run: xiaozhi-tray run --config FILE --mcp-port 18790).';
  }
}

/** A token an Authorization header can carry; the error fetch gives for any other quotes the token. */
const sendable = (token: string) => SENDABLE_TOKEN.test(token);
const UNSENDABLE = 'has a space, a line break or another character an HTTP header cannot carry';

/** Where to go, and the tokens that may be the path's (not yet shown to anyone). */
type Located = { ok: true; url: string; client: string; tokens: string[] } | { ok: false; message: string };

/** The app's URL (…/mcp or …/mcp/<client>) and token, from the flags or the running app's state file. */
function locate(options: ConnectOptions): Located {
  const client = options.client ?? '';
  if (options.url) {
    const base = options.url.replace(/\/+$/, '');
    const token = options.token ?? process.env.XIAOZHI_TRAY_TOKEN ?? '';
    if (!token)
      return {
        ok: false,
        message:
          '--url needs a token: set XIAOZHI_TRAY_TOKEN, or pass --token-file FILE (copy it from Xiaozhi Tray, Settings → Local MCP server).',
      };
    if (!sendable(token))
      return { ok: false, message: `the token ${UNSENDABLE}: copy it again from Xiaozhi Tray, Settings → Local MCP server.` };
    let parsed: URL;
    try {
      parsed = new URL(base);
    } catch {
      return { ok: false, message: `--url must be an http:// URL like http://127.0.0.1:18790/mcp, not "${options.url}".` };
    }
    // The token goes where the URL says: only to this machine, by a loopback name.
    if (!isLoopbackUrl(parsed))
      return {
        ok: false,
        message: `--url must name this machine (http://127.0.0.1, http://localhost or http://[::1]), not ${parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.origin : `"${options.url}"`}: the token is sent there.`,
      };
    // Accepted: the server (http://127.0.0.1:18790), its /mcp, or a client's own /mcp/<id>.
    const own = /\/mcp\/([^/]+)$/.exec(parsed.pathname);
    const suffix = client ? `/${client}` : '';
    const url = own ? base : /\/mcp$/.test(parsed.pathname) ? `${base}${suffix}` : `${base}/mcp${suffix}`;
    const pathClient = own ? decodeURIComponent(own[1] as string) : client;
    // The token given may be the client's own (copied from its row) or the app's (its own is derived).
    const tokens = pathClient ? [token, clientToken(token, pathClient)] : [token];
    return { ok: true, url, client: pathClient, tokens };
  }
  const dir = options.stateDir ?? appStateDir();
  const lookup = readStateFile(dir);
  if (!lookup.ok) return { ok: false, message: notRunning(lookup) };
  const appToken = options.token ?? lookup.state.token;
  if (!sendable(appToken))
    return {
      ok: false,
      message: `the token ${options.token === undefined ? `in ${path.join(dir, STATE_FILE_NAME)}` : 'given'} ${UNSENDABLE}; start Xiaozhi Tray again, or pass --url and --token-file.`,
    };
  return { ok: true, url: `${lookup.state.url}${client ? `/${client}` : ''}`, client, tokens: [clientToken(appToken, client)] };
}

/** The most of a proof answer read: the app's is under 100 bytes. */
const MAX_PROOF_BYTES = 4096;

/** A body read up to `max` bytes; undefined past it (a listener that streams for ever). */
async function boundedText(response: Response, max: number): Promise<string | undefined> {
  const reader = response.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel().catch(() => undefined);
      return undefined;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * Before any token leaves this process: asks what listens at the URL to prove it knows the path's
 * token (an HMAC of a fresh nonce and its port, `GET /proof`). A listener that took the app's
 * address after it stopped (a stale state file, a pid used again) cannot, and gets nothing.
 * Returns the proven token, or one sentence saying why none was sent.
 */
export async function proveListener(
  url: string,
  client: string,
  tokens: string[],
): Promise<{ ok: true; token: string } | { ok: false; message: string }> {
  const target = new URL(url);
  const port = Number(target.port || 80);
  const nonce = randomBytes(24).toString('base64url');
  const ask = new URL(`/proof?client=${encodeURIComponent(client)}&nonce=${nonce}`, target);
  let response: Response;
  try {
    response = await fetch(ask, { redirect: 'manual', signal: AbortSignal.timeout(5000) });
  } catch (error) {
    const code = (error as { cause?: { code?: string } }).cause?.code;
    return {
      ok: false,
      message:
        code === 'ECONNREFUSED'
          ? `Xiaozhi Tray is not running at ${target.origin} (nothing listens there).`
          : `cannot reach Xiaozhi Tray at ${target.origin}: ${(error as Error).message}.`,
    };
  }
  let proof: unknown;
  try {
    const text = response.ok ? await boundedText(response, MAX_PROOF_BYTES) : undefined;
    proof = text === undefined ? undefined : (JSON.parse(text) as { proof?: unknown }).proof;
  } catch {
    proof = undefined;
  } finally {
    await response.body?.cancel().catch(() => undefined);
  }
  const notOurs = `what listens at ${target.origin} could not show that it knows the token, so the token was not sent to it`;
  if (typeof proof !== 'string')
    return { ok: false, message: `${notOurs}: it is not Xiaozhi Tray (or a version older than this one; update it).` };
  const token = tokens.find((candidate) => proofMatches(proof, candidate, nonce, port));
  if (token === undefined)
    return {
      ok: false,
      message: `${notOurs}. Was the token regenerated? Copy the new one from Xiaozhi Tray, Settings → Local MCP server (or start the app again).`,
    };
  return { ok: true, token };
}

/** Where the app is now, with a token it has proven to know; one sentence when not. */
async function findTarget(options: ConnectOptions): Promise<{ ok: true; target: RelayTarget } | { ok: false; message: string }> {
  const located = locate(options);
  if (!located.ok) return located;
  const proven = await proveListener(located.url, located.client, located.tokens);
  return proven.ok ? { ok: true, target: { url: located.url, token: proven.token } } : proven;
}

/**
 * `xiaozhi-tray connect`: for clients that only start stdio servers (Claude Desktop). Relays to the
 * running app's local MCP server until the client closes stdin. Exits 1 with one line on stderr
 * when the app is not there; stdout carries MCP messages only.
 */
export async function connectCommand(flags: Record<string, string | true>, where: { stateDir?: string } = {}): Promise<number> {
  const options: ConnectOptions = { ...where };
  for (const key of ['url', 'client'] as const) if (typeof flags[key] === 'string') options[key] = flags[key];
  // XIAOZHI_TRAY_TOKEN is read with --url only (locate): beside the state file it would replace the app's own.
  const token = secretOption(
    flags,
    { flag: 'token', fileFlag: 'token-file' },
    { env: process.env, cwd: process.cwd(), warn: (line) => say(`warning: ${line}`) },
  );
  if (token !== undefined) options.token = token;
  if (options.client !== undefined && !LOCAL_CLIENT_ID.test(options.client)) {
    say(`--client must be lowercase letters, digits, - or _ (like claude-desktop), not "${options.client}".`);
    return 2;
  }
  const found = await findTarget(options);
  if (!found.ok) {
    say(found.message);
    return 1;
  }
  const relay = new StdioRelay({
    local: new StdioServerTransport(),
    initial: found.target,
    // After an app restart the state file may name a new port and a new token: read it again, and
    // have the listener prove it knows the token again before it gets it.
    target: async () => {
      const again = await findTarget(options);
      if (!again.ok) throw new Error(again.message);
      return again.target;
    },
    say,
  });
  await relay.start();
  process.stdin.on('end', () => void relay.close());
  await relay.done;
  return 0;
}
