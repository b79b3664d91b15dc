import { afterEach, describe, expect, it } from 'vitest';

import { fixtureServer, type Harness, makeBridge, tearDown } from '../../../helpers/bridge-harness';
import { type FakeSession, FakeXiaozhi } from '../../../helpers/fake-xiaozhi';
import { waitFor } from '../../../helpers/wait';

let xiaozhi: FakeXiaozhi | undefined;
let harness: Harness | undefined;

afterEach(async () => {
  await tearDown(harness, xiaozhi);
  harness = xiaozhi = undefined;
});

/** Two xiaozhi agents on two sets over the same two servers (whose tools have the same names). */
async function twoAgents(): Promise<{ kitchen: FakeSession; study: FakeSession; harness: Harness }> {
  xiaozhi = await FakeXiaozhi.start();
  harness = makeBridge({
    endpoints: [
      { id: 'k', name: 'kitchen-speaker', url: xiaozhi.url('kitchen-token-0123456789'), toolSet: 'kitchen' },
      { id: 's', name: 'study-desk', url: xiaozhi.url('study-token-0123456789'), toolSet: 'study' },
    ],
    servers: [fixtureServer('weather'), fixtureServer('notes')],
    toolSets: [
      {
        name: 'kitchen',
        servers: ['weather'],
        tools: { weather: { big: { enabled: false }, echo: { enabled: true, description: '厨房回声' } } },
      },
      { name: 'study', servers: ['notes'] },
    ],
  });
  harness.bridge.start();
  await harness.bridge.whenServersSettled();
  await xiaozhi.connection(1);
  // Which connection is which: ask each for its tools and look at the descriptions.
  const sessions = xiaozhi.sessions.slice(0, 2);
  for (const session of sessions) await session.initialize();
  const first = await (sessions[0] as FakeSession).listAllTools(100);
  const kitchenFirst = first.tools.some((t) => t.description === '厨房回声');
  return { kitchen: sessions[kitchenFirst ? 0 : 1] as FakeSession, study: sessions[kitchenFirst ? 1 : 0] as FakeSession, harness };
}

