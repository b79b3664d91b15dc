import { describe, expect, it } from 'vitest';

import type { CallAnswer } from '../../../../src/main/core/hub/tool-hub';
import { CallHistory } from '../../../../src/main/core/logs/call-history';
import { representativeNames } from '../../../../src/main/core/router/router-tools';
import { type RouterEntry, ToolRouter } from '../../../../src/main/core/router/tool-router';
import { catalogEntries, loadCatalog } from '../../../helpers/catalogs';

/** A source whose catalog the test changes, and which records what reaches it. */
function source(entries: RouterEntry[]) {
  const calls: { name: string; args: Record<string, unknown> }[] = [];
  const state = {
    version: 1,
    entries,
    calls,
    catalog: () => state.entries,
    call: async (name: string, args: Record<string, unknown>): Promise<CallAnswer> => {
      calls.push({ name, args });
      return { result: { content: [{ type: 'text', text: `called ${name}` }] } };
    },
  };
  return state;
}

const all = (): RouterEntry[] => catalogEntries().map((e) => ({ ...e, enabled: true }));

describe('tool router', () => {
  it('serves find_tools and call_tool, plus the pinned tools that exist and are on, sorted by name', () => {
    const entries = all();
    const off = entries.find((e) => e.name === 'HassTurnOn') as RouterEntry;
    off.enabled = false;
    const router = new ToolRouter({ source: source(entries), history: new CallHistory(), maxMessageBytes: () => 8192 });
    const served = router.served(['maps_weather', 'no_such_tool', 'HassTurnOn', 'find_tools', 'maps_weather']).map((p) => p.tool.name);
    expect(served).toEqual(['call_tool', 'find_tools', 'maps_weather']);
    expect(router.searchable).toBe(299);
  });

  it('rebuilds its index when the catalog changes, not before', async () => {
    const src = source(all());
    const router = new ToolRouter({ source: src, history: new CallHistory(), maxMessageBytes: () => 8192 });
    const names = () => router.search('电表读数', 3).map((h) => h.entry.name);
    expect(names()).not.toContain('read_meter');
    src.entries = [
      ...src.entries,
      { name: 'read_meter', server: 'home', description: '查询家里的电表读数', inputSchema: { type: 'object' }, enabled: true },
    ];
    expect(names()).not.toContain('read_meter');
    src.version++;
    expect(router.search('电表读数', 3)[0]?.entry.name).toBe('read_meter');
  });

  it('drops the weakest matches rather than send a find_tools answer over the message limit', async () => {
    const router = new ToolRouter({ source: source(all()), history: new CallHistory(), maxMessageBytes: () => 1800 });
    const { result } = await router.call('find_tools', { query: 'github pull request', limit: 10 }, { caller: 't', idJson: '7' });
    const text = (result.content[0] as { text: string }).text;
    const answer = JSON.parse(text) as { tools: unknown[] };
    expect(answer.tools.length).toBeGreaterThan(0);
    expect(answer.tools.length).toBeLessThan(10);
    expect(Buffer.byteLength(JSON.stringify({ result, jsonrpc: '2.0', id: 7 }))).toBeLessThanOrEqual(1800);
  });

  it('answers a very long query with tools, not with the query echoed back until the message is full', async () => {
    const router = new ToolRouter({ source: source(all()), history: new CallHistory(), maxMessageBytes: () => 8192 });
    const query = '北京明天天气 '.repeat(1500);
    const { result } = await router.call('find_tools', { query }, { caller: 't', idJson: '7' });
    const answer = JSON.parse((result.content[0] as { text: string }).text) as { query: string; tools: { name: string }[] };
    expect(answer.tools.map((t) => t.name)).toContain('get_daily_forecast');
    expect(answer.query.length).toBeLessThan(300);
  });

  it('passes call_tool and other names on to the source; records its own answers in the history', async () => {
    const src = source(all());
    const history = new CallHistory();
    const router = new ToolRouter({ source: src, history, maxMessageBytes: () => 8192 });
    await router.call('call_tool', { name: 'maps_weather', arguments: { city: '北京' } }, { caller: 'home' });
    await router.call('maps_geo', { address: '天安门' }, { caller: 'home' });
    await router.call('find_tools', { query: '天气' }, { caller: 'home' });
    await router.call('call_tool', { name: 'find_tools', arguments: { query: 'weather' } }, { caller: 'home' });
    expect(src.calls).toEqual([
      { name: 'maps_weather', args: { city: '北京' } },
      { name: 'maps_geo', args: { address: '天安门' } },
    ]);
    expect(history.list().map((r) => [r.tool, r.caller, r.outcome])).toEqual([
      ['find_tools', 'home', 'ok'],
      ['find_tools', 'home', 'ok'],
    ]);
    const { result: bad } = await router.call('call_tool', { name: 'maps_weather', arguments: [1] }, { caller: 'home' });
    expect(bad.isError).toBe(true);
    expect(src.calls).toHaveLength(2);
  });

  it('summarises a server by a few names that cover what it does', () => {
    const github = loadCatalog('github').tools.map((t) => t.name);
    const picked = representativeNames(github);
    expect(picked).toHaveLength(4);
    const words = picked.join(' ');
    for (const theme of ['pull_request', 'issue', 'workflow']) expect(words).toContain(theme);
    expect(representativeNames(['only'])).toEqual(['only']);
    expect(representativeNames([])).toEqual([]);
  });
});
