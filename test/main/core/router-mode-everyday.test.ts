import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { fixtureServer, type Harness } from '../../helpers/bridge-harness';
import { catalogServer, EVERYDAY_PUBLISHED, loadPublished } from '../../helpers/catalogs';
import type { FakeSession } from '../../helpers/fake-xiaozhi';
import { type RouterRun, startRouterRun } from '../../helpers/router-run';
import { scaled } from '../../helpers/time-scale';

/**
 * Router mode over a new user's modest catalog, with the real servers running: our fixture server,
 * the published server-everything and server-memory, and a filesystem-like server (51 tools).
 * The search tests use captures of these tool lists; this checks the captures against the servers
 * and that find_tools and call_tool work on what the servers really say.
 */
const pkg = (name: string) => path.resolve(__dirname, `../../../node_modules/@modelcontextprotocol/${name}/dist/index.js`);
let run: RouterRun | undefined;
let harness: Harness;
let session: FakeSession;

beforeAll(async () => {
  run = await startRouterRun((work) => [
    fixtureServer('fixture'),
    { name: 'everything', transport: 'stdio', command: process.execPath, args: [pkg('server-everything'), 'stdio'] },
    {
      name: 'memory',
      transport: 'stdio',
      command: process.execPath,
      args: [pkg('server-memory')],
      env: { MEMORY_FILE_PATH: path.join(work, 'memory.jsonl') },
    },
    catalogServer('filesystem'),
  ]);
  ({ harness, session } = run);
}, scaled(60_000));

afterAll(async () => {
  await run?.stop();
});

let id = 1;
async function findTools(query: string): Promise<string[]> {
  const response = await session.request(id++, 'tools/call', { name: 'find_tools', arguments: { query } });
  const answer = JSON.parse(response.result?.content?.[0]?.text ?? '{}') as { tools?: { name: string; server: string }[] };
  return (answer.tools ?? []).map((t) => `${t.server}/${t.name}`);
}

describe("router mode over a new user's 51 tools, with the published servers running", () => {
  it('the captured tool lists the search tests use are what the servers list today', async () => {
    const all = await harness.bridge.api.getCatalog();
    // The bridge's own (task_status, cancel_task, and confirm_action while a tool asks first) are not the servers'.
    const catalog = all.filter((t) => t.server !== 'xiaozhi-tray');
    expect(catalog).toHaveLength(51);
    for (const server of EVERYDAY_PUBLISHED) {
      const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name);
      const live = catalog
        .filter((t) => t.server === server)
        .map((t) => ({ name: t.originalName, description: t.description, inputSchema: t.inputSchema }));
      // Re-capture with `node test/fixtures/catalogs/capture-published.mjs` after upgrading a server.
      expect(live.sort(byName), `${server} changed its tools`).toEqual([...loadPublished(server).tools].sort(byName));
    }
  });

  it('find_tools answers the everyday questions with the right tool first, and leaves out what does not match', async () => {
    expect(await findTools('add two numbers')).toEqual(expect.arrayContaining(['everything/get-sum']));
    expect((await findTools('add two numbers'))[0]).toBe('everything/get-sum');
    expect(await findTools('what is 17 plus 25')).toEqual(['everything/get-sum']);
    const rain = await findTools('明天北京会下雨吗');
    expect(rain[0]).toBe('fixture/weather_get');
    expect(rain.filter((key) => !key.startsWith('fixture/'))).toEqual([]);
  });

  it('call_tool then reaches the real server', async () => {
    const response = await session.request(id++, 'tools/call', {
      name: 'call_tool',
      arguments: { name: 'get-sum', arguments: { a: 17, b: 25 } },
    });
    expect(response.result?.isError).not.toBe(true);
    expect(response.result?.content?.[0]?.text).toMatch(/\b42\b/);
  });

  it('call_tool on a tool the user switched off says it is off, rather than suggest other tools for the job', async () => {
    await harness.bridge.api.setToolEnabled({ server: 'everything', tool: 'get-sum', enabled: false });
    try {
      const response = await session.request(id++, 'tools/call', {
        name: 'call_tool',
        arguments: { name: 'get-sum', arguments: { a: 1, b: 2 } },
      });
      expect(response.result?.isError).toBe(true);
      expect(response.result?.content?.[0]?.text).toBe('The tool "get-sum" is switched off. The user can switch it on in Xiaozhi Tray.');
      expect(await findTools('add two numbers')).not.toContain('everything/get-sum');
    } finally {
      await harness.bridge.api.setToolEnabled({ server: 'everything', tool: 'get-sum', enabled: true });
    }
  });
});
