import fs from 'node:fs';
import path from 'node:path';
import { problem, type Problem } from '../../../shared/problem';
import type { StdioServerSettings } from '../../../shared/settings';
import { findOnPath } from './find-on-path';

/**
 * A stdio server whose program cannot be started at all (not on PATH, its #! interpreter missing,
 * not executable, a working folder that is not there): a plain sentence and its code, or undefined
 * for any other failure. Retrying these only repeats the same error, so the server fails at once.
 */
export function spawnFailure(
  error: unknown,
  settings: StdioServerSettings,
  env: NodeJS.ProcessEnv = process.env,
): { message: string; cause: Problem } | undefined {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const command = settings.command;
  if (code === 'ENOENT' || code === 'ENOTDIR') {
    // spawn reports a working folder that is missing (or a file) the same way.
    if (settings.cwd && !isFolder(settings.cwd)) {
      return {
        message: `the working folder "${settings.cwd}" does not exist or is not a folder`,
        cause: problem('server.cwdMissing', { cwd: settings.cwd }),
      };
    }
    const found =
      findOnPath(command, settings.env.PATH ? { ...env, PATH: settings.env.PATH } : env) ??
      (settings.cwd ? findOnPath(path.resolve(settings.cwd, command), env) : undefined);
    if (found) {
      return {
        message: `"${command}" was found (${found}) but could not be started: the interpreter on its first line (#!) is missing`,
        cause: problem('server.interpreterMissing', { command }),
      };
    }
    return {
      message: `the command "${command}" was not found on PATH; install it, or give its full path`,
      cause: problem('server.notFound', { command }),
    };
  }
  if (code === 'EACCES')
    return {
      message: `the command "${command}" is not executable (permission denied)`,
      cause: problem('server.notExecutable', { command }),
    };
  return undefined;
}

const LIMITS: Record<string, string> = {
  EMFILE: 'the bridge has too many files open to start it (EMFILE)',
  ENFILE: 'the system has too many files open to start it (ENFILE)',
  EAGAIN: 'the system refused a new process for now (EAGAIN: too many processes)',
  ENOMEM: 'there was not enough memory to start it (ENOMEM)',
};

/**
 * A spawn refused for lack of resources (file descriptors, processes, memory): nothing wrong with
 * the server, so it is tried again later, and these attempts do not count as crashes.
 */
export function systemLimit(error: unknown): { message: string; cause: Problem } | undefined {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const message = code !== undefined ? LIMITS[code] : undefined;
  return code !== undefined && message !== undefined
    ? { message: `${message}; trying again`, cause: problem('server.systemLimit', { code }) }
    : undefined;
}

function isFolder(dir: string): boolean {
  try {
    return fs.statSync(dir).isDirectory();
  } catch {
    return false;
  }
}
