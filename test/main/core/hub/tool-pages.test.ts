import { afterEach, describe, expect, it } from 'vitest';
import { allPages, pageAt, prepareTool } from '../../../../src/main/core/hub/tool-pages';
import { FakeXiaozhi } from '../../../helpers/fake-xiaozhi';
import { fixtureServer, makeBridge, type Harness } from '../../../helpers/bridge-harness';

let xiaozhi: FakeXiaozhi | undefined;
let harness: Harness | undefined;
afterEach(async () => {
  await harness?.bridge.stop();
  await xiaozhi?.close();
  harness = undefined;
  xiaozhi = undefined;
});

const tool = (name: string, description = 'd') => prepareTool({ name, description, inputSchema: { type: 'object', properties: {} } });

describe('tools/list paging by bytes', () => {
  it('serves 300 tools in pages that all fit 8192 bytes and together hold every tool', async () => {
    xiaozhi = await FakeXiaozhi.start();
    harness = makeBridge({ endpoints: [{ id: 'e', name: 'home', url: xiaozhi.url() }], servers: [fixtureServer('fx', { FIXTURE_EXTRA_TOOLS: '300' })] });
    harness.bridge.start();
    await harness.bridge.whenServersSettled();
    const session = await xiaozhi.connection(0);
    await session.initialize();
    const { tools, pages } = await session.listAllTools(5000);
    expect(tools).toHaveLength(312);
    expect(new Set(tools.map((t) => t.name)).size).toBe(312);
    expect(pages.length).toBeGreaterThan(3);
    for (const page of pages) {
      const frame = session.rawFrames.find((f) => JSON.parse(f).id === page.id) as string;
      expect(Buffer.byteLength(frame)).toBeLessThanOrEqual(8192);
    }
    expect(harness.bridge.state().catalog).toMatchObject({ toolCount: 312, pages: pages.length });
  });

  it('honours a smaller configured limit, with string ids', async () => {
    xiaozhi = await FakeXiaozhi.start();
    harness = makeBridge({ endpoints: [{ id: 'e', name: 'home', url: xiaozhi.url() }], servers: [fixtureServer('fx', { FIXTURE_EXTRA_TOOLS: '40' })], limits: { maxMessageBytes: 2048 } });
    harness.bridge.start();
    await harness.bridge.whenServersSettled();
    const session = await xiaozhi.connection(0);
    await session.initialize();
    let cursor: string | undefined;
    let n = 0;
    const names: string[] = [];
    do {
      const id = `0f8fad5b-d9cb-469f-a165-70867728950e_n_${n++}`;
      const page = await session.request(id, 'tools/list', cursor ? { cursor } : {});
      const frame = session.rawFrames.find((f) => JSON.parse(f).id === id) as string;
      expect(Buffer.byteLength(frame)).toBeLessThanOrEqual(2048);
      names.push(...(page.result?.tools ?? []).map((t) => t.name));
      cursor = page.result?.nextCursor;
    } while (cursor);
    expect(names).toHaveLength(52);
  });

  it('shrinks a single tool that cannot fit a page alone instead of hiding it', () => {
    const huge = tool('huge', 'x'.repeat(20_000));
    const pages = allPages([tool('a'), huge, tool('z')], 1024);
    const all = pages.flatMap((p) => p.tools);
    expect(all.map((t) => t.tool.name)).toEqual(['a', 'huge', 'z']);
    const shrunk = all[1]!;
    expect(shrunk.tool.description.endsWith('…')).toBe(true);
    for (const page of pages) {
      const body = `{"result":{"tools":[${page.tools.map((t) => t.json).join(',')}]${page.nextCursor ? `,"nextCursor":${JSON.stringify(page.nextCursor)}` : ''}},"jsonrpc":"2.0","id":1}`;
      expect(Buffer.byteLength(body)).toBeLessThanOrEqual(1024);
    }
  });

  it('keeps a cursor valid when the catalog changes between pages', () => {
    const sorted = ['a', 'b', 'c', 'd', 'e', 'f'].map((n) => tool(n, 'y'.repeat(60)));
    const first = pageAt(sorted, 400, '1');
    expect(first.nextCursor).toBeDefined();
    const withoutFirst = sorted.filter((t) => t.tool.name !== first.tools[0]!.tool.name);
    const second = pageAt(withoutFirst, 400, '2', first.nextCursor);
    expect(second.tools[0]!.tool.name).toBe(first.nextCursor);
  });
});
