import { backoffCeiling, jitteredDelay } from '../io/backoff';

/**
 * What a server does after it failed: try again in so many ms, or stay failed. A pure function of
 * the history of its failures, the failure and the time (given, not read), so every rule is tested
 * without processes or timers.
 */

/** A failure, as far as trying again goes. */
export type FailureKind =
  /** No retry can fix it (the program is not there, credentials refused…): failed until the user acts. */
  | 'permanent'
  /** The server's own doing (a crash, a lost connection, a start that failed): retried, and counted. */
  | 'crash'
  /** Not the server's doing (a spawn refused for lack of resources: EMFILE…): retried, never counted. */
  | 'resources'
  /**
   * A package registry out of reach (npx, uvx): the network or a download source the user may change,
   * read again at each start. Retried on the backoff, never counted as a crash loop.
   */
  | 'network';

export interface RestartRules {
  restartBaseMs: number;
  restartMaxMs: number;
  /** This many crashes within `crashWindowMs` and a server that `givesUp` stays failed. */
  maxCrashes: number;
  crashWindowMs: number;
  /** A local program gives up after a crash loop; a remote server is tried for ever (its network may come back). */
  givesUp: boolean;
}

export interface RestartHistory {
  /** When the crashes still within the window happened, oldest first. */
  readonly crashTimes: readonly number[];
  /** Tries since the backoff last started over: the exponent of the next delay. */
  readonly attempt: number;
}

/** A server just started by the user: nothing counted against it. */
export const NO_FAILURES: RestartHistory = { crashTimes: [], attempt: 0 };

export interface Loss {
  kind: FailureKind;
  /** How long it had been running when it failed (0 for a start that failed). */
  ranForMs: number;
  /** The time of the failure (ms). */
  now: number;
  /** A draw in [0, 1) for the jitter of the delay. */
  draw: number;
}

export type RestartStep =
  | { next: 'retry'; delayMs: number; history: RestartHistory }
  | { next: 'fail'; why: 'permanent'; history: RestartHistory }
  | { next: 'fail'; why: 'crashLoop'; crashes: number; history: RestartHistory };

export function restartStep(history: RestartHistory, loss: Loss, rules: RestartRules): RestartStep {
  if (loss.kind === 'permanent') return { next: 'fail', why: 'permanent', history };
  // A server that ran longer than the window was well: its earlier failures no longer count.
  const fresh = loss.ranForMs > rules.crashWindowMs ? NO_FAILURES : history;
  const crashTimes = [...fresh.crashTimes.filter((t) => loss.now - t < rules.crashWindowMs), ...(loss.kind === 'crash' ? [loss.now] : [])];
  if (rules.givesUp && crashTimes.length >= rules.maxCrashes) {
    return { next: 'fail', why: 'crashLoop', crashes: crashTimes.length, history: { crashTimes, attempt: fresh.attempt } };
  }
  const ceiling = backoffCeiling(fresh.attempt, rules.restartBaseMs, rules.restartMaxMs);
  return {
    next: 'retry',
    delayMs: jitteredDelay(ceiling, rules.restartBaseMs, loss.draw),
    history: { crashTimes, attempt: fresh.attempt + 1 },
  };
}
