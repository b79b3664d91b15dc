import fs from 'node:fs';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { BUILTIN_SERVER } from '../../../src/main/core/hub/builtin/builtin-tools';
import { CANCEL_TASK_TOOL, TASK_STATUS_TOOL } from '../../../src/main/core/long-calls/task-tools';
import type { Harness } from '../../helpers/bridge-harness';
import { catalogNames, loadQueries } from '../../helpers/catalogs';
import type { FakeSession } from '../../helpers/fake-xiaozhi';
import { type CatalogRouterRun, expectFoundInTop3, startCatalogRouterRun } from '../../helpers/router-run';
import { scaled } from '../../helpers/time-scale';

/**
 * Router mode end to end: 10 real servers with 300 realistic tools behind one endpoint that is
 * served only find_tools and call_tool; the model finds and calls tools through them. The whole
 * query set through these servers is a quality run (`npm run quality:router`); the search itself is
 * checked query by query in router/tool-search.test.ts.
 */
let run: CatalogRouterRun | undefined;
let harness: Harness;
let session: FakeSession;
let exposed: Map<string, string>;
const callLog = (server: string) => run?.callLog(server) ?? '';
const call = (name: string, args: Record<string, unknown>) => run!.call(name, args);
/** A Chinese question, a command in Chinese and the same in English. */
const SLICE = ['明天北京天气怎么样', '把客厅的灯关掉', 'turn off the living room lights'];
/** The catalog: the 10 servers' 300 tools and the bridge's own two (task_status, cancel_task), served with every endpoint. */
const CATALOG = 302;

beforeAll(async () => {
  run = await startCatalogRouterRun();
  ({ harness, session, exposed } = run);
}, scaled(60_000));

afterAll(async () => {
  await run?.stop();
});

