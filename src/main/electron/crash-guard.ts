/** The user's answer to "something went wrong". */
export type CrashChoice = 'keep-running' | 'quit';

export interface CrashGuardOptions {
  /** Writes to the log file; returns the line as written (redacted: no secret reaches the dialog). */
  log: (message: string) => string;
  /** Shows the problem once and asks (`fatal`: only says the app will quit); resolves with the choice. */
  show: (message: string, fatal: boolean) => Promise<CrashChoice>;
  /** Stops every server (their whole process trees) and exits. */
  quit: () => Promise<void>;
  isQuitting: () => boolean;
  process?: Pick<NodeJS.Process, 'on'>;
  /** More errors than this within `stormWindowMs`: the app is not well, quit cleanly. */
  stormLimit?: number;
  stormWindowMs?: number;
}

export interface CrashGuard {
  /** Reports a failure (also used for a failed start-up, with `fatal`). */
  report(kind: string, error: unknown, fatal?: boolean): void;
}

const describe = (error: unknown) => (error instanceof Error ? (error.stack ?? `${error.name}: ${error.message}`) : String(error));

/**
 * The main process's last resort: an uncaught exception or unhandled rejection is logged to the
 * log file and shown once; the user keeps the app (its servers stay supervised) or quits, and
 * quitting always stops every process tree first. A storm of errors quits on its own. Never silent.
 */
export function installCrashGuard(options: CrashGuardOptions): CrashGuard {
  let shown = false;
  let quitting = false;
  const recent: number[] = [];
  const limit = options.stormLimit ?? 20;
  const windowMs = options.stormWindowMs ?? 60_000;

  const quit = () => {
    if (quitting) return;
    quitting = true;
    void options.quit().catch((error: unknown) => console.error('[xiaozhi-tray] could not quit cleanly:', error));
  };

  const report = (kind: string, error: unknown, fatal = false) => {
    let shownText = `${kind}: ${describe(error)}`;
    try {
      shownText = options.log(shownText);
    } catch (logError) {
      console.error(`[xiaozhi-tray] ${kind}:`, error, logError);
    }
    if (options.isQuitting() || quitting) return;
    const now = Date.now();
    recent.push(now);
    while (recent.length > 0 && recent[0]! < now - windowMs) recent.shift();
    if (fatal || recent.length > limit) {
      if (!fatal) options.log(`${recent.length} errors within ${Math.round(windowMs / 1000)} s: quitting`);
      if (!shown) {
        shown = true;
        void options
          .show(shownText, true)
          .catch(() => undefined)
          .finally(quit);
      } else quit();
      return;
    }
    if (shown) return;
    shown = true;
    options
      .show(shownText, false)
      .then((choice) => {
        if (choice === 'quit') quit();
      })
      .catch((showError: unknown) => options.log(`could not show the error: ${describe(showError)}`));
  };

  const proc = options.process ?? process;
  proc.on('uncaughtException', (error) => report('uncaught exception', error));
  proc.on('unhandledRejection', (reason) => report('unhandled rejection', reason));
  return { report };
}
