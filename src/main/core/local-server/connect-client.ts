import { randomBytes } from 'node:crypto';
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import path from 'node:path';

import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';

import { type Translate, translator } from '../../../shared/i18n/translate';
import { LOCAL_CLIENT_ID, SENDABLE_TOKEN } from '../../../shared/settings';
import type { OptionSpec } from '../command-line/args';
import { secretOption } from '../command-line/secret-input';
import { isLoopbackHost } from '../io/http-gate';
import { clientToken, proofAddress, proofMatches } from './client-tokens';
import { appStateDir, isLoopbackUrl, readStateFile, STATE_FILE_NAME, type StateLookup } from './state-file';
import { type RelayTarget, StdioRelay } from './stdio-relay';

export interface ConnectOptions {
  url?: string;
  token?: string;
  client?: string;
  /** Send the token to --url even when the running app's state file names another address. */
  forceUrl?: boolean;
  /** Where the running app's state file is (default: the app's folder, or XIAOZHI_TRAY_STATE_DIR). */
  stateDir?: string;
  /** The reader's language, for why the app cannot be reached (default English). */
  t?: Translate;
}

/** The flags of `connect` (`xiaozhi-tray connect`, and the desktop app started as `<app> connect`). */
export const CONNECT_OPTIONS: OptionSpec[] = [
  { name: 'client', value: 'ID', help: 'cli.connect.opt.client' },
  { name: 'url', value: 'URL', help: 'cli.connect.opt.url' },
  {
    name: 'force-url',
    help: 'cli.connect.opt.force-url',
  },
  {
    name: 'token-file',
    value: 'FILE',
    help: 'cli.connect.opt.token-file',
  },
  {
    name: 'token',
    value: 'TOKEN',
    help: 'cli.connect.opt.token',
  },
];

const say = (line: string) => process.stderr.write(`xiaozhi-tray connect: ${line}\n`);

