import type { ChildProcess } from 'node:child_process';

import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { STDIO_DEFAULT_MAX_BUFFER_SIZE } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { FetchLike, Transport } from '@modelcontextprotocol/sdk/shared/transport.js';

import type { Problem } from '../../../shared/problem';
import type { McpServerSettings as ServerSettings, RemoteServerSettings, StdioServerSettings } from '../../../shared/settings';
import { boundedFetch } from '../io/bounded-fetch';
import { remoteHeaders } from '../io/remote-headers';
import { ServerOAuth } from '../oauth/server-oauth';
import type { TokenVault } from '../oauth/token-vault';
import type { ProcessExit } from '../problems/server-problems';
import { withPathFirst } from '../runtimes/child-runtime';
import { LineDecoder } from './line-decoder';
import { modernHttpFetch } from './modern-http-fetch';
import { checkHeaders, serverUrl } from './permanent-failure';
import { withoutPrivateEnv } from './private-env';
import { StdioTransport } from './stdio-transport';

/**
 * The transport to one configured server: a spawned program over stdio (our own transport), or a
 * remote one over SSE or streamable HTTP (the SDK's).
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

function stdioTransport(s: StdioServerSettings, context: TransportContext): StdioTransport {
  // The bridge's own secrets reach a child only if its config sets them.
  const env = withoutPrivateEnv(context.baseEnv);
  // Python on Windows prints in the console code page unless told otherwise.
  env.PYTHONIOENCODING ??= 'utf-8';
  Object.assign(env, context.mirrorEnv, s.env);
  if (context.pathPrefix) withPathFirst(env, context.pathPrefix);
  const decoder = new LineDecoder(context.onStderrLine, { gbkFallback: process.platform === 'win32' });
  return new StdioTransport(
    // The SDK's transport added its default variables (HOME, PATH…) under the server's: so does this one.
    { command: s.command, args: s.args, env: { ...getDefaultEnvironment(), ...env }, cwd: s.cwd },
    {
      maxLineBytes: STDIO_MAX_LINE_BYTES,
      maxUnreadBytes: STDIO_MAX_UNREAD_BYTES,
      onStderr: (chunk) => decoder.push(chunk),
      onStderrEnd: () => decoder.flush(),
      onSpawned: context.onSpawned,
      onNotReading: context.onTooBig,
      // How the process ended: a user needs to tell a crash (exit code 1), a kill (SIGKILL: out of
      // memory?) and a clean exit apart.
      onExit: (exit, child) => {
        context.onExit(exit);
        // A process it started with its stdio (a helper whose output was not redirected) can hold
        // the pipes open after it died: they would never close, and the server would look alive,
        // its calls timing out, until that process ends. Close our ends, which ends the connection.
        const held = setTimeout(() => {
          context.onHeldOutput();
          for (const stream of [child.stdin, child.stdout, child.stderr]) stream?.destroy();
        }, HELD_PIPE_GRACE_MS);
        held.unref();
        child.once('close', () => clearTimeout(held));
      },
    },
  );
}

/** The child process of a started stdio transport, until its pipes have closed. */
export function stdioProcess(transport: Transport | undefined): ChildProcess | undefined {
  return transport instanceof StdioTransport ? transport.process : undefined;
}

/** The pid of a stdio child as soon as it is spawned (before `initialize` has been answered). */
export function stdioPid(transport: Transport | undefined): number | undefined {
  return transport instanceof StdioTransport ? transport.pid : undefined;
}
