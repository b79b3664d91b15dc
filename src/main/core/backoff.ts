/**
 * Capped exponential backoff with full jitter: the delay is uniform in [0, min(cap, base·2^attempt)],
 * so many bridges dropped at once by the same server do not come back in lockstep.
 */
export class Backoff {
  private attempt = 0;

  constructor(
    private readonly baseMs: number,
    private readonly capMs: number,
    private readonly random: () => number = Math.random,
  ) {}

  /** The delay before the next try; each call counts one more failure. */
  next(): number {
    const ceiling = Math.min(this.capMs, this.baseMs * 2 ** Math.min(this.attempt, 30));
    this.attempt++;
    // A floor of a tenth of the base avoids a hot loop when the jitter draws ~0 repeatedly.
    return Math.max(Math.min(this.baseMs / 10, ceiling), Math.round(this.random() * ceiling));
  }

  get attempts(): number {
    return this.attempt;
  }

  reset(): void {
    this.attempt = 0;
  }
}
