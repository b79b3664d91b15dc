import type { Problem } from '../../../shared/problem';
import { callFailureCause } from './call-failure-cause';

/**
 * The cause a program's own last words name when it stopped ("Error: None of the specified directories
 * are accessible"), so the window says it first in the person's words and the words below; the same
 * idea as a failed call's cause, which it extends (a site out of reach reads the same in both). Only
 * causes the person can act on are kept: anything else a program writes is its own business.
 */
export function startFailureCause(line: string): Problem | undefined {
  const head = line.slice(0, 2000);
  // The filesystem server's words when none of its folders can be opened (modelcontextprotocol/servers,
  // src/filesystem/index.ts), or Node's own for a path that is not there. A bare "No such file or
  // directory" is no folder: a script, a config file, uv's command typed wrong ("Failed to spawn").
  if (FOLDER_GONE.test(head)) return { code: 'start.folderMissing', params: pathIn(head) };
  return callFailureCause(head);
}

const FOLDER_GONE =
  /none of the specified directories are accessible|\bENOENT\b[^\n]*\b(?:scandir|opendir|stat|lstat|access|realpath|chdir)\b|\bno such directory\b/i;

/** The path Node quotes ("ENOENT: no such file or directory, stat '/home/a/docs'"), when it does. */
function pathIn(text: string): Record<string, string> {
  const quoted = /\b(?:scandir|opendir|stat|lstat|access|realpath|chdir) '([^']+)'/.exec(text)?.[1];
  return quoted ? { path: quoted } : {};
}
