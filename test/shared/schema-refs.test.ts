import { describe, expect, it } from 'vitest';

import { servedSchema } from '../../src/main/core/servers/served-schema';
import { inlineProperties, resolveLocalRef } from '../../src/shared/schema-refs';

type Schema = Record<string, unknown>;
const properties = (schema: Schema) => servedSchema(schema).properties as Record<string, Schema>;

/** How deeply a value nests (objects and arrays), walked without recursion. */
function depthOf(value: unknown): number {
  let max = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [next, depth] = stack.pop() as [unknown, number];
    if (typeof next !== 'object' || next === null) continue;
    max = Math.max(max, depth + 1);
    for (const child of Object.values(next)) stack.push([child, depth + 1]);
  }
  return max;
}

describe('local $ref in served schemas', () => {
  it('copies a pydantic model into the property that refers to it, and nothing that is not referred to', () => {
    const schema = {
      type: 'object',
      properties: { size: { $ref: '#/$defs/Size' }, address: { $ref: '#/$defs/Address', description: 'Where to deliver' } },
      required: ['size'],
      $defs: {
        Size: { type: 'string', enum: ['small', 'large'] },
        Address: {
          type: 'object',
          description: 'A postal address',
          properties: { street: { type: 'string' }, city: { $ref: '#/$defs/City' } },
        },
        City: { type: 'string', description: 'City name' },
        Unused: { type: 'object', description: 'never referenced' },
      },
    };
    const served = servedSchema(schema);
    expect(served).toEqual({
      type: 'object',
      properties: {
        size: { type: 'string', enum: ['small', 'large'] },
        // The referring schema's own description wins over the model's.
        address: {
          type: 'object',
          description: 'Where to deliver',
          properties: { street: { type: 'string' }, city: { type: 'string', description: 'City name' } },
        },
      },
      required: ['size'],
    });
    expect(JSON.stringify(served)).not.toContain('never referenced');
    // The server's schema itself is not changed.
    expect(schema.properties.size).toEqual({ $ref: '#/$defs/Size' });
  });

  it('reads #/definitions (zod-to-json-schema, draft-07) and escaped pointers', () => {
    const schema = {
      type: 'object',
      properties: {
        when: { $ref: '#/definitions/When' },
        slash: { $ref: '#/definitions/a~1b' },
        tilde: { $ref: '#/definitions/c~0d' },
        spaced: { $ref: '#/definitions/with%20space' },
      },
      definitions: {
        When: { enum: ['now', 'later'] },
        'a/b': { type: 'integer' },
        'c~d': { type: 'boolean' },
        'with space': { type: 'number' },
      },
    };
    expect(properties(schema)).toEqual({
      when: { enum: ['now', 'later'] },
      slash: { type: 'integer' },
      tilde: { type: 'boolean' },
      spaced: { type: 'number' },
    });
  });

  it('expands a recursive definition once and cuts the recursion with a plain description', () => {
    const schema = {
      type: 'object',
      properties: { root: { $ref: '#/$defs/Node' } },
      $defs: {
        Node: {
          type: 'object',
          title: 'Node',
          properties: { label: { type: 'string' }, children: { type: 'array', items: { $ref: '#/$defs/Node' } } },
        },
      },
    };
    const root = properties(schema).root as { properties: { children: { items: Schema } } };
    expect(root.properties.children.items).toEqual({ type: 'object', description: 'Node: the same structure again, nested' });
    expect(JSON.stringify(servedSchema(schema))).not.toContain('$ref');
  });

  it('cuts mutually recursive definitions and a reference to the whole schema', () => {
    const schema = {
      type: 'object',
      properties: { a: { $ref: '#/$defs/A' }, again: { $ref: '#', description: 'The same arguments' } },
      $defs: {
        A: { type: 'object', properties: { b: { $ref: '#/$defs/B' } } },
        B: { type: 'object', properties: { a: { $ref: '#/$defs/A' } } },
      },
    };
    const served = properties(schema);
    expect(JSON.stringify(served)).not.toContain('$ref');
    expect(served.again).toEqual({
      type: 'object',
      description: 'The same arguments (the whole argument object: the same structure again, nested)',
    });
    expect((served.a as { properties: { b: { properties: { a: Schema } } } }).properties.b.properties.a).toMatchObject({
      description: 'A: the same structure again, nested',
    });
  });

  it('drops a reference to a definition that is not there (or outside the schema), keeping what is said beside it', () => {
    const schema = {
      type: 'object',
      properties: {
        thing: { $ref: '#/$defs/Nowhere', description: 'A thing' },
        remote: { $ref: 'https://example.com/schema.json#/Thing' },
        anchor: { $ref: '#Thing' },
        broken: { $ref: '#/$defs/%E0%A4%A' },
      },
    };
    expect(properties(schema)).toEqual({ thing: { description: 'A thing' }, remote: {}, anchor: {}, broken: {} });
  });

  it('reads an allOf of one schema (pydantic v1 giving a $ref a default) as that schema', () => {
    const schema = {
      type: 'object',
      properties: {
        mode: { allOf: [{ $ref: '#/definitions/Mode' }], default: 'slow', description: 'How fast' },
        both: { allOf: [{ type: 'string' }, { minLength: 2 }] },
      },
      definitions: { Mode: { title: 'Mode', enum: ['fast', 'slow'], type: 'string' } },
    };
    expect(properties(schema)).toEqual({
      mode: { title: 'Mode', enum: ['fast', 'slow'], type: 'string', default: 'slow', description: 'How fast' },
      both: { allOf: [{ type: 'string' }, { minLength: 2 }] },
    });
  });

  it('leaves data alone: a "$ref" inside enum, default or examples, and a property named "$ref"', () => {
    const schema = {
      type: 'object',
      properties: {
        $ref: { type: 'string' },
        doc: { type: 'object', default: { $ref: '#/$defs/X' }, examples: [{ $ref: '#/$defs/X' }], enum: [{ $ref: '#/$defs/X' }] },
      },
      $defs: { X: { type: 'number' } },
    };
    expect(properties(schema)).toEqual(schema.properties);
  });

  it('hands back the same objects when there is nothing to expand (no copies per tool)', () => {
    const props = { city: { type: 'string' }, days: { type: 'array', items: { type: 'number' } } };
    expect(inlineProperties({ type: 'object', properties: props }, props)).toBe(props);
  });

  it('stays small when definitions refer to each other many times (no exponential blow-up)', () => {
    // D0 refers to D1 twice, D1 to D2 twice…: expanded fully it would be 2^30 copies.
    const $defs: Record<string, Schema> = {};
    for (let i = 0; i < 30; i++)
      $defs[`D${i}`] = {
        type: 'object',
        description: `level ${i} `.repeat(5),
        properties: { left: { $ref: `#/$defs/D${i + 1}` }, right: { $ref: `#/$defs/D${i + 1}` } },
      };
    $defs.D30 = { type: 'string' };
    const schema = { type: 'object', properties: { top: { $ref: '#/$defs/D0' }, also: { $ref: '#/$defs/D0' } }, $defs };
    const json = JSON.stringify(servedSchema(schema));
    expect(json).not.toContain('$ref');
    expect(json.length).toBeLessThan(64 * 1024);
    expect(json).toContain('nested further, not shown');
  });

  it('stays small in bytes when references repeat a long definition (a $ref bomb)', () => {
    // 200 properties of type E; E has 10 properties of type F; F has a 20 KB description.
    const properties: Schema = {};
    for (let i = 0; i < 200; i++) properties[`p${i}`] = { $ref: '#/$defs/E' };
    const e: Schema = { type: 'object', properties: {} as Schema };
    for (let i = 0; i < 10; i++) (e.properties as Schema)[`f${i}`] = { $ref: '#/$defs/F' };
    const schema = { type: 'object', properties, $defs: { E: e, F: { type: 'string', description: 'd'.repeat(20_000) } } };
    // Before: 18,247,623 characters (about 900 copies of the description) from 25 KB of schema.
    const json = JSON.stringify(servedSchema(schema));
    expect(json.length).toBeLessThan(1024 * 1024);
    // A cut keeps the start of a long description, not all of it.
    expect(json).toContain('nested further, not shown');
    const cuts = Object.values(servedSchema(schema).properties as Record<string, Schema>).filter((p) => !('properties' in p));
    for (const cut of cuts) expect(String(cut.description).length).toBeLessThan(400);
  });

  it('cuts deep nesting without overflowing the stack (10,000 levels)', () => {
    let inner: Schema = { type: 'string' };
    for (let i = 0; i < 10_000; i++) inner = { type: 'object', properties: { next: inner } };
    const schema = { type: 'object', properties: { deep: inner } };
    const served = servedSchema(schema);
    const json = JSON.stringify(served);
    expect(depthOf(served)).toBeLessThanOrEqual(30);
    expect(json).toContain('nested too deep to show');
    // Lists of plain values (a type list) survive the cut; nested lists do not.
    let arrays: unknown = ['string', 'null'];
    for (let i = 0; i < 10_000; i++) arrays = [arrays];
    expect(() => JSON.stringify(servedSchema({ type: 'object', properties: { x: { type: 'array', items: arrays } } }))).not.toThrow();
  });

  it('resolves pointers into arrays and refuses what is not there', () => {
    const root = { allOf: [{ type: 'string' }], $defs: { A: { type: 'number' } } };
    expect(resolveLocalRef(root, '#/allOf/0')).toEqual({ type: 'string' });
    expect(resolveLocalRef(root, '#/allOf/1')).toBeUndefined();
    expect(resolveLocalRef(root, '#/$defs/toString')).toBeUndefined();
    expect(resolveLocalRef(root, '#')).toBe(root);
    expect(resolveLocalRef(root, 'other.json#/$defs/A')).toBeUndefined();
  });
});
