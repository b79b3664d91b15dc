import fs from 'node:fs';
import type { StdioServerSettings } from '../../../shared/settings';

/**
 * A stdio server whose program cannot be started at all (not on PATH, not executable, a working
 * folder that does not exist): a plain sentence saying so, or undefined for any other failure.
 * Retrying these only repeats the same error, so the caller fails the server at once.
 */
export function spawnFailure(error: unknown, settings: StdioServerSettings): string | undefined {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOENT') {
    // spawn reports a missing working folder as ENOENT too.
    if (settings.cwd && !fs.existsSync(settings.cwd)) return `the working folder "${settings.cwd}" does not exist`;
    return `the command "${settings.command}" was not found on PATH; install it, or give its full path`;
  }
  if (code === 'EACCES') return `the command "${settings.command}" is not executable (permission denied)`;
  return undefined;
}
