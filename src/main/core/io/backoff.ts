export interface BackoffOptions {
  /**
   * When set, no delay exceeds this fraction of the time since the first failure (and at least
   * the base). A short outage then costs at most that fraction of its length once it ends, while a
   * long one still backs off to the cap.
   */
  outageFraction?: number;
  /** No delay is shorter than this (default: a tenth of the base). */
  floorMs?: number;
  now?: () => number;
}

/** The ceiling of the delay after `attempt` failures before (from 0): base·2^attempt, capped. */
export const backoffCeiling = (attempt: number, baseMs: number, capMs: number): number =>
  Math.min(capMs, baseMs * 2 ** Math.min(attempt, 30));

/**
 * A delay drawn uniformly under `ceiling` by `draw` (in [0, 1)), with a floor of a tenth of the base,
 * which avoids a hot loop when the jitter draws ~0 repeatedly.
 */
export const jitteredDelay = (ceiling: number, baseMs: number, draw: number): number =>
  Math.max(Math.min(baseMs / 10, ceiling), Math.floor(draw * ceiling));

/**
 * Capped exponential backoff with full jitter: the delay is uniform in [0, min(cap, base·2^attempt)],
 * so many bridges dropped at once by the same server do not come back in lockstep.
 */
export class Backoff {
  private attempt = 0;
  private firstFailureAt = 0;

  constructor(
    private readonly baseMs: number,
    private readonly capMs: number,
    private readonly random: () => number = Math.random,
    private readonly options: BackoffOptions = {},
  ) {}

  /** The delay before the next try; each call counts one more failure. */
  next(): number {
    const now = (this.options.now ?? Date.now)();
    if (this.attempt === 0) this.firstFailureAt = now;
    let ceiling = backoffCeiling(this.attempt, this.baseMs, this.capMs);
    if (this.options.outageFraction !== undefined) {
      ceiling = Math.min(ceiling, Math.max(this.baseMs, (now - this.firstFailureAt) * this.options.outageFraction));
    }
    this.attempt++;
    const delay = jitteredDelay(ceiling, this.baseMs, this.random());
    return this.options.floorMs === undefined ? delay : Math.max(this.options.floorMs, delay);
  }

  get attempts(): number {
    return this.attempt;
  }

  reset(): void {
    this.attempt = 0;
  }
}
