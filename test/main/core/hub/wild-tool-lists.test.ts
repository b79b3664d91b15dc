import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { CANCEL_TASK_TOOL, TASK_STATUS_TOOL } from '../../../../src/main/core/long-calls/task-tools';
import type { ServerSettings } from '../../../../src/shared/settings';
import { fixtureServer, logText, makeBridge, withEndpointTeardown } from '../../../helpers/bridge-harness';
import { type FakeSession, FakeXiaozhi } from '../../../helpers/fake-xiaozhi';
import { hostileServer } from '../../../helpers/hostile-server';
import { type HttpFixture, startStreamableHttpFixture } from '../../../helpers/http-fixtures';
import { waitFor } from '../../../helpers/wait';

/**
 * Tool lists as third-party servers send them: names listed twice, tools the MCP schema refuses,
 * schemas built of `$ref`s. Each is served through the real path: a server process (or a real
 * HTTP server), the bridge, and a fake xiaozhi that pages with nextCursor and calls tools.
 */
const ctx = withEndpointTeardown(afterEach);
let remote: HttpFixture | undefined;
let tempDir: string | undefined;
afterEach(async () => {
  await remote?.close();
  remote = undefined;
  if (tempDir) fs.rmSync(tempDir, { recursive: true, force: true });
  tempDir = undefined;
});

/** A server that breaks the rules on purpose, listing `tools` besides its own. */
function hostileServerWith(name: string, tools: unknown[]): ServerSettings {
  tempDir ??= fs.mkdtempSync(path.join(os.tmpdir(), 'xt-wild-'));
  return hostileServer(tempDir, name, tools);
}

type Schema = Record<string, unknown>;

/** 200 properties of type E; E has 10 properties of type F; F has a description of `bytes`. */
function refBomb(bytes: number): Schema {
  const properties: Schema = {};
  for (let i = 0; i < 200; i++) properties[`p${i}`] = { $ref: '#/$defs/E' };
  const e: Schema = { type: 'object', properties: {} as Schema };
  for (let i = 0; i < 10; i++) (e.properties as Schema)[`f${i}`] = { $ref: '#/$defs/F' };
  return { type: 'object', properties, $defs: { E: e, F: { type: 'string', description: 'd'.repeat(bytes) } } };
}

async function connectXiaozhi(servers: Parameters<typeof makeBridge>[0]['servers']): Promise<FakeSession> {
  ctx.xiaozhi = await FakeXiaozhi.start();
  ctx.harness = makeBridge({ endpoints: [{ id: 'e', name: 'home', url: ctx.xiaozhi.url() }], servers });
  ctx.harness.bridge.start();
  await ctx.harness.bridge.whenServersSettled();
  const session = await ctx.xiaozhi.connection(0);
  await session.initialize();
  return session;
}

const BRIDGE_OWN: readonly string[] = [CANCEL_TASK_TOOL, TASK_STATUS_TOOL];

/**
 * Every page as xiaozhi reads it, each checked against its 8 KB limit. `names` are the configured
 * servers' tools: the bridge's own two (served with every endpoint) are checked here once, then left out.
 */
async function listEveryPage(session: FakeSession, idBase: number) {
  const { tools, pages } = await session.listAllTools(idBase);
  for (const page of pages) {
    const frame = session.rawFrames.find((f) => (JSON.parse(f) as { id?: unknown }).id === page.id) as string;
    expect(Buffer.byteLength(frame)).toBeLessThanOrEqual(8192);
  }
  const all = tools.map((t) => t.name);
  expect(all.filter((n) => BRIDGE_OWN.includes(n)).sort()).toEqual(BRIDGE_OWN);
  return { tools, pages, names: all.filter((n) => !BRIDGE_OWN.includes(n)) };
}

async function call(session: FakeSession, id: number, name: string, args: Record<string, unknown>) {
  const response = await session.request(id, 'tools/call', { name, arguments: args }, 20_000);
  return { text: response.result?.content?.[0]?.text ?? '', isError: response.result?.isError === true };
}

const server = (name: string) => ctx.harness!.bridge.state().servers.find((s) => s.name === name)!;

