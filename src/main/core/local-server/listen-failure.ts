import { type Problem, problem } from '../../../shared/problem';

/**
 * Why the local MCP server could not listen: a problem each UI words in its language (with what to
 * do: another port, another address), and the English the log and `lastError` keep.
 */
export class ListenError extends Error {
  constructor(
    message: string,
    readonly problem: Problem,
  ) {
    super(message);
  }
}

/** The listen error of `host:port`, told from its code. */
export function listenError(error: NodeJS.ErrnoException, host: string, port: number): ListenError {
  if (error.code === 'EADDRINUSE') return new ListenError(`port ${port} is already in use`, problem('localServer.portInUse', { port }));
  if (error.code === 'EADDRNOTAVAIL')
    return new ListenError(`${host} is not an address of this machine`, problem('localServer.notAnAddress', { host }));
  if (error.code === 'EACCES') return new ListenError(error.message, problem('localServer.portDenied', { port }));
  return new ListenError(error.message, problem('other', { detail: error.message }));
}
