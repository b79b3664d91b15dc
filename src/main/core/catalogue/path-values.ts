import { stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';

import type { PathCheck, PathValueKind } from '../../../shared/path-values';

/**
 * A folder or file a catalogue value names, as the server will be given it. A relative name
 * ("我的记忆.json", "Documents/notes") is taken from the user's home folder, and `~` is that folder:
 * left relative, it was read from wherever the server starts (npx's download cache, for one).
 */
export function resolvePathValue(value: string, home: string = homedir()): string {
  const text = value.trim();
  if (text === '~') return home;
  if (/^~[\\/]/.test(text)) return join(home, text.slice(2));
  return isAbsolute(text) ? text : resolve(home, text);
}

const kindOf = async (path: string): Promise<'folder' | 'file' | 'missing'> => {
  try {
    return (await stat(path)).isDirectory() ? 'folder' : 'file';
  } catch {
    return 'missing';
  }
};

/**
 * Checks one value before its server is saved: a folder must be there and be a folder; a file may
 * be new (the memory server makes its file) but its folder must be there, and it must not be a
 * folder. `path` (a registry entry's, either) must only be there.
 */
export async function checkPathValue(value: string, kind: PathValueKind, home: string = homedir()): Promise<PathCheck> {
  const path = resolvePathValue(value, home);
  const found = await kindOf(path);
  if (kind === 'folder') {
    if (found === 'missing') return { path, problem: 'missing' };
    return found === 'folder' ? { path } : { path, problem: 'notFolder' };
  }
  if (kind === 'file') {
    if (found === 'folder') return { path, problem: 'notFile' };
    if (found === 'file') return { path };
    return (await kindOf(dirname(path))) === 'folder' ? { path } : { path, problem: 'noParent' };
  }
  return found === 'missing' ? { path, problem: 'missing' } : { path };
}
