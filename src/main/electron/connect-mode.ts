import { parseArgs, UsageError } from '../core/command-line/args';
import type { ConnectCommand } from '../core/local-server/client-entries';
import { CONNECT_OPTIONS, connectCommand as relay } from '../core/local-server/connect-client';

/** The argument that starts the desktop app as a stdio relay instead of the tray app. */
export const CONNECT_ARG = 'connect';

/**
 * The arguments after `connect` when the app was started as `<app> connect …` (packaged), or
 * `electron <app folder> connect …` (a checkout); undefined for a normal launch.
 */
export function connectModeArgs(argv: string[], defaultApp: boolean): string[] | undefined {
  const user = argv.slice(defaultApp ? 2 : 1);
  return user[0] === CONNECT_ARG ? user.slice(1) : undefined;
}

/**
 * How Claude Desktop starts the relay with this install: the app's own binary with `connect`.
 * (Not ELECTRON_RUN_AS_NODE on the CLI bundle: the shipped binary has that fuse off, and would
 * start a second tray app instead.) A checkout is started as `electron <app folder>`.
 */
export function desktopConnectCommand(app: { isPackaged: boolean; getAppPath(): string }, execPath: string): ConnectCommand {
  return { command: execPath, args: app.isPackaged ? [] : [app.getAppPath()] };
}

/**
 * `<app> connect [--client ID] [--url URL --token-file FILE]`: the same relay as `xiaozhi-tray connect`,
 * on this process's stdin and stdout, until stdin ends; then the process exits with its code. No
 * single-instance lock, window, tray or dock icon: the tray app (if running) is the one it talks to.
 */
export async function runConnectMode(
  app: { exit(code?: number): void; dock?: { hide(): void } },
  args: string[],
  stateDir: string,
): Promise<void> {
  app.dock?.hide();
  // The client may close its end first: a write to a closed pipe is not a crash.
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE') process.stderr.write(`xiaozhi-tray connect: ${error.message}\n`);
    });
  }
  let code: number;
  try {
    code = await relay(parseArgs(args, CONNECT_OPTIONS, 'connect').options, { stateDir });
  } catch (error) {
    process.stderr.write(`xiaozhi-tray connect: ${error instanceof Error ? error.message : String(error)}\n`);
    code = error instanceof UsageError ? 2 : 1;
  }
  app.exit(code);
}
