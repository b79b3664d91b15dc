import os from 'node:os';

import type { Logger } from '../main/core/logs/log-book';
import { isAlive } from '../main/core/servers/process-tree';
import { type Problem, problem } from '../shared/problem';

export interface ShutdownGuardOptions {
  log: Logger;
  /** Stops everything cleanly: endpoints, servers (their whole process trees), the web UI. */
  stop: () => Promise<void>;
  /** Kills every known process tree before returning: the last thing done before exiting at once. */
  killNow: () => void;
  /** Processes whose exit stops the bridge (the launcher: see launcher-watch.ts); the first is the parent. */
  watch?: number[];
  /** The launcher had gone before the guard was made: stop as soon as the caller has started. */
  launcherGone?: boolean;
  /** How often to look whether they are still there. */
  parentPollMs?: number;
  /** A stop that takes longer than this (after a crash) is cut short by `killNow`. */
  crashStopMs?: number;
}

const EXIT_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT'] as const;
type ExitSignal = (typeof EXIT_SIGNALS)[number];
/** Typed at the terminal (Ctrl+C, Ctrl+\): the exit code says so, 128 + the signal's number, as shells expect. */
const INTERRUPTS: ReadonlySet<ExitSignal> = new Set(['SIGINT', 'SIGQUIT']);

const describe = (error: unknown) => (error instanceof Error ? (error.stack ?? error.message) : String(error));

/**
 * Everything that can end a headless bridge, in one place, so that whichever it is, no child
 * process outlives it:
 * - Ctrl+C (SIGINT) stops cleanly and exits 130, as shells expect of an interrupted program (Ctrl+\,
 *   SIGQUIT, the same with 131: by default it would end the bridge and leave every server running);
 *   SIGTERM (kill, systemd, `docker stop`) and SIGHUP stop cleanly and exit 0.
 * - A second signal while stopping kills every known process tree synchronously, then exits at once.
 * - The launcher going away (`npx` does not pass SIGTERM on) stops cleanly.
 * - An uncaught exception is logged, then everything is stopped and the process exits 1 (a service
 *   manager restarts it). An unhandled rejection is logged and the bridge keeps running.
 */
export class ShutdownGuard {
  /** Resolves with the exit code once a stop this guard started has finished. */
  readonly stopped: Promise<number>;
  private resolveStopped!: (code: number) => void;
  private stopping = false;
  private parentTimer: NodeJS.Timeout | undefined;
  private readonly listeners: [string, (...args: never[]) => void][] = [];

  constructor(private readonly options: ShutdownGuardOptions) {
    this.stopped = new Promise((resolve) => (this.resolveStopped = resolve));
  }

  get isStopping(): boolean {
    return this.stopping;
  }

  install(): this {
    for (const signal of EXIT_SIGNALS)
      if (signal !== 'SIGQUIT' || process.platform !== 'win32') this.listen(signal, () => this.onSignal(signal));
    this.listen('uncaughtException', (error: unknown) => this.onCrash(error));
    this.listen('unhandledRejection', (reason: unknown) => {
      this.options.log.error(`unhandled promise rejection (the bridge keeps running): ${describe(reason)}`);
    });
    // An orphan is re-parented (to init, or a subreaper); on Windows its parent's pid just dies.
    const [parent, ...others] = this.options.watch ?? [];
    if (parent !== undefined) {
      this.parentTimer = setInterval(() => {
        const gone = process.ppid !== parent || !isAlive(parent) ? parent : others.find((pid) => !isAlive(pid));
        if (gone !== undefined)
          this.begin(`the process that started the bridge (pid ${gone}) went away`, 0, problem('cli.launcherGone', { pid: gone }));
      }, this.options.parentPollMs ?? 1000);
      this.parentTimer.unref();
    }
    if (this.options.launcherGone)
      setTimeout(
        () => this.begin('the process that started the bridge had gone before it started', 0, problem('cli.launcherGoneAtStart')),
        0,
      );
    return this;
  }

  dispose(): void {
    if (this.parentTimer) clearInterval(this.parentTimer);
    for (const [event, listener] of this.listeners.splice(0)) process.off(event, listener as (...args: unknown[]) => void);
  }

  /**
   * Starts a clean stop (once); `stopped` resolves with `code` when it is done. `why` words the
   * reason for the text log in the reader's language (a signal's name is said as it is).
   */
  begin(reason: string, code: number, why: Problem = problem('cli.signal', { signal: reason })): void {
    if (this.stopping) return;
    this.stopping = true;
    if (this.parentTimer) clearInterval(this.parentTimer);
    this.options.log.info(`${reason}: stopping every server…`, problem('cli.stopping'), why);
    this.options.stop().then(
      () => this.resolveStopped(code),
      (error: unknown) => {
        this.options.log.error(`stop failed: ${describe(error)}`);
        this.options.killNow();
        this.resolveStopped(1);
      },
    );
  }

  private listen(event: string, listener: (...args: never[]) => void): void {
    process.on(event as NodeJS.Signals, listener as () => void);
    this.listeners.push([event, listener]);
  }

  private onSignal(signal: ExitSignal): void {
    if (this.stopping) {
      this.options.log.warn(`${signal} again: killing every server now`, problem('cli.killingNow', { signal }));
      this.exitNow(128 + (os.constants.signals[signal] ?? 2));
    }
    this.begin(signal, INTERRUPTS.has(signal) ? 128 + (os.constants.signals[signal] ?? 2) : 0);
  }

  private onCrash(error: unknown): void {
    this.options.log.error(`unexpected error: ${describe(error)}`);
    if (this.stopping) this.exitNow(1);
    this.begin('stopping after an unexpected error', 1, problem('cli.crashed'));
    // A stop that hangs after a crash must not keep a broken process alive.
    setTimeout(() => this.exitNow(1), this.options.crashStopMs ?? 15_000).unref();
  }

  private exitNow(code: number): never {
    try {
      this.options.killNow();
    } finally {
      process.exit(code);
    }
  }
}
