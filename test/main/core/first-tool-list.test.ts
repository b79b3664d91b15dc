import { afterEach, describe, expect, it } from 'vitest';

import { fixtureServer, startServingHome, withEndpointTeardown } from '../../helpers/bridge-harness';
import { FakeXiaozhi } from '../../helpers/fake-xiaozhi';
import { scaled } from '../../helpers/time-scale';
import { waitFor } from '../../helpers/wait';

const ctx = withEndpointTeardown(afterEach);

/** What xiaozhi-esp32-server does: initialize, initialized and one tools/list, back to back; it never re-lists. */
async function listOnce(session: Awaited<ReturnType<FakeXiaozhi['connection']>>) {
  session.sendSelfHostedHandshake();
  const list = await session.request(2, 'tools/list', {}, 20_000);
  return (list.result?.tools ?? []).map((t) => t.name);
}

describe('the first tools/list of a session', () => {
  it('waits for servers that are still starting, so a broker that lists once gets every tool', async () => {
    const { bridge, xiaozhi } = await startServingHome(ctx, {
      servers: [
        fixtureServer('slow1', { FIXTURE_START_DELAY_MS: '1500' }, { name: 'slow1' }),
        fixtureServer('slow2', { FIXTURE_START_DELAY_MS: '1500', FIXTURE_EXTRA_TOOLS: '2' }, { name: 'slow2' }),
      ],
    });
    // The endpoint connects at once, long before the servers are ready.
    const session = await xiaozhi.connection(0);
    expect(bridge.state().servers.every((s) => s.state === 'starting')).toBe(true);
    const names = await listOnce(session);
    expect(names).toContain('slow1_echo');
    expect(names).toContain('slow2_echo');
    expect(names).toContain('extra_0001');
  });

  it('does not wait past the start grace for a server that hangs, nor at all for one that fails', async () => {
    const { bridge, xiaozhi } = await startServingHome(ctx, {
      servers: [
        fixtureServer('ok', { FIXTURE_START_DELAY_MS: '200' }),
        fixtureServer('stuck', { FIXTURE_HANG: '1' }),
        fixtureServer('broken', { FIXTURE_EXIT_ON_START: '1' }),
      ],
      limits: { startGraceMs: scaled(4000) },
    });
    const session = await xiaozhi.connection(0);
    const started = Date.now();
    const names = await listOnce(session);
    const waited = Date.now() - started;
    expect(names).toContain('echo');
    expect(bridge.state().servers.find((s) => s.name === 'stuck')?.state).toBe('starting');
    // Bounded by the grace (generous upper slack for a loaded machine; the point is "not the start timeout", 15 s).
    expect(waited).toBeLessThan(scaled(8000));
  });

  it('announces no list_changed while that list waits: its answer already shows what changed meanwhile', async () => {
    const { bridge, xiaozhi } = await startServingHome(ctx, {
      servers: [fixtureServer('fast', {}, { name: 'fast' }), fixtureServer('slow', { FIXTURE_START_DELAY_MS: '2500' }, { name: 'slow' })],
    });
    const session = await xiaozhi.connection(0);
    await session.initialize();
    const mark = session.mark();
    // The fast server comes up (a catalog change) while this list waits for the slow one.
    const { tools } = await session.listAllTools();
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['fast_echo', 'slow_echo']));
    // A change after the answer is announced; nothing before it was.
    await bridge.api.setToolEnabled({ server: 'fast', tool: 'big', enabled: false });
    await session.waitForNotification('notifications/tools/list_changed', mark);
    const answered = session.received.findIndex((m, i) => i >= mark && m.result?.tools !== undefined);
    expect(session.received.slice(mark, answered).filter((m) => m.method === 'notifications/tools/list_changed')).toEqual([]);
  });

  it('answers at once when nothing is starting', async () => {
    const { bridge, xiaozhi } = await startServingHome(ctx, { servers: [fixtureServer('fx')] });
    await bridge.whenServersSettled();
    const session = await xiaozhi.connection(0);
    expect(await listOnce(session)).toContain('echo');
  });
});

describe('a tools/call while servers start', () => {
  it('waits for the server of that tool instead of answering "unknown tool"', async () => {
    const { xiaozhi } = await startServingHome(ctx, { servers: [fixtureServer('slow', { FIXTURE_START_DELAY_MS: '1000' })] });
    const session = await xiaozhi.connection(0);
    await session.initialize();
    const answer = await session.request(5, 'tools/call', { name: 'echo', arguments: { text: 'early' } }, 20_000);
    expect(answer.result?.content?.[0]?.text).toBe('slow: early');
  });
});

describe('a tools/list while a server restarts after a crash', () => {
  it('waits for the restart attempt under way, so the list is complete', async () => {
    const { bridge, logBook, xiaozhi } = await startServingHome(ctx, { servers: [fixtureServer('fx', { FIXTURE_START_DELAY_MS: '800' })] });
    await bridge.whenServersSettled();
    const session = await xiaozhi.connection(0);
    await session.initialize();
    const before = logBook.entries().filter((e) => e.message.includes('starting slowly')).length;
    await session.request(1, 'tools/call', { name: 'crash', arguments: {} });
    // The restart attempt has begun (the program printed its first line) but is not ready yet.
    await waitFor(
      () => logBook.entries().filter((e) => e.message.includes('starting slowly')).length > before,
      10_000,
      'the restart attempt',
    );
    const list = await session.request(2, 'tools/list', {}, 20_000);
    expect(list.result?.tools?.map((t) => t.name)).toContain('echo');
  });
});

describe('the tool budget, for headless users', () => {
  it('is judged once the servers starting together are up, so the count it gives is the one xiaozhi gets', async () => {
    const { bridge, logBook, xiaozhi } = await startServingHome(ctx, {
      servers: [
        fixtureServer('fast', { FIXTURE_EXTRA_TOOLS: '30' }, { name: 'fast' }),
        fixtureServer('slow', { FIXTURE_START_DELAY_MS: '1500' }, { name: 'slow' }),
      ],
    });
    await bridge.whenServersSettled();
    const warnings = () => logBook.entries().filter((e) => e.message.includes('past the budget'));
    await waitFor(() => warnings().length > 0, 5000, 'the budget warning');
    const session = await xiaozhi.connection(0);
    await session.initialize();
    const { tools } = await session.listAllTools();
    expect(warnings()).toHaveLength(1);
    expect(warnings()[0]?.message).toMatch(new RegExp(`^serves ${tools.length} tools `));
  });

  it('is said once in the log when an endpoint set to every tool is served past it, with the way out', async () => {
    const { bridge, logBook, xiaozhi } = await startServingHome(ctx, { servers: [fixtureServer('fx', { FIXTURE_EXTRA_TOOLS: '30' })] });
    await bridge.whenServersSettled();
    const warnings = () => logBook.entries().filter((e) => e.message.includes('past the budget'));
    await waitFor(() => warnings().length > 0, 5000, 'the budget warning');
    // fx's 42 tools and the bridge's own two (task_status, cancel_task): what xiaozhi is served.
    expect(warnings()[0]?.message).toMatch(/serves 44 tools .* tool mode be auto \(the default\) or router$/);
    const session = await xiaozhi.connection(0);
    await session.initialize();
    // Once a list is answered, the session has been set up: a later change is announced to it.
    await session.request(9, 'tools/list');
    const mark = session.mark();
    await bridge.api.setToolEnabled({ server: 'fx', tool: 'echo', enabled: false });
    // The list_changed goes out from the same debounced turn that judges the budget again.
    await session.waitForNotification('notifications/tools/list_changed', mark);
    expect(warnings()).toHaveLength(1);
  });
});
