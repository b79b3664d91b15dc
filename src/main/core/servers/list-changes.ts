import { countOf } from '../../../shared/count-words';
import { problem } from '../../../shared/problem';
import type { Logger } from '../logs/log-book';

export interface ListChangesOptions {
  /** Reads the tools again and takes them: how many there are now (undefined: nothing was taken). */
  refresh: () => Promise<number | undefined>;
  log: Logger;
  /** Read again at most once per this long, whatever was announced meanwhile. */
  everyMs: number;
  /** After a change is logged, further announcements within this long are logged once, with their count. */
  windowMs: number;
}

/**
 * A server's `notifications/tools/list_changed`, for one connection: one refresh in flight and one more
 * after it for whatever was announced meanwhile (a burst of 10,000 made as many lists at once), never two
 * within `everyMs` (a server announcing every 45 ms for 50 s was listed 1,100 times), and logged as the
 * first change and then one line with the count per `windowMs` (not 1,100 INFO lines).
 */
export class ListChanges {
  private running = false;
  private again = false;
  private stopped = false;
  private lastAt = Number.NEGATIVE_INFINITY;
  private pause: { timer: NodeJS.Timeout; done: () => void } | undefined;
  /** Open after a change was logged: announcements counted, and the tools as last read. */
  private window: { since: number; count: number; tools: number; timer: NodeJS.Timeout } | undefined;

  constructor(private readonly opts: ListChangesOptions) {}

  /** The server announced a change. */
  announced(): void {
    if (this.stopped) return;
    if (this.window) this.window.count++;
    if (this.running) {
      this.again = true;
      return;
    }
    void this.loop();
  }

  /** The connection is gone: nothing more is read, no timer is left, and a count not yet said is said. */
  stop(): void {
    this.stopped = true;
    if (this.pause) {
      clearTimeout(this.pause.timer);
      this.pause.done();
    }
    this.closeWindow();
  }

  private async loop(): Promise<void> {
    this.running = true;
    do {
      this.again = false;
      const wait = this.lastAt + this.opts.everyMs - Date.now();
      if (wait > 0) await this.sleep(wait);
      if (this.stopped) break;
      this.lastAt = Date.now();
      try {
        const tools = await this.opts.refresh();
        if (tools !== undefined && !this.stopped) this.changed(tools);
      } catch (error) {
        if (!this.stopped) this.opts.log.warn(`could not refresh tools: ${error instanceof Error ? error.message : String(error)}`);
      }
    } while (this.again && !this.stopped);
    this.running = false;
  }

  private changed(tools: number): void {
    if (this.window) {
      this.window.tools = tools;
      return;
    }
    this.opts.log.info(`tool list changed: ${countOf(tools, 'tool')}`, problem('log.toolListChanged', { count: tools }));
    const timer = setTimeout(() => this.closeWindow(), this.opts.windowMs);
    timer.unref();
    this.window = { since: Date.now(), count: 0, tools, timer };
  }

  private closeWindow(): void {
    const window = this.window;
    this.window = undefined;
    if (!window) return;
    clearTimeout(window.timer);
    if (window.count === 0) return;
    const seconds = Math.max(1, Math.round((Date.now() - window.since) / 1000));
    this.opts.log.info(
      `the tool list was announced as changed ${window.count} more times in ${seconds} s (read again at most once every ${this.opts.everyMs / 1000} s): ${countOf(window.tools, 'tool')}`,
    );
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        this.pause = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      timer.unref();
      this.pause = { timer, done };
    });
  }
}
