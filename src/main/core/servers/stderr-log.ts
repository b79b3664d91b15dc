import type { Logger } from '../logs/log-book';
import { lineWeight, TellingLine } from './telling-line';

export interface StderrLogOptions {
  /** Lines logged in a burst before the rate applies. */
  burst?: number;
  /** Lines per second logged once the burst is spent. */
  perSecond?: number;
  /** Lines kept for the UI (a failed server shows why). */
  tailLines?: number;
  /** Characters kept of one line. */
  maxLineChars?: number;
  /** Called after each line (the tail changed). */
  onLine?: (line: string) => void;
}

/**
 * A server's stderr on its way to the log: every line reaches the tail the UI shows, but the log
 * takes a burst and then a steady rate, so a server printing 50 MB cannot flood the log (or the
 * CLI's stdout). What was left out is counted and said once the flood eases.
 */
export class StderrLog {
  private readonly tail: string[] = [];
  private readonly burst: number;
  private readonly perSecond: number;
  private readonly tailLines: number;
  private readonly maxLineChars: number;
  private tokens: number;
  private refilledAt = Date.now();
  private dropped = 0;
  private summaryTimer: NodeJS.Timeout | undefined;
  private attemptStarts = false;
  private restart = false;
  private readonly onLine: ((line: string) => void) | undefined;
  private readonly telling = new TellingLine();

  constructor(
    private readonly log: Logger,
    options: StderrLogOptions = {},
  ) {
    this.burst = options.burst ?? 200;
    this.perSecond = options.perSecond ?? 50;
    this.tailLines = options.tailLines ?? 30;
    this.maxLineChars = options.maxLineChars ?? 2000;
    this.tokens = this.burst;
    this.onLine = options.onLine;
  }

  /**
   * A new run of the program: its first line replaces the tail (no traceback repeated per attempt).
   * A restart's stderr goes to the debug log: a crash loop repeats the same trace, and the restart
   * line (at warn) already carries the line that tells why.
   */
  newAttempt(restart = false): void {
    this.attemptStarts = true;
    this.restart = restart;
    this.telling.reset();
  }

  /** The last lines, oldest first. */
  lines(): string[] {
    return this.tail.slice();
  }

  get last(): string | undefined {
    return this.tail[this.tail.length - 1];
  }

  /** The line of this attempt that says why it failed (an `Error:` line, a traceback's end), if one did. */
  get errorLine(): string | undefined {
    return this.telling.line;
  }

  push(raw: string): void {
    const line =
      raw.length > this.maxLineChars ? `${raw.slice(0, this.maxLineChars)}… (${raw.length - this.maxLineChars} more characters)` : raw;
    if (this.attemptStarts) {
      this.attemptStarts = false;
      this.tail.length = 0;
    }
    this.tail.push(line);
    if (this.tail.length > this.tailLines) this.tail.shift();
    this.telling.push(line);
    this.onLine?.(line);
    this.refill();
    if (this.tokens < 1) {
      this.dropped++;
      // Say how much was left out once the flood eases, even if the server then goes quiet.
      this.summaryTimer ??= setTimeout(() => {
        this.summaryTimer = undefined;
        this.flushSummary();
      }, 1000).unref();
      return;
    }
    this.tokens--;
    // The summary waits for its timer: said before every line let through, a lasting flood
    // logged as many summaries as lines.
    (this.log.output ?? this.log)[this.levelOf(line)](line);
  }

  /**
   * A stack frame, a caret, a blank line, the "Node.js v20" banner or npm's own notices (npx's, about npm) is for whoever debugs the server
   * (debug); npm's own error lines (npx could not fetch or run the package), errors; the error line that tells why, a warning;
   * anything else as the server said it (info).
   */
  private levelOf(line: string): 'debug' | 'info' | 'warn' | 'error' {
    if (this.restart || line.trim() === '' || /^\s/.test(line) || /^Node\.js v\d/.test(line) || /^npm notice\b/.test(line)) return 'debug';
    if (/^npm (?:error|ERR!)(?:\s|$)/.test(line)) return 'error';
    return lineWeight(line) === 3 ? 'warn' : 'info';
  }

  /** Stops the pending summary (the server is gone); says what was dropped, if anything. */
  close(): void {
    if (this.summaryTimer) clearTimeout(this.summaryTimer);
    this.summaryTimer = undefined;
    this.flushSummary();
  }

  private refill(): void {
    const now = Date.now();
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.refilledAt) / 1000) * this.perSecond);
    this.refilledAt = now;
  }

  private flushSummary(): void {
    if (this.dropped === 0) return;
    this.log.warn(
      `${this.dropped} lines of stderr were not logged (more than ${this.perSecond} lines/s); the last ${this.tailLines} lines are kept in the server's status`,
    );
    this.dropped = 0;
  }
}