function notRunning(lookup: Exclude<StateLookup, { ok: true }>, t: Translate): string {
  switch (lookup.reason) {
    case 'stale':
      return t('cli.connect.stale', { file: lookup.file });
    case 'invalid':
      return `cannot read ${lookup.file}; start Xiaozhi Tray again, or pass --url with --token-file (or XIAOZHI_TRAY_TOKEN).`;
    case 'untrusted':
      return `not using ${lookup.file}: ${lookup.why}. Remove it and start Xiaozhi Tray again, or pass --url with --token-file (or XIAOZHI_TRAY_TOKEN).`;
    default:
      return t('cli.connect.notRunning');
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
    const elsewhere = options.forceUrl ? undefined : notTheAppsAddress(parsed, options.stateDir ?? appStateDir());
    if (elsewhere) return { ok: false, message: elsewhere };
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
  if (!lookup.ok) return { ok: false, message: notRunning(lookup, options.t ?? translator('en')) };
  const appToken = options.token ?? lookup.state.token;
  if (!sendable(appToken))
    return {
      ok: false,
      message: `the token ${options.token === undefined ? `in ${path.join(dir, STATE_FILE_NAME)}` : 'given'} ${UNSENDABLE}; start Xiaozhi Tray again, or pass --url and --token-file.`,
    };
  return { ok: true, url: `${lookup.state.url}${client ? `/${client}` : ''}`, client, tokens: [clientToken(appToken, client)] };
}

/**
 * When the running app's state file says where it listens and --url names another address or port,
 * why the token is not sent there: another user's program can listen on the app's port at another
 * loopback address (the app on 127.0.0.1, it on [::1]). A name (localhost) passes on the app's
 * port: each address it resolves to must prove it knows the token (proveListener).
 */
function notTheAppsAddress(given: URL, stateDir: string): string | undefined {
  const running = readStateFile(stateDir);
  if (!running.ok) return undefined;
  const app = new URL(running.state.url);
  const samePort = (given.port || '80') === (app.port || '80');
  const sameHost =
    isIP(bare(given.hostname)) === 0 || isIP(bare(app.hostname)) === 0 || proofAddress(given.hostname) === proofAddress(app.hostname);
  if (samePort && sameHost) return undefined;
  return `--url names ${given.origin}, but Xiaozhi Tray listens at ${app.origin} (${path.join(stateDir, STATE_FILE_NAME)}): leave out --url, or add --force-url to send the token there anyway.`;
}

const bare = (hostname: string) => hostname.replace(/^\[|\]$/g, '');

/** The addresses a loopback URL's host names, in the order the system gives (localhost: often ::1 first). */
async function loopbackAddresses(hostname: string): Promise<string[]> {
  if (isIP(bare(hostname)) !== 0) return [bare(hostname)];
  try {
    const found = await lookup(hostname, { all: true, verbatim: true });
    const addresses = found.map((entry) => entry.address).filter((address) => isLoopbackHost(address));
    return addresses.length > 0 ? addresses : ['127.0.0.1'];
  } catch {
    return ['127.0.0.1'];
  }
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
 * token (an HMAC of a fresh nonce and the address and port it was reached at, `GET /proof`). A
 * listener that took the app's address after it stopped (a stale state file, a pid used again), or
 * listens on the app's port at another loopback address and relays the question to the app,
 * cannot. A name (localhost) is tried address by address; the URL returned names the address that
 * proved it, so no later request goes to another one. Returns the proven token, or one sentence
 * saying why none was sent.
 */
export async function proveListener(
  url: string,
  client: string,
  tokens: string[],
  t: Translate = translator('en'),
): Promise<{ ok: true; token: string; url: string } | { ok: false; message: string }> {
  const target = new URL(url);
  const port = Number(target.port || 80);
  let failure: string | undefined;
  for (const address of await loopbackAddresses(target.hostname)) {
    const at = new URL(target);
    at.hostname = address.includes(':') ? `[${address}]` : address;
    const asked = await askProof(at, client, t);
    if (!asked.ok) {
      // Nothing at one of the name's addresses: the next may be the app's.
      failure ??= asked.message;
      if (asked.refused) continue;
      return asked;
    }
    const notOurs = `what listens at ${target.origin} could not show that it knows the token, so the token was not sent to it`;
    if (typeof asked.proof !== 'string') {
      failure = `${notOurs}: it is not Xiaozhi Tray (or a version older than this one; update it).`;
      continue;
    }
    const proof = asked.proof;
    const token = tokens.find((candidate) => proofMatches(proof, candidate, asked.nonce, address, port));
    if (token !== undefined) return { ok: true, token, url: at.href.replace(/\/+$/, '') };
    failure = `${notOurs}. Was the token regenerated? Copy the new one from Xiaozhi Tray, Settings → Local MCP server (or start the app again).`;
  }
  return { ok: false, message: failure ?? t('cli.connect.nothingAt', { origin: target.origin }) };
}

/** `GET /proof` at one address with a fresh nonce: the proof it answered (anything), or why none came. */
async function askProof(
  at: URL,
  client: string,
  t: Translate,
): Promise<{ ok: true; nonce: string; proof: unknown } | { ok: false; refused: boolean; message: string }> {
  const nonce = randomBytes(24).toString('base64url');
  const ask = new URL(`/proof?client=${encodeURIComponent(client)}&nonce=${nonce}`, at);
  let response: Response;
  try {
    response = await fetch(ask, { redirect: 'manual', signal: AbortSignal.timeout(5000) });
  } catch (error) {
    const code = (error as { cause?: { code?: string } }).cause?.code;
    const origin = new URL(at).origin;
    return code === 'ECONNREFUSED'
      ? { ok: false, refused: true, message: t('cli.connect.nothingAt', { origin }) }
      : { ok: false, refused: false, message: `cannot reach Xiaozhi Tray at ${origin}: ${(error as Error).message}.` };
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
  return { ok: true, nonce, proof };
}

/** Where the app is now, with a token it has proven to know; one sentence when not. */
async function findTarget(options: ConnectOptions): Promise<{ ok: true; target: RelayTarget } | { ok: false; message: string }> {
  const located = locate(options);
  if (!located.ok) return located;
  const proven = await proveListener(located.url, located.client, located.tokens, options.t);
  return proven.ok ? { ok: true, target: { url: proven.url, token: proven.token } } : proven;
}

/**
 * `xiaozhi-tray connect`: for clients that only start stdio servers (Claude Desktop). Relays to the
 * running app's local MCP server until the client closes stdin. Exits 1 with one line on stderr
 * when the app is not there; stdout carries MCP messages only.
 */
export async function connectCommand(
  flags: Record<string, string | true>,
  where: { stateDir?: string; t?: Translate } = {},
): Promise<number> {
  const options: ConnectOptions = { ...where };
  for (const key of ['url', 'client'] as const) if (typeof flags[key] === 'string') options[key] = flags[key];
  if (flags['force-url'] === true) options.forceUrl = true;
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