describe('a server that lists the same tool name more than once', () => {
  it('serves the name once over stdio, pages to the end, says so once, and the bridge keeps answering', async () => {
    // Three copies of a 5 KB tool: before, the cursor named the copy again and paging never ended
    // (RSS 330 MB to 1.24 GB in 20 s, SIGTERM ignored).
    // With 100 more tools, so that xiaozhi pages through several pages with nextCursor.
    const session = await connectXiaozhi([fixtureServer('fx', { FIXTURE_DUPLICATES: '3', FIXTURE_EXTRA_TOOLS: '100' })]);
    const { names, pages } = await listEveryPage(session, 100);
    expect(pages.length).toBeGreaterThan(2);
    expect(names).toHaveLength(113);
    expect(names.filter((n) => n === 'twin')).toEqual(['twin']);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toContain('echo');
    expect(await call(session, 200, 'twin', { text: 'x' })).toEqual({ text: 'twin: {"text":"x"}', isError: false });
    expect(await call(session, 201, 'echo', { text: 'still here' })).toEqual({ text: 'fx: still here', isError: false });
    expect(server('fx')).toMatchObject({
      state: 'running',
      toolCount: 113,
      skippedToolCount: 1,
      skippedTools: [{ name: 'twin', position: 114, reason: 'duplicate', times: 3 }],
    });
    // The tool list changes (and is read again): the same duplicates are not warned about again.
    const mark = session.mark();
    await call(session, 202, 'add_tool', { name: 'added_later' });
    await session.waitForNotification('notifications/tools/list_changed', mark);
    await waitFor(() => ctx.harness!.bridge.toolHub.has('added_later'), 10_000, 'the new tool');
    const warnings = logText(ctx.harness!.logBook)
      .split('\n')
      .filter((line) => line.includes('listed 3 times'));
    expect(warnings).toEqual([
      '[server:fx] some tools it listed are left out (113 tools served): tool "twin": listed 3 times (only the first is served)',
    ]);
    expect(server('fx').skippedTools).toHaveLength(1);
    // fx's 113 and the one added, besides the bridge's own two.
    expect(ctx.harness!.bridge.state().catalog.toolCount).toBe(114 + BRIDGE_OWN.length);
  });

  it('serves the name once from a streamable-HTTP server that lists it 21 times', async () => {
    const twin = (i: number) => ({
      name: 'dup',
      description: `Copy ${i}. ${'Very long text. '.repeat(300)}`,
      inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
    });
    remote = await startStreamableHttpFixture(0, [
      { name: 'first', description: 'A tool before the copies', inputSchema: { type: 'object' } },
      ...Array.from({ length: 21 }, (_, i) => twin(i)),
    ]);
    const session = await connectXiaozhi([{ name: 'web', transport: 'streamable-http', url: remote.url }]);
    const { names } = await listEveryPage(session, 100);
    expect(names).toEqual(['dup', 'first']);
    expect(await call(session, 200, 'dup', { text: 'over http' })).toEqual({ text: 'http: over http', isError: false });
    expect(server('web')).toMatchObject({
      state: 'running',
      toolCount: 2,
      skippedTools: [{ name: 'dup', reason: 'duplicate', times: 21 }],
    });
  });
});

describe('a server with one bad tool among good ones', () => {
  it('serves the good tools and leaves out each bad one with what is wrong with it', async () => {
    // Before: the SDK validated the list as one, the server restarted in a loop with the error "[" and served nothing.
    const session = await connectXiaozhi([fixtureServer('fx', { FIXTURE_BAD_TOOLS: '1' })]);
    expect(server('fx').state).toBe('running');
    expect(server('fx').restarts).toBe(0);
    const { names } = await listEveryPage(session, 100);
    expect(names).toContain('after_bad');
    expect(names).toContain('echo');
    expect(names).toHaveLength(13);
    expect(await call(session, 200, 'after_bad', { n: 1 })).toEqual({ text: 'after_bad: {"n":1}', isError: false });
    expect(server('fx').skippedTools).toEqual([
      { name: 'no_type', position: 13, reason: 'notObject' },
      { position: 14, reason: 'noName' },
      { position: 15, reason: 'badName' },
      { name: 'string_schema', position: 16, reason: 'badSchema' },
      { name: 'required_not_list', position: 17, reason: 'invalid', path: 'inputSchema.required' },
    ]);
    const log = logText(ctx.harness!.logBook);
    expect(log).toContain('tool "no_type": its inputSchema does not say "type": "object", which MCP requires');
    expect(log).toContain('tool #14: it has no name');
  });
});

