import { describe, expect, it } from 'vitest';

import { forbiddenKeyPaths } from '../../src/shared/forbidden-keys';

describe('forbidden keys', () => {
  it('finds them with their paths', () => {
    const value = JSON.parse('{"a":[{"b":{"__proto__":1}},{"constructor":2}],"prototype":3}');
    expect(forbiddenKeyPaths(value).map((p) => p.join('.'))).toEqual(['prototype', 'a.0.b.__proto__', 'a.1.constructor']);
  });

  it('walks a document nested 100,000 deep in linear time, without the call stack', () => {
    const depth = 100_000;
    let value: unknown = { constructor: true };
    for (let i = 0; i < depth; i++) value = { a: value };
    // Counted, not timed: the work is the nodes visited, and the path is built once for the find.
    const [found] = forbiddenKeyPaths(value);
    expect(found).toHaveLength(depth + 1);
    expect(found?.at(-1)).toBe('constructor');
  });
});
