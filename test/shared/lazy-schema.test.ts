import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import { lazySchema } from '../../src/shared/lazy-schema';

describe('lazySchema', () => {
  it('builds its schema on first use, once', () => {
    let builds = 0;
    const Point = lazySchema(() => {
      builds++;
      return z.object({ x: z.number(), y: z.number() });
    });
    const Shape = lazySchema(() => z.object({ corner: Point, name: z.string().optional() }));
    expect(builds).toBe(0);
    expect(Shape.parse({ corner: { x: 1, y: 2 } })).toEqual({ corner: { x: 1, y: 2 } });
    expect(Point.safeParse({ x: 'no', y: 2 }).success).toBe(false);
    expect(Shape.safeParse({ corner: { x: 1 } }).success).toBe(false);
    expect(builds).toBe(1);
  });

  it('reads as the schema it stands for: methods, shape, extend, instanceof, keys', () => {
    const Named = lazySchema(() => z.object({ name: z.string().min(1) }));
    expect(Named).toBeInstanceOf(z.ZodObject);
    expect(Object.keys(Named.shape)).toEqual(['name']);
    const Extended = Named.extend({ age: z.number().int() });
    expect(Extended.parse({ name: 'a', age: 3 })).toEqual({ name: 'a', age: 3 });
    expect(Named.optional().parse(undefined)).toBeUndefined();
    expect(z.array(Named).safeParse([{ name: '' }]).success).toBe(false);
    expect('parse' in Named).toBe(true);
    const Kind = lazySchema(() => z.enum(['a', 'b']));
    expect(Kind.options).toEqual(['a', 'b']);
    const Either = z.discriminatedUnion('kind', [
      lazySchema(() => z.object({ kind: z.literal('a'), a: z.string() })),
      lazySchema(() => z.object({ kind: z.literal('b'), b: z.number() })),
    ]);
    expect(Either.parse({ kind: 'b', b: 1 })).toEqual({ kind: 'b', b: 1 });
    expect(Either.safeParse({ kind: 'a', a: 1 }).success).toBe(false);
  });
});
