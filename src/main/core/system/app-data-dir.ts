import os from 'node:os';
import path from 'node:path';

/** The OS, environment and home folder the per-user folders are found from (tests give their own). */
export interface PlatformContext {
  platform: NodeJS.Platform;
  env: NodeJS.ProcessEnv;
  home?: string;
}

/** `path.join` as the given OS joins (a Windows path built on Linux in tests, and the reverse). */
export const joinFor = (platform: NodeJS.Platform) => (platform === 'win32' ? path.win32.join : path.posix.join);

/** The per-user application data folder (where Electron's userData folders live). */
export function appDataDir(context: PlatformContext): string {
  const home = context.home ?? os.homedir();
  const join = joinFor(context.platform);
  return context.platform === 'win32'
    ? (context.env.APPDATA ?? join(home, 'AppData', 'Roaming'))
    : context.platform === 'darwin'
      ? join(home, 'Library', 'Application Support')
      : (context.env.XDG_CONFIG_HOME ?? join(home, '.config'));
}
