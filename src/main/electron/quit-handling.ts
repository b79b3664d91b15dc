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

/**
 * Quit in layers: the first `before-quit` is held until the bridge has stopped (or the deadline
 * passed), then the app exits for real. SIGINT/SIGTERM and OS session end take the same path.
 */
export interface QuitHandling {
  isQuitting(): boolean;
  /** For OS session end and the crash guard: stop now, then exit. */
  quitNow(): Promise<void>;
  /** Before the updater quits the app: stop everything now; the quit that follows is not held. */
  stopBeforeQuit(): Promise<void>;
}

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
      void stopWithDeadline().then(() => options.app.exit(0));
    }
  });
  const proc = options.process ?? process;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) proc.on(signal, () => options.app.quit());

  return {
    isQuitting: () => quitting,
    quitNow: async () => {
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