describe('router mode with 300 tools from 10 servers', () => {
  it('serves one small page: find_tools, call_tool and the pinned tool', async () => {
    expect([...exposed.keys()].filter((key) => !key.startsWith(`${BUILTIN_SERVER}/`))).toHaveLength(300);
    expect(exposed.get(`${BUILTIN_SERVER}/${TASK_STATUS_TOOL}`)).toBe(TASK_STATUS_TOOL);
    expect(exposed.get(`${BUILTIN_SERVER}/${CANCEL_TASK_TOOL}`)).toBe(CANCEL_TASK_TOOL);
    expect(exposed.size).toBe(CATALOG);
    const { tools, pages } = await session.listAllTools();
    expect(pages).toHaveLength(1);
    // The bridge's own tools are listed beside them: an answer that names task_status must be callable.
    expect(tools.map((t) => t.name)).toEqual(['call_tool', 'cancel_task', 'find_tools', 'get_current_time', 'task_status']);
    expect(Buffer.byteLength(JSON.stringify(pages[0]))).toBeLessThanOrEqual(8192);
    const state = await harness.bridge.api.getState();
    expect(state.endpoints[0]?.served).toMatchObject({ mode: 'router', toolCount: 5, pages: 1, searchable: CATALOG });
  });

  it("find_tools' description names every server with what it does and says how to phrase a query", async () => {
    const { tools } = await session.listAllTools();
    const description = tools.find((t) => t.name === 'find_tools')?.description ?? '';
    for (const server of catalogNames()) expect(description).toContain(`- ${server} (`);
    expect(description).toMatch(/- memory \(9 tools\): [a-z_, ]+/);
    expect(description).toContain(`Searches the user's ${CATALOG} tools`);
    expect(description).toMatch(/Query: the task in a few keywords/);
  });

  it.each(loadQueries().filter((q) => SLICE.includes(q.query)))(
    'find_tools ranks a right tool in its top 3 for "$query"',
    async (query) => {
      await expectFoundInTop3(run!, query);
    },
  );

  it('call_tool reaches the tool through the hub: argument check, shaping and history as usual', async () => {
    const ok = await call('call_tool', { name: 'get-tickets', arguments: { date: '2025-05-03', fromStation: 'BJP', toStation: 'SHH' } });
    expect(ok).toMatchObject({
      text: '12306-mcp/get-tickets: {"date":"2025-05-03","fromStation":"BJP","toStation":"SHH"}',
      isError: false,
    });
    // Arguments given as a JSON string (models do that) are understood too.
    const asText = await call('call_tool', { name: 'get_air_quality', arguments: '{"location":"北京"}' });
    expect(asText.text).toBe('weather/get_air_quality: {"location":"北京"}');
    // Shaped: one text item within the limit, the image described, the cut marked.
    const big = await call('call_tool', { name: 'read_text_file', arguments: { path: '/notes.txt' } });
    expect(big.content).toHaveLength(1);
    expect(big.text).toMatch(/…\[truncated: showing \d+ of \d+ bytes\]$/);
    expect(Buffer.byteLength(big.raw)).toBeLessThanOrEqual(8192);
    // Checked: wrong arguments never reach the server.
    const wrong = await call('call_tool', { name: 'get-tickets', arguments: { date: '2025-05-03' } });
    expect(wrong.isError).toBe(true);
    expect(wrong.text).toContain('missing required argument "fromStation"');
    const tickets = fs.readFileSync(callLog('12306-mcp'), 'utf8').trim().split('\n');
    expect(tickets).toHaveLength(1);
    // History records the tool itself, from this endpoint.
    const history = await harness.bridge.api.getHistory();
    expect(history.filter((h) => h.tool === 'get-tickets').map((h) => [h.caller, h.server, h.outcome])).toEqual([
      ['home', '12306-mcp', 'ok'],
      ['home', '12306-mcp', 'error'],
    ]);
    expect(history.some((h) => h.tool === 'find_tools' && h.caller === 'home')).toBe(true);
  });

  it('answers an unknown name or missing arguments with what to do next', async () => {
    const unknown = await call('call_tool', { name: 'get_weather', arguments: { city: '北京' } });
    expect(unknown.isError).toBe(true);
    expect(unknown.text).toMatch(/^There is no tool called "get_weather"\. Did you mean "[^"]+", /);
    expect(unknown.text).toContain('Use find_tools to search');
    expect((await call('call_tool', {})).text).toContain('call_tool needs "name"');
    expect((await call('find_tools', {})).text).toContain('find_tools needs "query"');
    expect((await call('find_tools', { query: 'the of' })).text).toMatch(
      /^No tool matches "the of"\. .*The servers are: 12306-mcp, amap-maps/,
    );
    // A pinned tool is called directly.
    expect((await call('get_current_time', { timezone: 'Asia/Shanghai' })).text).toBe(
      'daily-tools/get_current_time: {"timezone":"Asia/Shanghai"}',
    );
  });

  it('switching the endpoint to all tools needs no reconnect: list_changed, then the whole catalog', async () => {
    const mark = session.mark();
    await harness.bridge.api.setEndpointTools({ id: 'e1', toolMode: 'all' });
    await session.waitForNotification('notifications/tools/list_changed', mark);
    const { tools, pages } = await session.listAllTools(50_000);
    expect(tools).toHaveLength(CATALOG);
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining([TASK_STATUS_TOOL, CANCEL_TASK_TOOL]));
    expect(pages.length).toBeGreaterThan(1);
    expect((await harness.bridge.api.getState()).endpoints[0]?.served).toMatchObject({ mode: 'all', toolCount: CATALOG });
    // And back, with another pinned tool.
    const again = session.mark();
    await harness.bridge.api.setEndpointTools({ id: 'e1', toolMode: 'router', pinned: ['HassTurnOff'] });
    await session.waitForNotification('notifications/tools/list_changed', again);
    expect((await session.listAllTools(60_000)).tools.map((t) => t.name)).toEqual([
      'HassTurnOff',
      'call_tool',
      'cancel_task',
      'find_tools',
      'task_status',
    ]);
    expect(run?.xiaozhi.sessions).toHaveLength(1);
  });

  it('the window sees what the model sees and can try the search', async () => {
    const preview = await harness.bridge.api.getServedTools({ id: 'e1' });
    expect(preview.summary).toMatchObject({ mode: 'router', toolCount: 5, searchable: CATALOG });
    expect(preview.pages[0]?.tools.map((t) => t.name)).toEqual(['HassTurnOff', 'call_tool', 'cancel_task', 'find_tools', 'task_status']);
    const hits = await harness.bridge.api.searchTools({ query: '明天北京天气怎么样', limit: 3 });
    expect(hits.map((h) => h.name)).toContain('get_daily_forecast');
  });
});
