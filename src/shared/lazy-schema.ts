/**
 * A schema built on first use: `build` runs the first time anything reads the schema (parse, shape,
 * extend, nesting it in a schema that parses), once. The window's contract and the records' schemas
 * number some 1,500 zod objects (1.6 KB each) that a headless bridge serving xiaozhi never reads;
 * built at load they held 2-3 MB of its idle memory (issue 35). Not for schemas of the call path:
 * every read goes through the proxy.
 */
export function lazySchema<T extends object>(build: () => T): T {
  let built: T | undefined;
  const schema = (): T => (built ??= build());
  // The proxy's own target stays an empty object: every trap answers from the built schema, and a
  // property it reports is configurable (a proxy may not report a non-configurable one its target lacks).
  return new Proxy({} as T, {
    get: (_, key) => Reflect.get(schema(), key),
    set: (_, key, value) => Reflect.set(schema(), key, value),
    has: (_, key) => Reflect.has(schema(), key),
    ownKeys: () => Reflect.ownKeys(schema()),
    getOwnPropertyDescriptor: (_, key) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(schema(), key);
      return descriptor && { ...descriptor, configurable: true };
    },
    defineProperty: (_, key, descriptor) => Reflect.defineProperty(schema(), key, descriptor),
    getPrototypeOf: () => Reflect.getPrototypeOf(schema()),
  });
}
