import type { MessageKey } from '../shared/i18n/translate';

/** Argument names common among MCP servers' tools, with words of their own: the rest are shown as they are. */
const NAMES = [
  'path',
  'paths',
  'file',
  'file_path',
  'filename',
  'content',
  'text',
  'source',
  'destination',
  'query',
  'url',
  'name',
  'title',
  'message',
  'command',
  'directory',
  'city',
  'location',
  'date',
  'time',
  'timezone',
  'language',
  'limit',
  'entities',
  'observations',
  'relations',
  'edits',
] as const;

const WORDS = new Map<string, MessageKey>(NAMES.map((name) => [name, `names9.arg.${name}`]));

/**
 * An argument's name in the window's words where we know it ("path" → 路径): the confirmation panel and
 * History read a call's fields so. Matched as the server spelled it, or with camelCase and dashes made
 * snake_case (filePath → file_path); undefined when we have no words for it.
 */
export function argumentWord(name: string): MessageKey | undefined {
  return (
    WORDS.get(name) ??
    WORDS.get(
      name
        .replace(/([a-z])([A-Z])/g, '$1_$2')
        .replace(/-/g, '_')
        .toLowerCase(),
    )
  );
}
