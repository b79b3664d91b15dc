import { describe, expect, it } from 'vitest';

import { argumentsJson, readableArguments } from '../../src/shared/readable-arguments';

describe('a call’s arguments as a person reads them', () => {
  it('lists strings unquoted and nested values short (the filesystem server’s edit_file)', () => {
    const args = { path: '/home/me/购物清单.txt', edits: [{ oldText: '牛奶', newText: '酸奶' }], dryRun: false };
    expect(readableArguments(JSON.stringify(args))).toEqual([
      { name: 'path', value: '/home/me/购物清单.txt' },
      { name: 'edits', value: '(oldText: 牛奶, newText: 酸奶)' },
      { name: 'dryRun', value: 'false' },
    ]);
  });

  it('hides secret-named values in the list and in the JSON below it, at any depth', () => {
    const args = { query: 'weather', api_key: 'sk-123', options: { token: 'abc', units: 'metric' } };
    const list = readableArguments(args) ?? [];
    expect(list.find((a) => a.name === 'api_key')?.value).toBe('***');
    expect(list.find((a) => a.name === 'options')?.value).toBe('token: ***, units: metric');
    const json = argumentsJson(args);
    expect(json).not.toContain('sk-123');
    expect(json).not.toContain('abc');
    expect(json).toContain('"units": "metric"');
  });

  it('cuts a long value, and gives no list for text that is not a JSON object', () => {
    const [only] = readableArguments({ content: 'x'.repeat(500) }) ?? [];
    expect(only?.value.length).toBeLessThanOrEqual(120);
    expect(only?.value.endsWith('…')).toBe(true);
    expect(readableArguments('not json')).toBeUndefined();
    expect(readableArguments('[1,2]')).toBeUndefined();
    expect(argumentsJson('not json')).toBe('not json');
  });

  it('shows direction overrides and control characters as codes, so a value cannot read as another (list and JSON)', () => {
    // "/tmp/\u202Egnp.exe" displays as "/tmp/exe.png"; an isolate or a C1 code reorders or hides text the same way.
    const args = { path: '/tmp/\u202Egnp.exe', ['name\u2066']: 'a\u0085b\u001bc\u200fd' };
    const list = readableArguments(JSON.stringify(args)) ?? [];
    expect(list).toEqual([
      { name: 'path', value: '/tmp/\\u202egnp.exe' },
      { name: 'name\\u2066', value: 'a\\u0085b\\u001bc\\u200fd' },
    ]);
    const json = argumentsJson(args);
    expect(json).not.toMatch(/[\u0080-\u009f\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/);
    expect(JSON.parse(json)).toEqual(args);
  });

  it('reads arguments nested thousands deep without overflowing, leaving the depths (and any secret there) out', () => {
    let deep: unknown = { token: 'sk-deep' };
    for (let i = 0; i < 50_000; i++) deep = { a: deep };
    const text = JSON.stringify({ path: '/tmp/x' }).replace(
      '}',
      `,"opts":${'{"a":'.repeat(50_000)}{"token":"sk-deep"}${'}'.repeat(50_000)}}`,
    );
    const list = readableArguments(text) ?? [];
    expect(list[0]).toEqual({ name: 'path', value: '/tmp/x' });
    expect(list[1]?.value).toMatch(/^a: a: .*…$/);
    const json = argumentsJson(text);
    expect(json).toContain('"…"');
    expect(json).not.toContain('sk-deep');
    expect(argumentsJson({ deep })).not.toContain('sk-deep');
  });
});
