import type { WatchdogCommand } from '../core/servers/server-watchdog';
import { ignoreStopSignals, runWatchdog } from '../core/servers/watchdog';
import { desktopConnectCommand } from './connect-mode';

/**
 * The switch that starts the desktop app as the bridge's watchdog (see core/servers/watchdog.ts).
 * The watchdog must be a process of its own, and this app has no Node to run a script with: the
 * runAsNode fuse is off (ELECTRON_RUN_AS_NODE is ignored), and a utilityProcess is a child
 * Chromium ends with the app. So it is the app's own binary again, as for `connect`.
 */
export const WATCHDOG_ARG = '--bridge-watchdog';

export const isWatchdogLaunch = (argv: string[]): boolean => argv.includes(WATCHDOG_ARG);

/**
 * How the app starts its watchdog: its own binary with the switch (a checkout: `electron <app
 * folder>`). An AppImage runs from a mount that goes away with the app: the AppImage file starts one of its own.
 */
export function desktopWatchdogCommand(
  app: { isPackaged: boolean; getAppPath(): string },
  exePath: string,
  env: NodeJS.ProcessEnv,
): WatchdogCommand {
  const base = desktopConnectCommand(app, env.APPIMAGE || exePath);
  return { command: base.command, args: [...base.args, WATCHDOG_ARG] };
}

/**
 * `<app> --bridge-watchdog`: reads the pids of the app's servers on stdin until it ends (the app
 * is gone), stops their trees, exits. No single-instance lock, window, tray or dock icon.
 */
export async function runWatchdogMode(
  app: { exit(code?: number): void; dock?: { hide(): void } },
  input: NodeJS.ReadableStream,
): Promise<void> {
  app.dock?.hide();
  ignoreStopSignals();
  await runWatchdog(input).catch(() => undefined);
  app.exit(0);
}
