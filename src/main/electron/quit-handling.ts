/** What quitting needs of Electron's `app` (a seam for tests). */
export interface QuitApp {
  on(event: 'before-quit', listener: (event: { preventDefault(): void }) => void): unknown;
  quit(): void;
  exit(code?: number): void;
}

export interface QuitOptions {
  app: QuitApp;
  /** Stops the bridge: every endpoint closed, every child process tree gone. */
  stop: () => Promise<void>;
  /** Past this, quit anyway (a child that ignores signals must not hang the app forever). */
  deadlineMs: number;
  onQuitting?: () => void;
  process?: Pick<NodeJS.Process, 'on'>;
}

export interface QuitHandling {
  isQuitting(): boolean;
  /** For OS session end and the crash guard: stop now, then exit. */
  quitNow(): Promise<void>;
  /** Before the updater quits the app: stop everything now; the quit that follows is not held. */
  stopBeforeQuit(): Promise<void>;
}

/**
 * Quit in layers: the first `before-quit` is held until the bridge has stopped (or the deadline
 * passed), then the app quits for real. SIGINT/SIGTERM and OS session end take the same path.
 */
export function installQuitHandling(options: QuitOptions): QuitHandling {
  let quitting = false;
  let stopped: Promise<void> | undefined;

  const stopWithDeadline = (): Promise<void> => {
    stopped ??= Promise.race([
      options.stop().catch(() => undefined),
      new Promise<void>((resolve) => setTimeout(resolve, options.deadlineMs).unref()),
    ]);
    return stopped;
  };

  options.app.on('before-quit', (event) => {
    if (stopped === undefined) {
      event.preventDefault();
      quitting = true;
      options.onQuitting?.();
      // Then quit for real: this time nothing holds it, and Electron's quit events run (a
      // downloaded update installs on the way out). Should anything still hold it, exit anyway.
      void stopWithDeadline().then(() => {
        setTimeout(() => options.app.exit(0), options.deadlineMs).unref();
        options.app.quit();
      });
    }
  });
  const proc = options.process ?? process;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) proc.on(signal, () => options.app.quit());

  return {
    isQuitting: () => quitting,
    quitNow: async () => {
      if (!quitting) options.onQuitting?.();
      quitting = true;
      await stopWithDeadline();
      options.app.exit(0);
    },
    stopBeforeQuit: async () => {
      if (!quitting) options.onQuitting?.();
      quitting = true;
      await stopWithDeadline();
    },
  };
}
