import type { Logger } from './log-book';

/**
 * Refusals of unauthenticated peers (a wrong token, a foreign origin, a request line that does not
 * parse, one connection too many), logged without letting anyone who can reach a port flood the
 * log (it keeps 5,000 lines; a page looping on us would push every real line out): the first at
 * once, the ones that follow counted and said in one line per interval.
 */
export class RefusalLog {
  private count = 0;
  private latest = '';
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly log: Logger,
    private readonly everyMs: number,
    /** What is counted, singular: "request", "connection". */
    private readonly noun: string,
  ) {}

  add(line: string): void {
    if (!this.timer) {
      this.log.warn(line);
      this.timer = setTimeout(() => this.tick(), this.everyMs);
      this.timer.unref();
      return;
    }
    this.count++;
    this.latest = line;
  }

  /** Says what was counted; the interval ends when nothing was. */
  private tick(): void {
    this.timer = undefined;
    if (this.count === 0) return;
    this.say();
    this.timer = setTimeout(() => this.tick(), this.everyMs);
    this.timer.unref();
  }

  private say(): void {
    this.log.warn(
      `refused ${this.count} more ${this.noun}${this.count === 1 ? '' : 's'} in the last ${Math.round(this.everyMs / 1000)} s; the last: ${this.latest}`,
    );
    this.count = 0;
  }

  /** Stopping: say what is still counted. */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.count > 0) this.say();
  }
}
