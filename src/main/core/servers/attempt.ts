/**
 * What one attempt to run a server owns: its timers, its listeners, the callbacks it handed to a
 * client or a transport. Ending the attempt disposes them all at once, so a late callback of an old
 * attempt finds it over and does nothing, by construction rather than by comparing a counter (as VS
 * Code's disposables do). Each attempt is a new one; an ended one stays ended.
 */
export class Attempt {
  private readonly disposers = new Set<() => void>();
  private ended = false;

  /** Still the attempt under way: its callbacks act. */
  get live(): boolean {
    return !this.ended;
  }

  /** What is still to dispose (timers not yet fired, listeners): 0 once it ended, or a leak. */
  get held(): number {
    return this.disposers.size;
  }

  /** Runs `dispose` when the attempt ends (at once if it has already). */
  own(dispose: () => void): void {
    if (this.ended) dispose();
    else this.disposers.add(dispose);
  }

  /** `fn`, silent once the attempt is over. */
  guard<A extends unknown[]>(fn: (...args: A) => void): (...args: A) => void {
    return (...args) => {
      if (!this.ended) fn(...args);
    };
  }

  /** A timer that never fires after the attempt ended. */
  timeout(fn: () => void, ms: number, options: { unref?: boolean } = {}): void {
    if (this.ended) return;
    const clear = () => clearTimeout(timer);
    const timer = setTimeout(() => {
      this.disposers.delete(clear);
      fn();
    }, ms);
    if (options.unref) timer.unref();
    this.disposers.add(clear);
  }

  /** A repeating timer, cleared when the attempt ends. */
  interval(fn: () => void, ms: number): void {
    if (this.ended) return;
    const timer = setInterval(fn, ms);
    this.own(() => clearInterval(timer));
  }

  /** Ends the attempt: everything it owns is disposed, newest first. */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    const disposers = [...this.disposers].reverse();
    this.disposers.clear();
    for (const dispose of disposers) dispose();
  }
}
