import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import type { BackgroundTask } from '../../../../src/shared/status';
import { makeBridge, patientConnection, withEndpointTeardown } from '../../../helpers/bridge-harness';
import { Esp32StandIn } from '../../../helpers/esp32-stand-in';
import { FakeXiaozhi } from '../../../helpers/fake-xiaozhi';
import { scaled } from '../../../helpers/time-scale';
import { waitFor } from '../../../helpers/wait';

// A call that goes on in the background is bounded by limits.backgroundTimeoutMs, not by the call timeout.

const LONG_CALL_SERVER = path.resolve(__dirname, '../../../fixtures/long-call-server.mjs');
const ctx = withEndpointTeardown(afterEach);
const log = path.join(os.tmpdir(), `xt-background-bound-${process.pid}.log`);
afterEach(() => fs.rmSync(log, { force: true }));

/** The caller waits 2 s (answered at 1.6 s); a plain call may take 1 s; one in the background `backgroundMs`. */
async function setup(backgroundMs: number) {
  ctx.xiaozhi = await FakeXiaozhi.start();
  ctx.harness = makeBridge({
    connection: patientConnection,
    limits: { callTimeoutMs: 1000, backgroundTimeoutMs: backgroundMs },
    endpoints: [{ id: 'e1', name: 'home', url: ctx.xiaozhi.url(), patience: 2 }],
    servers: [{ name: 'lc', transport: 'stdio', command: process.execPath, args: [LONG_CALL_SERVER], env: { LONG_CALL_LOG: log } }],
  });
  const tasks: BackgroundTask[] = [];
  ctx.harness.bridge.api.on('task', (task) => tasks.push(task));
  ctx.harness.bridge.start();
  await ctx.harness.bridge.whenServersSettled();
  const broker = new Esp32StandIn(await ctx.xiaozhi.connection(0), 2000);
  await broker.open();
  return { broker, tasks, api: ctx.harness.bridge.api };
}

const idIn = (text: string) => /\(task ([2-9][A-Z])\)/.exec(text)?.[1] as string;

describe('the bound of a background call', () => {
  it('a call past the call timeout but within the background bound finishes (the call timeout would have stopped it at 1 s)', async () => {
    const { broker, tasks } = await setup(scaled(60_000));
    const id = idIn(await broker.call('slow_report', { ms: 3000 }));
    expect(id).toBeDefined();
    await waitFor(() => tasks.some((t) => t.id === id && t.state !== 'running'), 15_000, 'the task to end');
    expect(await broker.call('task_status', { task: id })).toBe(`Task ${id} (slow report) is done: The report is ready: 4 sections.`);
  }, 60_000);

  it('a call past the background bound is cancelled (the server is told) and its task says it took too long', async () => {
    const { broker, tasks, api } = await setup(3000);
    const id = idIn(await broker.call('slow_report', { ms: 60_000, steps: 600 }));
    await waitFor(() => tasks.some((t) => t.id === id && t.state !== 'running'), 20_000, 'the task to end');
    expect(await broker.call('task_status', { task: id })).toBe(
      `Task ${id} (slow report) failed: The tool "slow_report" took too long. It was stopped after 3 seconds.`,
    );
    await waitFor(() => fs.existsSync(log) && fs.readFileSync(log, 'utf8').includes('slow_report cancelled'), 15_000, 'the server told');
    expect((await api.getHistory()).find((r) => r.tool === 'slow_report')).toMatchObject({ task: id, outcome: 'timeout' });
  }, 60_000);
});
