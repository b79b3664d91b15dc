/**
 * Keys that reach an object's prototype when assigned (`obj[key] = …`): a file or a peer that
 * sends them is refused, with where they stand, rather than allowed to change what other keys mean.
 */
export const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

export type KeyPath = (string | number)[];

/** Where forbidden keys stand in a parsed JSON value (at most `limit` of them); [] when none. */
export function forbiddenKeyPaths(value: unknown, limit = 20): KeyPath[] {
  const found: KeyPath[] = [];
  // Iterative: a hostile document may nest deeper than the call stack allows.
  const stack: { value: unknown; path: KeyPath }[] = [{ value, path: [] }];
  while (stack.length > 0 && found.length < limit) {
    const { value: current, path } = stack.pop() as { value: unknown; path: KeyPath };
    if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i--) stack.push({ value: current[i], path: [...path, i] });
    } else if (typeof current === 'object' && current !== null) {
      for (const key of Object.keys(current)) {
        if (FORBIDDEN_KEYS.has(key)) found.push([...path, key]);
        else stack.push({ value: (current as Record<string, unknown>)[key], path: [...path, key] });
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
