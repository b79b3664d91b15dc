import type { ServerStatus } from '../../../shared/status';
import type { Failure } from '../problems/server-problems';
import type { Supervisor } from './supervisor';

/**
 * What every kind of server (an MCP server, a web service) does alike in front of the fleet: start,
 * wind down, and the lifecycle's part of its status, all through its `Supervisor`.
 */
export abstract class SupervisedServer {
  protected abstract readonly life: Supervisor;
  abstract readonly name: string;

  /** Starts (or restarts from `failed`); returns once the first attempt has settled. */
  start(): Promise<void> {
    return this.life.start();
  }

  /**
   * The bridge is about to stop this server: from now on a lost connection is neither reported as
   * a crash nor restarted (a terminal's Ctrl+C reaches the whole process group, so the children
   * often exit before `stop()` gets to them). Synchronous, so nothing can slip in between.
   */
  windDown(): void {
    this.life.end();
  }

  /** The status's fields every server has: who it is and how its lifecycle stands. */
  protected lifeStatus(
    settings: { transport: ServerStatus['transport']; enabled: boolean },
    words: (failure: Failure) => string,
  ): Pick<
    ServerStatus,
    'name' | 'transport' | 'enabled' | 'state' | 'since' | 'restarts' | 'lastError' | 'lastErrorCause' | 'cause' | 'retryAt'
  > {
    return { name: this.name, transport: settings.transport, enabled: settings.enabled, ...this.life.status(words) };
  }
}
