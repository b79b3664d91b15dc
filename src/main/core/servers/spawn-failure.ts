import fs from 'node:fs';
import path from 'node:path';

import { type Problem, problem } from '../../../shared/problem';
import type { StdioServerSettings } from '../../../shared/settings';
import { SYSTEM_LIMIT_CODES } from '../problems/server-problems';
import { findOnPath } from '../system/find-on-path';

/**
 * A stdio server whose program cannot be started at all (not on PATH, its #! interpreter missing,
 * not executable, a working folder that is not there) as a problem, or undefined for any other
 * failure. Retrying these only repeats the same error, so the server fails at once.
 */
export function spawnFailure(error: unknown, settings: StdioServerSettings, env: NodeJS.ProcessEnv = process.env): Problem | undefined {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const command = settings.command;
  if (code === 'ENOENT' || code === 'ENOTDIR') {
    // spawn reports a working folder that is missing (or a file) the same way.
    if (settings.cwd && !isFolder(settings.cwd)) return problem('server.cwdMissing', { cwd: settings.cwd });
    const found =
      findOnPath(command, settings.env.PATH ? { ...env, PATH: settings.env.PATH } : env) ??
      (settings.cwd ? findOnPath(path.resolve(settings.cwd, command), env) : undefined);
    if (found) return problem('server.interpreterMissing', { command, found });
    return problem('server.notFound', { command });
  }
  if (code === 'EACCES') return problem('server.notExecutable', { command });
  return undefined;
}

/**
 * A spawn refused for lack of resources (file descriptors, processes, memory): nothing wrong with
 * the server, so it is tried again later, and these attempts do not count as crashes.
 */
export function systemLimit(error: unknown): Problem | undefined {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code !== undefined && SYSTEM_LIMIT_CODES.includes(code) ? problem('server.systemLimit', { code }) : undefined;
}

function isFolder(dir: string): boolean {
  try {
    return fs.statSync(dir).isDirectory();
  } catch {
    return false;
  }
}

/**
 * npx (npm 7+) ending with a 404 from the registry: the package name is wrong, and no retry will
 * find it. Read from its stderr: `npm error 404  'name@*' is not in this registry.`
 */
export function packageNotFound(stderr: readonly string[]): Problem | undefined {
  if (!stderr.some((line) => /^npm (?:error|ERR!) (?:code E404|404 )/.test(line))) return undefined;
  const named = stderr.map((line) => /'(.+?)@[^'@]*' is not in this registry/.exec(line)?.[1]).find(Boolean);
  const fromUrl = stderr.map((line) => /404 Not Found - GET \S+\/((?:@[^/\s]+\/)?[^/\s]+)(?:\s|$)/.exec(line)?.[1]).find(Boolean);
  const name = named ?? (fromUrl ? decodeURIComponent(fromUrl) : undefined);
  return name ? problem('server.packageNotFound', { package: name }) : undefined;
}
