/**
 * A schema built on first use: `build` runs the first time anything reads the schema (parse, shape,
 * extend, nesting it in a schema that parses), once. The window's contract and the records' schemas
 * number some 1,200 zod objects that a headless bridge serving xiaozhi never reads; built at load
 * they held about 1 MB of its idle memory (issue 35). Not for schemas of the call path: every read
 * goes through the proxy.
 */
export function lazySchema<T extends object>(build: () => T): T {
  return new Proxy({ build } as Holder, LAZY) as unknown as T;
}

/** The proxy's own target: the builder, then what it built. */
interface Holder {
  build: () => object;
  built?: object;
}

const schemaOf = (holder: Holder): object => (holder.built ??= holder.build());

/**
 * One handler for every lazy schema (a closure set per schema cost more than some schemas). Every trap
 * answers from the built schema; a property it reports is configurable, as a proxy may not report a
 * non-configurable property its target lacks.
 */
const LAZY: ProxyHandler<Holder> = {
  get: (holder, key) => Reflect.get(schemaOf(holder), key),
  set: (holder, key, value) => Reflect.set(schemaOf(holder), key, value),
  has: (holder, key) => Reflect.has(schemaOf(holder), key),
  ownKeys: (holder) => Reflect.ownKeys(schemaOf(holder)),
  getOwnPropertyDescriptor: (holder, key) => {
    const descriptor = Reflect.getOwnPropertyDescriptor(schemaOf(holder), key);
    return descriptor && { ...descriptor, configurable: true };
  },
  defineProperty: (holder, key, descriptor) => Reflect.defineProperty(schemaOf(holder), key, descriptor),
  getPrototypeOf: (holder) => Reflect.getPrototypeOf(schemaOf(holder)),
};
