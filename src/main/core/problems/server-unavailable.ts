import type { ServerState } from '../../../shared/status';

/** A call to a server that is not running (starting, restarting, failed, stopped): the hub words it as that. */
export class ServerUnavailableError extends Error {
  constructor(
    server: string,
    readonly state: ServerState,
  ) {
    super(`server "${server}" is ${state}`);
  }
}
