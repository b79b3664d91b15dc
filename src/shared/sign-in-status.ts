import type { ServerStatus } from './status';

/** The problems that leave a remote server waiting for the user to sign in (OAuth), not broken. */
export const SIGN_IN_CODES: ReadonlySet<string> = new Set(['server.needsSignIn', 'server.signInAgain', 'server.signInFailed']);

/**
 * The problems that leave a server waiting for its runtime (uv, Node.js): missing here, or its download
 * failed or was refused. Its card offers Download uv (again): the server is not broken, the user has a step to take.
 */
export const RUNTIME_CODES: ReadonlySet<string> = new Set([
  'server.runtimeMissing',
  'server.runtimeDownloadFailed',
  'server.runtimeMismatch',
]);

type Waiting = Pick<ServerStatus, 'transport' | 'state' | 'lastErrorCause'>;

/**
 * A remote server stopped only because it waits for a sign-in: its card offers Sign in, and the
 * summaries count it apart from the failed ones (nothing is broken; the user has a step to take).
 */
export function waitsForSignIn(status: Waiting): boolean {
  const remote = status.transport === 'sse' || status.transport === 'streamable-http';
  return remote && status.state === 'failed' && SIGN_IN_CODES.has(status.lastErrorCause?.code ?? '');
}

/** The runtime (its label: "uv", "Node.js") a server stopped only for waits for, as its problem names it. */
export function runtimeAwaited(status: Waiting): string | undefined {
  const cause = status.lastErrorCause;
  if (status.state !== 'failed' || !cause || !RUNTIME_CODES.has(cause.code)) return undefined;
  return typeof cause.params.runtime === 'string' ? cause.params.runtime : undefined;
}

/**
 * The user's step a server waits for (a sign-in, a runtime's download), if that is all that stops it: the
 * card, the sidebar, the overview and the tray count it apart from the failed ones, in amber.
 */
export function stepAwaited(status: Waiting): 'signIn' | 'runtime' | undefined {
  if (waitsForSignIn(status)) return 'signIn';
  return runtimeAwaited(status) !== undefined ? 'runtime' : undefined;
}

/** Stopped only until the user takes a step (see `stepAwaited`): not a failure. */
export const waitsForUser = (status: Waiting): boolean => stepAwaited(status) !== undefined;

/** The runtimes the servers wait for, each once ("uv", "uv, Node.js"): what the summaries name. */
export const runtimesAwaited = (servers: Waiting[]): string[] => [
  ...new Set(servers.map(runtimeAwaited).filter((r): r is string => r !== undefined)),
];

/**
 * A server's name as `xiaozhi-tray login` takes it in a shell (quoted when the shell would split it):
 * the `server` of a sign-in problem, which its advice puts after `xiaozhi-tray login`.
 */
export const loginArgument = (name: string): string => (/^[\w.-]+$/.test(name) ? name : JSON.stringify(name));
