import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { type Harness, logText, startServing, tearDown } from '../../helpers/bridge-harness';
import { catalogServer } from '../../helpers/catalogs';
import type { FakeSession, FakeXiaozhi } from '../../helpers/fake-xiaozhi';

/** Arguments are checked against the tool's schema in the bridge; what fails never reaches the server. */
let xiaozhi: FakeXiaozhi;
let harness: Harness;
let session: FakeSession;
let work: string;
const logOf = (server: string) => path.join(work, `${server}.calls`);
const received = (server: string): { tool: string; arguments: Record<string, unknown> }[] =>
  fs.existsSync(logOf(server))
    ? fs
        .readFileSync(logOf(server), 'utf8')
        .trim()
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l))
    : [];

beforeEach(async () => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'xt-args-'));
  ({ xiaozhi, harness, session } = await startServing({
    servers: [
      catalogServer('weather', { callLog: logOf('weather') }),
      catalogServer('12306-mcp', { callLog: logOf('12306-mcp'), env: { CATALOG_BROKEN_SCHEMA: 'get-tickets' } }),
      catalogServer('memory', { callLog: logOf('memory'), extra: { checkArguments: false } }),
    ],
  }));
});

afterEach(async () => {
  await tearDown(harness, xiaozhi);
  fs.rmSync(work, { recursive: true, force: true });
});

let id = 100;
async function call(name: string, args: unknown) {
  const response = await session.request(id++, 'tools/call', { name, arguments: args });
  return { text: response.result?.content?.[0]?.text ?? '', isError: response.result?.isError === true };
}

describe('argument checks on every tools/call', () => {
  it('answers wrong types and a missing argument at once, in plain words, without reaching the server', async () => {
    const wrongType = await call('get_daily_forecast', { location: 101010100, days: 7 });
    expect(wrongType.isError).toBe(true);
    expect(wrongType.text).toContain('- "location" must be a string, not a number (101010100)');
    expect(wrongType.text).toContain('- "days" must be a string, not a number (7)');
    const missing = await call('get_air_quality', {});
    expect(missing.isError).toBe(true);
    expect(missing.text).toContain('- missing required argument "location" (string: 城市名称、LocationID 或“经度,纬度”');
    // A call that fits goes through; the server's own log shows it is the only one that arrived.
    const fine = await call('get_air_quality', { location: '北京' });
    expect(fine).toEqual({ text: 'weather/get_air_quality: {"location":"北京"}', isError: false });
    expect(received('weather')).toEqual([{ tool: 'get_air_quality', arguments: { location: '北京' } }]);
    // History shows the rejected calls as errors, with what the model sent.
    const history = await harness.bridge.api.getHistory();
    expect(history.map((h) => [h.tool, h.outcome])).toEqual([
      ['get_daily_forecast', 'error'],
      ['get_air_quality', 'error'],
      ['get_air_quality', 'ok'],
    ]);
  });

  it('answers an unknown tool without reaching any server', async () => {
    const unknown = await call('get_weather_tomorrow', { location: '北京' });
    expect(unknown.isError).toBe(true);
    expect(unknown.text).toMatch(/There is no tool called "get_weather_tomorrow"/);
    await call('get_current_weather', { location: '上海' });
    expect(received('weather').map((c) => c.tool)).toEqual(['get_current_weather']);
    expect(received('12306-mcp')).toEqual([]);
    expect(received('memory')).toEqual([]);
  });

  it('still serves and calls a tool whose schema does not compile, and says so once in the log', async () => {
    const { tools } = await session.listAllTools();
    expect(tools.map((t) => t.name)).toContain('get-tickets');
    for (let i = 0; i < 2; i++) {
      const result = await call('get-tickets', { date: 20250503, fromStation: 'BJP', toStation: 'SHH' });
      expect(result.isError).toBe(false);
    }
    expect(received('12306-mcp')).toHaveLength(2);
    const warnings = logText(harness.logBook).match(/input schema of tool "get-tickets" \(server "12306-mcp"\) is not valid JSON Schema/g);
    expect(warnings).toHaveLength(1);
    // The server's other tools are still checked.
    expect((await call('get-station-code-of-citys', {})).isError).toBe(true);
    expect(received('12306-mcp')).toHaveLength(2);
  });

  it('sends arguments unchecked to a server whose check is switched off, and checks again when it is switched on', async () => {
    const result = await call('search_nodes', { query: 42 });
    expect(result).toEqual({ text: 'memory/search_nodes: {"query":42}', isError: false });
    expect(received('memory')).toHaveLength(1);
    const memory = (await harness.bridge.api.getSettings()).servers.find((s) => s.name === 'memory');
    await harness.bridge.api.updateServer({ name: 'memory', server: { ...memory!, checkArguments: true } });
    await harness.bridge.whenServersSettled();
    await session.listAllTools(5000);
    const checked = await call('search_nodes', { query: 42 });
    expect(checked.isError).toBe(true);
    expect(checked.text).toContain('"query" must be a string');
    expect(received('memory')).toHaveLength(1);
  });
});
