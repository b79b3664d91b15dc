import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { isAlive } from '../../../src/main/core/servers/process-tree';
import { fixtureServer, makeBridge, withEndpointTeardown } from '../../helpers/bridge-harness';
import { FakeXiaozhi } from '../../helpers/fake-xiaozhi';
import { waitFor } from '../../helpers/wait';

const ctx = withEndpointTeardown(afterEach);

describe('edits that arrive at once (a double click on Save)', () => {
  it('two updates of one server leave exactly one running, and nothing after stop', async () => {
    // Every process the fixture starts writes its pid here: also those nobody knows of any more.
    const pidFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'xt-race-')), 'pids');
    ctx.harness = makeBridge({ servers: [fixtureServer('fx', { FIXTURE_PID_FILE: pidFile })] });
    const { bridge } = ctx.harness;
    bridge.start();
    await bridge.whenServersSettled();
    const server = (await bridge.api.getSettings()).servers[0]!;
    await Promise.all([
      bridge.api.updateServer({ name: 'fx', server: { ...server, callTimeoutMs: 5000 } }),
      bridge.api.updateServer({ name: 'fx', server: { ...server, callTimeoutMs: 6000 } }),
      bridge.api.restartServer({ name: 'fx' }),
    ]);
    await waitFor(() => bridge.state().servers[0]?.state === 'running', 10_000, 'the server to run');
    expect(bridge.state().servers).toHaveLength(1);
    expect(ctx.harness.store.load().servers[0]).toMatchObject({ callTimeoutMs: 6000 });
    await bridge.stop();
    const pids = fs.readFileSync(pidFile, 'utf8').trim().split('\n').map(Number);
    expect(pids.length).toBeGreaterThan(1);
    await waitFor(() => pids.every((pid) => !isAlive(pid)), 5000, 'every server process to be gone').catch(() => undefined);
    for (const pid of pids) expect(isAlive(pid), `pid ${pid}`).toBe(false);
  });

  it('two updates of one endpoint both answer', async () => {
    ctx.xiaozhi = await FakeXiaozhi.start();
    ctx.harness = makeBridge({ endpoints: [{ id: 'e', name: 'home', url: ctx.xiaozhi.url() }] });
    ctx.harness.bridge.start();
    await ctx.xiaozhi.connection(0);
    await Promise.all([
      ctx.harness.bridge.api.updateEndpoint({ id: 'e', name: 'one' }),
      ctx.harness.bridge.api.updateEndpoint({ id: 'e', name: 'two' }),
      ctx.harness.bridge.stop(),
    ]);
    expect(ctx.harness.store.load().endpoints[0]?.name).toBe('two');
  });
});
