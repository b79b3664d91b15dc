import type { ChildProcess } from 'node:child_process';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { STDIO_DEFAULT_MAX_BUFFER_SIZE } from '@modelcontextprotocol/sdk/shared/stdio.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { FetchLike, Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { problem, type Problem } from '../../../shared/problem';
import type { McpServerSettings as ServerSettings, RemoteServerSettings, StdioServerSettings } from '../../../shared/settings';
import { corkForThisTurn } from '../io/cork';
import { boundedFetch } from '../io/bounded-fetch';
import { useLeanReadBuffer } from './lean-read-buffer';
import { LineDecoder } from './line-decoder';
import { modernHttpFetch } from './modern-http-fetch';
import { checkHeaders, serverUrl } from './permanent-failure';
import { remoteHeaders } from '../io/remote-headers';
import { ProblemError, type ProcessExit } from '../problems/server-problems';
import { withoutPrivateEnv } from './private-env';
import { withPathFirst } from '../runtimes/child-runtime';
import { ServerOAuth } from '../oauth/server-oauth';
import type { TokenVault } from '../oauth/token-vault';

/**
 * The transport to one configured server: a spawned program over stdio, or a remote one over SSE
 * or streamable HTTP. Where the SDK keeps what we need private (the stdio child process, its read
 * buffer), this file is the only one that reaches in, and tests fail loudly if those fields move.
 */

/** The longest line a stdio server may print: the SDK's bound, kept by our own read buffer. */
export const STDIO_MAX_LINE_BYTES = STDIO_DEFAULT_MAX_BUFFER_SIZE;

/**
 * What may wait in memory for a stdio server to read it: past this, it has stopped reading (and
 * anything more it is sent, such as answers to its own requests, would be held without end).
 */
export const STDIO_MAX_UNREAD_BYTES = 16 * 1024 * 1024;

/** After a stdio server's process exits, how long its pipes may stay open (held by a process it started) before they are closed. */
const HELD_PIPE_GRACE_MS = 500;

export interface TransportContext {
  /** The environment children start from (the user's, with the login shell's PATH). */
  baseEnv: NodeJS.ProcessEnv;
  /** The app's own runtime's folder (Node.js, uv), put first on this child's PATH only. */
  pathPrefix?: string;
  modelscopeApiKey: string | undefined;
  /** Where npm and uv fetch packages from (the download-source setting); the server's own env still wins. */
  mirrorEnv: Record<string, string>;
  /** A remote server's response or event past this size drops its connection. */
  maxRemoteMessageBytes: number;
  /** A line the program printed on stderr. */
  onStderrLine: (line: string) => void;
  /** The program has been spawned: its pid is known. */
  onSpawned: () => void;
  /** The program ended ('exit' comes before the pipes close, so this is known when the connection is lost). */
  onExit: (exit: ProcessExit) => void;
  /** It ended, but a process it started holds its pipes open: they are closed now, which ends the connection. */
  onHeldOutput: () => void;
  /** A bound was passed (a remote server's response or event, a stdio server's unread input): drop the connection. */
  onTooBig: (tooBig: Problem) => void;
  /** Where sign-ins (OAuth) are kept; none: a server that asks for one is refused as before. */
  oauth?: { vault: TokenVault; env: NodeJS.ProcessEnv } | undefined;
  /** The server stopped for the user to sign in (again), perhaps while it ran. */
  onSignInNeeded?: (stop: Problem) => void;
}

/** The transport for `settings`; throws `BadServerSetting` for a remote server's URL or header that can never work. */
export function makeTransport(settings: ServerSettings, context: TransportContext): Transport {
  if (settings.transport === 'stdio') return stdioTransport(settings, context);
  const url = serverUrl(settings.url);
  const headers = remoteHeaders(url, settings.headers, context.modelscopeApiKey);
  checkHeaders(headers);
  // The transport would only retry its stream: the server drops this connection, as for a crash.
  const bounded = boundedFetch(context.maxRemoteMessageBytes, context.onTooBig);
  const authProvider = oauthFor(settings, headers, context);
  // The sign-in hears the server's answers: a 403 insufficient_scope is a step-up for the user.
  const fetch: FetchLike = authProvider
    ? async (input, init) => {
        const response = await bounded(input, init);
        authProvider.observe(response);
        return response;
      }
    : bounded;
  const auth = authProvider ? { authProvider } : {};
  return settings.transport === 'sse'
    ? new SSEClientTransport(url, { requestInit: { headers }, fetch, ...auth })
    : new StreamableHTTPClientTransport(url, { requestInit: { headers }, fetch: modernHttpFetch(fetch), ...auth });
}