describe('tool sets: two endpoints, two sets, the same servers', () => {
  it('each endpoint lists only its own set, named within that set', async () => {
    const { kitchen, study, harness } = await twoAgents();
    const kitchenList = (await kitchen.listAllTools(200)).tools;
    const studyList = (await study.listAllTools(300)).tools;
    const kitchenTools = kitchenList.map((t) => t.name);
    const studyTools = studyList.map((t) => t.name);
    // Within one set nothing clashes, so no server prefixes; switched-off tools are not served.
    expect(kitchenTools).toEqual(studyTools.filter((name) => name !== 'big'));
    expect(kitchenTools).toContain('echo');
    expect(studyTools).toContain('big');
    expect(kitchenList.find((t) => t.name === 'echo')?.description).toBe('厨房回声');
    expect(studyList.find((t) => t.name === 'echo')?.description).toBe('Echoes its text (notes)');
    expect(studyList.some((t) => t.description?.includes('(weather)'))).toBe(false);
    // The default set has both servers, so there the same tools need prefixes.
    const all = harness.bridge.toolHub.catalog().map((t) => t.name);
    expect(all).toEqual(expect.arrayContaining(['weather_echo', 'notes_echo']));
    const summaries = harness.bridge.state().toolSets ?? [];
    expect(summaries.map((s) => s.id)).toEqual(['all', 'kitchen', 'study']);
    expect(summaries[1]?.toolCount).toBe(kitchenTools.length);
    expect(harness.bridge.state().endpoints.map((e) => [e.name, e.toolSet])).toEqual([
      ['kitchen-speaker', 'kitchen'],
      ['study-desk', 'study'],
    ]);
  });

  it("routes the same name to each set's own server, and refuses a tool outside the set like an unknown tool", async () => {
    const { kitchen, study, harness } = await twoAgents();
    const inKitchen = await kitchen.request(1, 'tools/call', { name: 'echo', arguments: { text: '你好' } });
    expect(inKitchen.result?.content?.[0]?.text).toBe('weather: 你好');
    const inStudy = await study.request(1, 'tools/call', { name: 'echo', arguments: { text: '你好' } });
    expect(inStudy.result?.content?.[0]?.text).toBe('notes: 你好');

    const outside = await kitchen.request(2, 'tools/call', { name: 'notes_echo', arguments: { text: 'x' } });
    expect(outside.result?.isError).toBe(true);
    expect(outside.result?.content?.[0]?.text).toMatch(/^There is no tool called "notes_echo"/);
    const off = await kitchen.request(3, 'tools/call', { name: 'big', arguments: {} });
    expect(off.result?.content?.[0]?.text).toMatch(/switched off/);

    // History and counts say who called.
    const history = await harness.bridge.api.getHistory();
    expect(history.map((h) => [h.caller, h.tool, h.server])).toEqual([
      ['kitchen-speaker', 'echo', 'weather'],
      ['study-desk', 'echo', 'notes'],
      ['kitchen-speaker', 'notes_echo', ''],
      ['kitchen-speaker', 'big', 'weather'],
    ]);
    expect(await harness.bridge.api.getCallerCounts()).toEqual({
      'kitchen-speaker': { ok: 1, failed: 2, errorText: 0 },
      'study-desk': { ok: 1, failed: 0, errorText: 0 },
    });
  });

  it('announces list_changed only to the endpoints whose set changed', async () => {
    const { kitchen, study, harness } = await twoAgents();
    await kitchen.listAllTools(400);
    await study.listAllTools(500);
    const kitchenMark = kitchen.mark();
    const studyMark = study.mark();
    await harness.bridge.api.setToolEnabled({ toolSet: 'study', server: 'notes', tool: 'big', enabled: false });
    await study.waitForNotification('notifications/tools/list_changed', studyMark);
    // Frames on one socket arrive in order: once this ping is answered, nothing else is on its way.
    await kitchen.request('after', 'ping');
    expect(kitchen.received.slice(kitchenMark).some((m) => m.method === 'notifications/tools/list_changed')).toBe(false);
    expect((await study.listAllTools(600)).tools.map((t) => t.name)).not.toContain('big');
    // The default set did not change either.
    expect(harness.bridge.toolHub.catalog().find((t) => t.name === 'notes_big')?.enabled).toBe(true);
  });

  it('moves an endpoint to another set, and back to the default when its set is removed', async () => {
    const { harness } = await twoAgents();
    const before = xiaozhi!.sessions.length;
    await harness.bridge.api.updateEndpoint({ id: 'k', toolSet: 'study' });
    // A new session: xiaozhi may read the list only when a session starts.
    const moved = await xiaozhi!.connection(before);
    await moved.initialize();
    const names = (await moved.listAllTools(700)).tools.map((t) => t.name);
    expect(names).toContain('big');
    expect((await moved.request(9, 'tools/call', { name: 'echo', arguments: { text: 'a' } })).result?.content?.[0]?.text).toBe('notes: a');

    await harness.bridge.api.removeToolSet({ id: 'study' });
    const settings = await harness.bridge.api.getSettings();
    expect(settings.toolSets.map((s) => s.id)).toEqual(['all', 'kitchen']);
    expect(settings.endpoints.map((e) => e.toolSet)).toEqual([undefined, undefined]);
    await waitFor(() => xiaozhi!.sessions.length >= before + 3, 10_000, 'both endpoints to reconnect');
    const back = xiaozhi!.sessions.at(-1) as FakeSession;
    await back.initialize();
    await waitFor(
      async () => (await back.listAllTools(800 + Math.floor(Math.random() * 1e5))).tools.some((t) => t.name === 'weather_echo'),
      10_000,
      'the default set',
    );
  });

  it("refuses a set id that names no set in words, not as a dump of the validator's issues", async () => {
    const { harness } = await twoAgents();
    await expect(harness.bridge.api.updateEndpoint({ id: 'k', toolSet: 'nope' })).rejects.toThrow(
      /^Invalid settings at endpoints\.0\.toolSet: no tool set has the id "nope"$/,
    );
    await expect(harness.bridge.api.updateLocalServer({ clients: { cursor: 'nope' } })).rejects.toThrow(
      /^Invalid settings at localServer\.clients\.cursor\.toolSet: no tool set has the id "nope"$/,
    );
    expect((await harness.bridge.api.getSettings()).endpoints[0]?.toolSet).toBe('kitchen');
  });

  it('refuses to rename the default set, which the window names in each language', async () => {
    const { harness } = await twoAgents();
    const name = (await harness.bridge.api.getSettings()).toolSets.find((s) => s.id === 'all')?.name;
    await expect(harness.bridge.api.updateToolSet({ id: 'all', name: 'mine' })).rejects.toThrow(/default tool set cannot be renamed/);
    expect((await harness.bridge.api.getSettings()).toolSets.find((s) => s.id === 'all')?.name).toBe(name);
    await harness.bridge.api.updateToolSet({ id: 'kitchen', name: '厨房' });
    expect((await harness.bridge.api.getSettings()).toolSets.find((s) => s.id === 'kitchen')?.name).toBe('厨房');
  });

  it('keeps one running copy of each server, whatever the number of sets', async () => {
    const { harness } = await twoAgents();
    const pids = harness.bridge.state().servers.map((s) => s.pid);
    await harness.bridge.api.addToolSet({ name: 'third', servers: 'all' });
    await harness.bridge.api.addToolSet({ name: 'fourth', copyFrom: 'kitchen' });
    expect(harness.bridge.state().servers.map((s) => s.pid)).toEqual(pids);
    expect(harness.bridge.state().servers).toHaveLength(2);
    const fourth = await harness.bridge.api.getToolSetCatalog({ id: 'fourth' });
    expect(fourth.find((t) => t.name === 'big')?.enabled).toBe(false);
    expect(fourth.find((t) => t.name === 'echo')?.description).toBe('厨房回声');
  });
});
