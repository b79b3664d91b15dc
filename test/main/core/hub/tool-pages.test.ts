import { afterEach, describe, expect, it } from 'vitest';

import { allPages, fitTool, type Page, pageAt, type PreparedTool, prepareTool } from '../../../../src/main/core/hub/tool-pages';
import { CANCEL_TASK_TOOL, TASK_STATUS_TOOL } from '../../../../src/main/core/long-calls/task-tools';
import { fixtureServer, type Harness, makeBridge, tearDown } from '../../../helpers/bridge-harness';
import { FakeXiaozhi } from '../../../helpers/fake-xiaozhi';

let xiaozhi: FakeXiaozhi | undefined;
let harness: Harness | undefined;
afterEach(async () => {
  await tearDown(harness, xiaozhi);
  harness = xiaozhi = undefined;
});

const tool = (name: string, description = 'd') => prepareTool({ name, description, inputSchema: { type: 'object', properties: {} } });

describe('tools/list paging by bytes', () => {
  it('serves 300 tools in pages that all fit 8192 bytes and together hold every tool', async () => {
    xiaozhi = await FakeXiaozhi.start();
    harness = makeBridge({
      endpoints: [{ id: 'e', name: 'home', url: xiaozhi.url() }],
      servers: [fixtureServer('fx', { FIXTURE_EXTRA_TOOLS: '300' })],
    });
    harness.bridge.start();
    await harness.bridge.whenServersSettled();
    const session = await xiaozhi.connection(0);
    await session.initialize();
    const { tools, pages } = await session.listAllTools(5000);
    // The fixture's 312 tools and the bridge's own two, served with every endpoint.
    expect(tools).toHaveLength(314);
    expect(new Set(tools.map((t) => t.name)).size).toBe(314);
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining([TASK_STATUS_TOOL, CANCEL_TASK_TOOL]));
    expect(pages.length).toBeGreaterThan(3);
    for (const page of pages) {
      const frame = session.rawFrames.find((f) => JSON.parse(f).id === page.id) as string;
      expect(Buffer.byteLength(frame)).toBeLessThanOrEqual(8192);
    }
    expect(harness.bridge.state().catalog).toMatchObject({ toolCount: 314, pages: pages.length });
  });

  it('honours a smaller configured limit, with string ids', async () => {
    xiaozhi = await FakeXiaozhi.start();
    harness = makeBridge({
      endpoints: [{ id: 'e', name: 'home', url: xiaozhi.url() }],
      servers: [fixtureServer('fx', { FIXTURE_EXTRA_TOOLS: '40' })],
      limits: { maxMessageBytes: 2048 },
    });
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
    // The fixture's 52 tools and the bridge's own two.
    expect(names).toHaveLength(54);
    expect(new Set(names).size).toBe(54);
    expect(names).toEqual(expect.arrayContaining([TASK_STATUS_TOOL, CANCEL_TASK_TOOL]));
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

/** Follows nextCursor as xiaozhi does, but gives up (and fails) instead of looping for ever. */
function followCursors(sorted: PreparedTool[], maxBytes: number) {
  const pages = [];
  let cursor: string | undefined;
  for (let n = 0; n <= sorted.length + 1; n++) {
    const page = pageAt(sorted, maxBytes, String(n), cursor);
    pages.push(page);
    if (page.nextCursor === undefined) return pages;
    if (cursor !== undefined) expect(page.nextCursor > cursor, `cursor ${page.nextCursor} after ${cursor}`).toBe(true);
    cursor = page.nextCursor;
  }
  throw new Error(`paging did not end after ${pages.length} pages (last cursor ${String(cursor)})`);
}

function pageBytes(page: Page, id: string): number {
  return Buffer.byteLength(
    `{"result":{"tools":[${page.tools.map((t) => t.json).join(',')}]${page.nextCursor ? `,"nextCursor":${JSON.stringify(page.nextCursor)}` : ''}},"jsonrpc":"2.0","id":${id}}`,
  );
}

describe('paging whatever the catalog holds', () => {
  it('always moves on past tools that share a name, serving the name once (it hung the bridge)', () => {
    const twins = Array.from({ length: 50 }, (_, i) => tool('twin', `copy ${i} ${'x'.repeat(5000)}`));
    const sorted = [tool('alpha'), ...twins, tool('zulu')];
    const pages = followCursors(sorted, 8192);
    const names = pages.flatMap((p) => p.tools.map((t) => t.tool.name));
    expect(names).toEqual(['alpha', 'twin', 'zulu']);
    pages.forEach((page, n) => expect(pageBytes(page, String(n))).toBeLessThanOrEqual(8192));
    expect(allPages(sorted, 8192).flatMap((p) => p.tools.map((t) => t.tool.name))).toEqual(['alpha', 'twin', 'zulu']);
  });

  it('ends on a catalog of 20,000 copies of one name', () => {
    const sorted = new Array<PreparedTool>(20_000).fill(tool('same', 'y'.repeat(3000)));
    expect(followCursors(sorted, 8192)).toHaveLength(1);
    const pages = allPages(sorted, 8192);
    expect(pages).toHaveLength(1);
    expect(pages[0]?.tools.map((t) => t.tool.name)).toEqual(['same']);
  });

  it('leaves out a tool whose schema alone is larger than a page, and serves the others', () => {
    const properties = Object.fromEntries(Array.from({ length: 2000 }, (_, i) => [`field_${i}`, { type: 'string' }]));
    const giant = prepareTool({ name: 'giant', description: 'd'.repeat(100_000), inputSchema: { type: 'object', properties } });
    const sorted = [tool('a'), giant, tool('z')];
    const pages = followCursors(sorted, 8192);
    expect(pages.flatMap((p) => p.tools.map((t) => t.tool.name))).toEqual(['a', 'z']);
    expect(pages.flatMap((p) => p.unlisted ?? [])).toEqual(['giant']);
    pages.forEach((page, n) => expect(pageBytes(page, String(n))).toBeLessThanOrEqual(8192));
  });

  it('drops the descriptions inside a schema before leaving a tool out', () => {
    const properties = Object.fromEntries(
      Array.from({ length: 40 }, (_, i) => [
        `field_${i}`,
        { type: 'string', description: `What field ${i} holds, at length. `.repeat(10) },
      ]),
    );
    const wordy = prepareTool({
      name: 'wordy',
      description: 'Long. '.repeat(2000),
      inputSchema: { type: 'object', properties, required: ['field_0'] },
    });
    const pages = followCursors([wordy], 8192);
    const served = pages[0]?.tools[0];
    expect(served?.tool.name).toBe('wordy');
    expect(Object.keys(served?.tool.inputSchema.properties ?? {})).toHaveLength(40);
    expect(served?.tool.inputSchema.required).toEqual(['field_0']);
    expect(pageBytes(pages[0] as Page, '0')).toBeLessThanOrEqual(8192);
  });

  it('shrinks a description of escapes and surrogate pairs in a few rounds', () => {
    const nasty = tool('nasty', '"\\\u0001😀'.repeat(50_000));
    const fitted = fitTool(nasty, 1000);
    expect(fitted.bytes).toBeLessThanOrEqual(1000);
    expect(fitted.bytes).toBeGreaterThan(900);
    // Never half of an emoji: JSON would carry it as a lone surrogate escape.
    expect(fitted.json).not.toMatch(/\\ud83d/i);
  });

  it('ends when every tool is too large to list', () => {
    const properties = Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`f${i}`, { type: 'number' }]));
    const sorted = ['a', 'b', 'c'].map((name) => prepareTool({ name, description: '', inputSchema: { type: 'object', properties } }));
    const pages = followCursors(sorted, 2048);
    expect(pages).toHaveLength(1);
    expect(pages[0]).toEqual({ tools: [], unlisted: ['a', 'b', 'c'] });
  });
});
