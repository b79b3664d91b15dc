import { own } from './own';

/**
 * Keys that reach an object's prototype when assigned (`obj[key] = …`): a file or a peer that
 * sends them is refused, with where they stand, rather than allowed to change what other keys mean.
 */
export const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * Names that a saved config writes as keys (server and tool names: `toolSets[].tools[server][tool]`)
 * follow the same rule as the file's keys, so the window can never save a config `check` refuses.
 */
export const isAllowedKey = (name: string): boolean => !FORBIDDEN_KEYS.has(name);
export const KEY_NAME_RULE = 'cannot be __proto__, constructor or prototype (a config file refuses these as keys)';

export type KeyPath = (string | number)[];

/** Where forbidden keys stand in a parsed JSON value (at most `limit` of them); [] when none. */
export function forbiddenKeyPaths(value: unknown, limit = 20): KeyPath[] {
  const found: KeyPath[] = [];
  // Iterative (a hostile document may nest deeper than the call stack allows), and each node keeps
  // only a link to its parent: a path is built only for what is found, so depth costs linear time.
  interface Node {
    value: unknown;
    key: string | number | undefined;
    parent: Node | undefined;
  }
  const pathOf = (node: Node | undefined, last: string): KeyPath => {
    const path: KeyPath = [last];
    for (let at = node; at && at.key !== undefined; at = at.parent) path.push(at.key);
    return path.reverse();
  };
  const stack: Node[] = [{ value, key: undefined, parent: undefined }];
  while (stack.length > 0 && found.length < limit) {
    const node = stack.pop() as Node;
    const current = node.value;
    if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i--) stack.push({ value: current[i], key: i, parent: node });
    } else if (typeof current === 'object' && current !== null) {
      for (const key of Object.keys(current)) {
        if (FORBIDDEN_KEYS.has(key)) found.push(pathOf(node, key));
        else stack.push({ value: own(current as Record<string, unknown>, key), key, parent: node });
      }
    }
  }
  return found;
}

/** A cheap first look, for hot paths: can this JSON text contain a forbidden key at all? */
export function mayHaveForbiddenKey(text: string): boolean {
  return text.includes('__proto__') || text.includes('constructor') || text.includes('prototype');
}

/** `a.b[2]["x y"]`, as problems are shown elsewhere. */
export function formatKeyPath(path: KeyPath): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else if (/^[A-Za-z_$][\w$]*$/.test(part)) out += out ? `.${part}` : part;
    else out += `[${JSON.stringify(part)}]`;
  }
  return out;
}
