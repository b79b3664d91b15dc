import { afterEach, describe, expect, it } from 'vitest';

import type { SettingsInput } from '../../../../src/shared/settings';
import type { Harness } from '../../../helpers/bridge-harness';
import { fixtureServer, makeBridge, tearDown } from '../../../helpers/bridge-harness';
import type { FakeXiaozhi } from '../../../helpers/fake-xiaozhi';
import { FakeXiaozhi as Xiaozhi } from '../../../helpers/fake-xiaozhi';
import { scaled } from '../../../helpers/time-scale';

/**
 * The default tool mode: every tool while they fit the budget, search (find_tools, call_tool) by
 * itself once they do not, and every tool again when they fit again; no warning on the way.
 */
let xiaozhi: FakeXiaozhi | undefined;

/** A bridge with the app's own default (the harness serves every tool unless asked), serving one endpoint, its session initialized. */
async function startServing(input: SettingsInput, endpoint: { toolMode?: 'all' } = {}) {
  const fake = await Xiaozhi.start();
  const started = makeBridge({ ...input, endpoints: [{ id: 'e1', name: 'home', url: fake.url(), ...endpoint }] }, undefined, {
    defaultToolMode: 'auto',
  });
  started.bridge.start();
  await started.bridge.whenServersSettled();
  const session = await fake.connection(0);
  await session.initialize();
  return { xiaozhi: fake, harness: started, session };
}
let harness: Harness | undefined;

afterEach(async () => {
  await tearDown(harness, xiaozhi);
  harness = undefined;
  xiaozhi = undefined;
});

describe('auto tool mode (the default)', () => {
  it('serves every tool while they fit, switches to search past the budget and back, with list_changed each time', async () => {
    const started = await startServing({ servers: [fixtureServer('small')], limits: { budgetTools: 20 } });
    ({ xiaozhi, harness } = started);
    const { session } = started;
    const first = await session.listAllTools();
    expect(first.tools.map((t) => t.name)).toContain('echo');
    expect(first.tools.map((t) => t.name)).not.toContain('find_tools');
    expect((await harness.bridge.api.getState()).endpoints[0]?.served).toMatchObject({ mode: 'all', chosen: 'auto' });

    const mark = session.mark();
    await harness.bridge.api.addServer(fixtureServer('many', { FIXTURE_EXTRA_TOOLS: '30' }));
    await harness.bridge.whenServersSettled();
    await session.waitForNotification('notifications/tools/list_changed', mark, scaled(20_000));
    const routed = (await session.listAllTools(2000)).tools.map((t) => t.name);
    expect(routed).toEqual(expect.arrayContaining(['find_tools', 'call_tool']));
    expect(routed).not.toContain('extra_0');
    const state = await harness.bridge.api.getState();
    expect(state.endpoints[0]?.served).toMatchObject({ mode: 'router', chosen: 'auto' });
    // Switching by itself is the plan, not a fault: nothing is warned of.
    expect(harness.logBook.entries().filter((e) => e.level === 'warn' && /budget/.test(e.message))).toEqual([]);

    const back = session.mark();
    await harness.bridge.api.removeServer({ name: 'many' });
    await session.waitForNotification('notifications/tools/list_changed', back, scaled(20_000));
    expect((await session.listAllTools(3000)).tools.map((t) => t.name)).not.toContain('find_tools');
  });

  it('a session served search keeps find_tools and call_tool working after the catalogue fits again (a server down)', async () => {
    // Found by walkthrough 5 (issue 33): a server failing mid-conversation shrank the catalogue under the budget, the
    // endpoint went back to every tool, and xiaozhi (which lists once per session) got "no tool named call_tool" for
    // every call until a new conversation, the running servers' tools included.
    const started = await startServing({
      servers: [fixtureServer('small'), fixtureServer('many', { FIXTURE_EXTRA_TOOLS: '30' })],
      limits: { budgetTools: 20 },
    });
    ({ xiaozhi, harness } = started);
    const { session } = started;
    expect((await session.listAllTools()).tools.map((t) => t.name)).toEqual(expect.arrayContaining(['find_tools', 'call_tool']));
    const mark = session.mark();
    await harness.bridge.api.removeServer({ name: 'many' });
    await session.waitForNotification('notifications/tools/list_changed', mark, scaled(20_000));
    expect((await harness.bridge.api.getState()).endpoints[0]?.served).toMatchObject({ mode: 'all' });
    // The same session, without listing again, as xiaozhi does.
    const called = await session.request(7001, 'tools/call', { name: 'call_tool', arguments: { name: 'echo', arguments: { text: 'hi' } } });
    expect(called.result?.isError ?? false, JSON.stringify(called)).toBe(false);
    expect(JSON.stringify(called.result?.content)).toContain('hi');
    const found = await session.request(7002, 'tools/call', { name: 'find_tools', arguments: { query: 'echo' } });
    expect(found.result?.isError ?? false, JSON.stringify(found)).toBe(false);
    expect(JSON.stringify(found.result?.content)).toContain('echo');
  });

  it('an endpoint set to all keeps every tool past the budget', async () => {
    const started = await startServing(
      { servers: [fixtureServer('many', { FIXTURE_EXTRA_TOOLS: '30' })], limits: { budgetTools: 20 } },
      { toolMode: 'all' },
    );
    ({ xiaozhi, harness } = started);
    const names = (await started.session.listAllTools()).tools.map((t) => t.name);
    expect(names.length).toBeGreaterThan(30);
    expect(names).not.toContain('find_tools');
    expect((await harness.bridge.api.getState()).endpoints[0]?.served).toMatchObject({ mode: 'all', chosen: 'all' });
  });
});
