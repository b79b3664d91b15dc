import { describe, expect, it } from 'vitest';

import { assignExposedNames, programWords, sanitizeToolName, TOOL_NAME_PATTERN, toolKey } from '../../../../src/main/core/hub/tool-names';
import type { ServerSettings } from '../../../../src/shared/settings';

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

  it('prefixes the tools of a server named in Chinese with what it runs, readable (issue 33: 记忆 gave s7a6335_read_graph)', () => {
    const servers = [
      { name: 'memory', transport: 'stdio', command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory'] },
      { name: '记忆', transport: 'stdio', command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory@2025.1.1'] },
      { name: '抓取', transport: 'stdio', command: 'uvx', args: ['mcp-server-fetch'] },
      { name: '地图', transport: 'streamable-http', url: 'https://mcp.amap.com/mcp?key=k' },
      { name: '时间', transport: 'stdio', command: '/opt/bin/time-mcp.exe', args: [] },
    ] as unknown as ServerSettings[];
    const programs = programWords(servers);
    expect(Object.fromEntries(programs)).toEqual({ memory: 'memory', 记忆: 'memory', 抓取: 'fetch', 地图: 'amap', 时间: 'time' });
    const names = assignExposedNames(
      [
        { server: 'memory', tool: 'read_graph' },
        { server: '记忆', tool: 'read_graph' },
        { server: '抓取', tool: 'fetch' },
        { server: '地图', tool: 'fetch' },
      ],
      false,
      programs,
    );
    // A server whose name has letters keeps its name; the Chinese copy reads as what it runs, told apart by a hash.
    expect(names.get(toolKey('memory', 'read_graph'))).toMatch(/^memory_read_graph(_[0-9a-f]{8})?$/);
    expect(names.get(toolKey('记忆', 'read_graph'))).toMatch(/^memory_read_graph(_[0-9a-f]{8})?$/);
    expect(names.get(toolKey('记忆', 'read_graph'))).not.toBe(names.get(toolKey('memory', 'read_graph')));
    expect(names.get(toolKey('抓取', 'fetch'))).toBe('fetch_fetch');
    expect(names.get(toolKey('地图', 'fetch'))).toBe('amap_fetch');
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
