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
});