/**
 * The sign-in of a remote server: for one configured with `oauth`, or one without an Authorization
 * header of its own (whose 401 may ask for a sign-in; one that offers none is refused as before).
 */
function oauthFor(settings: RemoteServerSettings, headers: Record<string, string>, context: TransportContext): ServerOAuth | undefined {
  if (!context.oauth) return undefined;
  const hasAuthorization = Object.keys(headers).some((name) => name.toLowerCase() === 'authorization');
  if (hasAuthorization && !settings.oauth) return undefined;
  return new ServerOAuth({
    server: settings.name,
    serverUrl: settings.url,
    settings: settings.oauth,
    vault: context.oauth.vault,
    env: context.oauth.env,
    mode: { kind: 'background' },
    ...(context.onSignInNeeded ? { onStop: context.onSignInNeeded } : {}),
  });
}

function stdioTransport(s: StdioServerSettings, context: TransportContext): StdioClientTransport {
  // The bridge's own secrets reach a child only if its config sets them.
  const env = withoutPrivateEnv(context.baseEnv);
  // Python on Windows prints in the console code page unless told otherwise.
  env.PYTHONIOENCODING ??= 'utf-8';
  Object.assign(env, context.mirrorEnv, s.env);
  if (context.pathPrefix) withPathFirst(env, context.pathPrefix);
  const transport = new StdioClientTransport({ command: s.command, args: s.args, env, stderr: 'pipe', ...(s.cwd ? { cwd: s.cwd } : {}) });
  useLeanReadBuffer(transport, STDIO_MAX_LINE_BYTES);
  const decoder = new LineDecoder(context.onStderrLine, { gbkFallback: process.platform === 'win32' });
  transport.stderr?.on('data', (chunk: Buffer) => decoder.push(chunk));
  transport.stderr?.on('end', () => decoder.flush());
  // How the process ended: the SDK closes on 'close' and drops the code, which a user needs to
  // tell a crash (exit code 1), a kill (SIGKILL: out of memory?) and a clean exit apart.
  const start = transport.start.bind(transport);
  transport.start = async () => {
    await start();
    context.onSpawned();
    const child = stdioProcess(transport);
    child?.once('exit', (code, signal) => {
      context.onExit({ code, signal });
      // A process it started with its stdio (a helper whose output was not redirected) can hold
      // the pipes open after it died: they would never close, and the server would look alive,
      // its calls timing out, until that process ends. Close our ends, which ends the connection.
      const held = setTimeout(() => {
        context.onHeldOutput();
        for (const stream of [child.stdin, child.stdout, child.stderr]) stream?.destroy();
      }, HELD_PIPE_GRACE_MS);
      held.unref();
      child.once('close', () => clearTimeout(held));
    });
  };
  // Batch writes to the child's stdin per turn of the event loop (see corkForThisTurn).
  const send = transport.send.bind(transport);
  transport.send = (message) => {
    const stdin = stdioProcess(transport)?.stdin ?? undefined;
    if (stdin && stdin.writableLength > STDIO_MAX_UNREAD_BYTES) {
      const notReading = problem('server.notReading', { megabytes: STDIO_MAX_UNREAD_BYTES / 1024 / 1024 });
      context.onTooBig(notReading);
      return Promise.reject(new ProblemError(notReading));
    }
    corkForThisTurn(stdin);
    return send(message);
  };
  return transport;
}

/** The child process of a started stdio transport: the SDK's private `_process` (the version is pinned; a test fails if it moves). */
export function stdioProcess(transport: Transport | undefined): ChildProcess | undefined {
  return transport instanceof StdioClientTransport ? (transport as unknown as { _process?: ChildProcess })._process : undefined;
}

/** The pid of a stdio child as soon as it is spawned (before `initialize` has been answered). */
export function stdioPid(transport: Transport | undefined): number | undefined {
  return transport instanceof StdioClientTransport ? (transport.pid ?? undefined) : undefined;
}
