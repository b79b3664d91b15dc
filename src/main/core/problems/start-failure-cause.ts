import type { Problem } from '../../../shared/problem';
import { siteFailureCause } from './call-failure-cause';

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
  // A key it needs and was not given (AMap's, Tavily's "…_API_KEY environment variable is not set"): the
  // commonest first-run stop of a catalogue server; a key it was given and refused is the call cause's 401.
  if (KEY_MISSING.test(head)) return { code: 'start.keyMissing', params: {} };
  return siteFailureCause(head);
}

const FOLDER_GONE =
  /none of the specified directories are accessible|\bENOENT\b[^\n]*\b(?:scandir|opendir|stat|lstat|access|realpath|chdir)\b|\bno such directory\b/i;

const KEY_NAME = String.raw`(?:api[ _-]?key|access[ _-]?token|\b[A-Z][A-Z0-9_]*_(?:KEY|TOKEN|SECRET))`;
const KEY_MISSING = new RegExp(
  String.raw`${KEY_NAME}\b[^\n]{0,60}?\b(?:missing|not (?:set|provided|defined|found|configured)|required|undefined|empty)\b` +
    String.raw`|\b(?:missing|no)\s+(?:the\s+)?${KEY_NAME}` +
    String.raw`|KeyError:\s*['"][A-Z0-9_]*(?:KEY|TOKEN|SECRET)['"]`,
  'i',
);

/** The path Node quotes ("ENOENT: no such file or directory, stat '/home/a/docs'"), when it does. */
function pathIn(text: string): Record<string, string> {
  const quoted = /\b(?:scandir|opendir|stat|lstat|access|realpath|chdir) '([^']+)'/.exec(text)?.[1];
  return quoted ? { path: quoted } : {};
}
