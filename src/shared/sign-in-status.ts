import type { ServerStatus } from './status';

/** The problems that leave a remote server waiting for the user to sign in (OAuth), not broken. */
export const SIGN_IN_CODES: ReadonlySet<string> = new Set(['server.needsSignIn', 'server.signInAgain', 'server.signInFailed']);

/**
 * A remote server stopped only because it waits for a sign-in: its card offers Sign in, and the
 * summaries count it apart from the failed ones (nothing is broken; the user has a step to take).
 */
export function waitsForSignIn(status: Pick<ServerStatus, 'transport' | 'state' | 'lastErrorCause'>): boolean {
  const remote = status.transport === 'sse' || status.transport === 'streamable-http';
  return remote && status.state === 'failed' && SIGN_IN_CODES.has(status.lastErrorCause?.code ?? '');
}

/**
 * A server's name as `xiaozhi-tray login` takes it in a shell (quoted when the shell would split it):
 * the `server` of a sign-in problem, which its advice puts after `xiaozhi-tray login`.
 */
export const loginArgument = (name: string): string => (/^[\w.-]+$/.test(name) ? name : JSON.stringify(name));