describe('schemas built of $ref', () => {
  it('serves self-contained schemas, and checks arguments no stricter than the server', async () => {
    const session = await connectXiaozhi([fixtureServer('fx', { FIXTURE_REF_TOOLS: '1' })]);
    const { tools, pages } = await listEveryPage(session, 100);
    for (const page of pages) expect(JSON.stringify(page.result)).not.toContain('$ref');
    const schemaOf = (name: string) =>
      tools.find((t) => t.name === name)?.inputSchema as { properties: Record<string, Record<string, unknown>> };
    expect(schemaOf('order_pizza').properties.size).toEqual({ type: 'string', enum: ['small', 'large'], title: 'Size' });
    expect(schemaOf('order_pizza').properties.address).toMatchObject({
      type: 'object',
      description: 'Where to deliver',
      properties: { city: { type: 'string', description: 'City name' } },
    });
    expect(JSON.stringify(schemaOf('order_pizza'))).not.toContain('Never referenced');
    expect(schemaOf('legacy_definitions').properties.when).toEqual({ type: 'string', enum: ['now', 'later'] });
    expect(schemaOf('make_tree').properties.root).toMatchObject({
      type: 'object',
      properties: { children: { items: { type: 'object', description: 'Node: the same structure again, nested' } } },
    });
    expect(schemaOf('missing_ref').properties.thing).toEqual({ description: 'A thing' });

    // Required fields with defaults, left out: the server gets exactly what was sent.
    expect(await call(session, 200, 'take_screenshot', { file: 'a.png' })).toEqual({
      text: 'take_screenshot: {"file":"a.png"}',
      isError: false,
    });
    // A value its $ref'd definition refuses is still refused, in words that say what it takes.
    const wrong = await call(session, 201, 'order_pizza', { size: 'huge', address: { street: 'Main' } });
    expect(wrong.isError).toBe(true);
    expect(wrong.text).toContain('"size" must be one of "small", "large", not "huge"');
    expect(wrong.text).toContain('It takes: size (one of "small", "large", required), address (object, required), note (string).');
    expect(await call(session, 202, 'order_pizza', { size: 'large', address: { street: 'Main', city: 'Hangzhou' } })).toEqual({
      text: 'order_pizza: {"size":"large","address":{"street":"Main","city":"Hangzhou"}}',
      isError: false,
    });
  });
});

describe('a tool whose schema is a $ref bomb (a small schema whose references repeat a long definition)', () => {
  it('is left out and said, and every other tool, of its server and the others, is served', async () => {
    // Before: every rebuild blocked the bridge ~40 s and threw "RangeError: Invalid string length"; xiaozhi got no tools at all.
    const bomb = { name: 'bomb', description: 'a $ref bomb', inputSchema: refBomb(1_000_000) };
    const session = await connectXiaozhi([hostileServerWith('hostile', [bomb]), fixtureServer('innocent')]);
    const { names } = await listEveryPage(session, 100);
    expect(names).toContain('innocent_echo');
    expect(names).toContain('hostile_echo');
    expect(names).not.toContain('bomb');
    expect(await call(session, 200, 'innocent_echo', { text: 'still here' })).toEqual({ text: 'innocent: still here', isError: false });
    expect(server('hostile').skippedTools).toEqual([{ name: 'bomb', position: 4, reason: 'schemaTooLarge' }]);
    const log = logText(ctx.harness!.logBook);
    expect(log).toContain('tool "bomb": its argument schema');
    expect(log).not.toContain('RangeError');
  }, 60_000);
});
