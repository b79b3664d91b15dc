/**
 * Lookups by names that come from outside (tools, servers, clients, platforms): a plain object's
 * `record[name]` finds inherited members ("constructor", "toString", "__proto__"), so a tool called
 * `constructor` read Object's constructor as its policy, and ran. The lint rule `no-inherited-lookup`
 * (eslint-rules/foreign-keys.mjs) sends every such lookup here, to a Map, or to a `nameRecord()`.
 */

/** A record keyed by foreign names, with no prototype: indexing it finds only what was put there. */
export type NameRecord<T> = Record<string, T>;

/** An empty `NameRecord` (no prototype), filled from `entries` if given. */
export function nameRecord<T>(entries: Iterable<readonly [string, T]> = []): NameRecord<T> {
  const record = Object.create(null) as NameRecord<T>;
  for (const [key, value] of entries) record[key] = value;
  return record;
}

/** The record's own value for `key`, never an inherited one; undefined when absent (or no record). */
export function own<T>(record: Readonly<Record<string, T>> | undefined | null, key: string): T | undefined {
  return record != null && Object.hasOwn(record, key) ? record[key] : undefined;
}

/** Sets an own property, whatever its name: `record['__proto__'] = value` would set the prototype instead. */
export function setOwn<T>(record: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(record, key, { value, enumerable: true, writable: true, configurable: true });
}
