import { describe, expect, it } from 'vitest';
import { assignExposedNames, sanitizeToolName, TOOL_NAME_PATTERN, toolKey } from '../../../../src/main/core/hub/tool-names';

describe('exposed tool names', () => {
  it('makes any name acceptable to function-calling APIs', () => {
    for (const raw of ['weather.get', '查询天气', 'a b/c', 'x'.repeat(100), '', '---']) {
      expect(sanitizeToolName(raw)).toMatch(TOOL_NAME_PATTERN);
    }
    expect(sanitizeToolName('weather.get')).toBe('weather_get');
    expect(sanitizeToolName('查询天气')).not.toBe(sanitizeToolName('查询新闻'));
  });

  it('prefixes a colliding tool of a server with a Chinese name by a short code, not a row of underscores', () => {
    const names = assignExposedNames(
      [
        { server: '天气', tool: 'echo' },
        { server: '新闻', tool: 'echo' },
        { server: 'home-助手', tool: 'echo' },
      ],
      false,
    );
    const weather = names.get(toolKey('天气', 'echo')) as string;
    expect(weather).toMatch(/^s[0-9a-f]{6}_echo$/);
    expect(names.get(toolKey('新闻', 'echo'))).not.toBe(weather);
    expect(names.get(toolKey('home-助手', 'echo'))).toBe('home_echo');
  });

  it('keeps unique names and prefixes only colliding ones, whatever the order', () => {
    const refs = [
      { server: 'a', tool: 'search' },
      { server: 'b', tool: 'search' },
      { server: 'b', tool: 'fetch' },
    ];
    const one = assignExposedNames(refs, false);
    const two = assignExposedNames([...refs].reverse(), false);
    expect(one.get(toolKey('a', 'search'))).toBe('a_search');
    expect(one.get(toolKey('b', 'search'))).toBe('b_search');
    expect(one.get(toolKey('b', 'fetch'))).toBe('fetch');
    expect([...one.entries()].sort()).toEqual([...two.entries()].sort());
  });

  it('prefixes everything when asked, and resolves clashes the prefix itself creates', () => {
    const always = assignExposedNames([{ server: 'fs', tool: 'read' }], true);
    expect(always.get(toolKey('fs', 'read'))).toBe('fs_read');
    // "a_b" from server a + tool b collides with a tool literally called a_b.
    const tricky = assignExposedNames(
      [
        { server: 'a', tool: 'b' },
        { server: 'x', tool: 'b' },
        { server: 'y', tool: 'a_b' },
      ],
      false,
    );
    const names = [...tricky.values()];
    expect(new Set(names).size).toBe(3);
    for (const name of names) expect(name).toMatch(TOOL_NAME_PATTERN);
  });
});
