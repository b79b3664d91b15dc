import fs from 'node:fs';
import path from 'node:path';

/**
 * Where `command` would be found by a spawn with this environment, or undefined. Mirrors what
 * spawn does: a name with a path part is taken as is; a bare name is looked up in PATH (with
 * PATHEXT's extensions on Windows).
 */
export function findOnPath(
  command: string,
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): string | undefined {
  const windows = platform === 'win32';
  const extensions = windows ? ['', ...(env.PATHEXT ?? '.COM;.EXE;.BAT;.CMD').split(';').filter(Boolean)] : [''];
  const isFile = (candidate: string) => {
    try {
      const stat = fs.statSync(candidate);
      return stat.isFile() && (windows || (stat.mode & 0o111) !== 0);
    } catch {
      return false;
    }
  };
  const tryAll = (base: string) => extensions.map((ext) => base + ext).find(isFile);
  if (command.includes('/') || (windows && command.includes('\\'))) return tryAll(path.resolve(command));
  const pathVar = env.PATH ?? env.Path ?? '';
  for (const dir of pathVar.split(windows ? ';' : path.delimiter)) {
    if (!dir) continue;
    const found = tryAll(path.join(dir, command));
    if (found) return found;
  }
  return undefined;
}
