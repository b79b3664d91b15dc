import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import type { BackgroundTask } from '../../../../src/shared/status';
import { type Harness, logText, makeBridge, tearDown, testConnection } from '../../../helpers/bridge-harness';
import { Esp32StandIn, GAVE_UP } from '../../../helpers/esp32-stand-in';
import { RelayStandIn } from '../../../helpers/relay-stand-in';
import { scaled } from '../../../helpers/time-scale';
import { waitFor } from '../../../helpers/wait';

/**
 * A call outlives the connection it came on: the run, scaled down. A 40 s call with the
 * relay restarted 8 s in was cancelled ("cancelled in 8262 ms") and forgotten; the next session's
 * task_status never knew it. Here: a 4 s call, the relay (relay-stand-in.ts) restarted 0.8 s in.
 */
const LONG_CALL_SERVER = path.resolve(__dirname, '../../../fixtures/long-call-server.mjs');

let harness: Harness | undefined;
let relay: RelayStandIn | undefined;
const files: string[] = [];
afterEach(async () => {
  await tearDown(harness);
  await relay?.close();
  harness = relay = undefined;
  for (const file of files.splice(0)) fs.rmSync(file, { force: true });
});

describe('a call in flight when the endpoint link drops', () => {
  it('goes on as a background task of that endpoint; the next session’s task_status knows it; the history says so', async () => {
    relay = await RelayStandIn.start();
    const log = path.join(os.tmpdir(), `xt-outlives-${process.pid}.log`);
    files.push(log);
    harness = makeBridge({
      connection: { ...testConnection, relayCheckMs: 0 },
      // xiaozhi-esp32-server's own patience: 30 s (the call is answered "still working" at 24 s).
      endpoints: [{ id: 'e1', name: 'home', url: relay.toolUrl(), patience: 'self-hosted' }],
      servers: [{ name: 'lc', transport: 'stdio', command: process.execPath, args: [LONG_CALL_SERVER], env: { LONG_CALL_LOG: log } }],
    });
    const tasks: BackgroundTask[] = [];
    harness.bridge.api.on('task', (task) => tasks.push(task));
    harness.bridge.start();
    await harness.bridge.whenServersSettled();
    await relay.whenRegistered(true);

    const device = new Esp32StandIn(await relay.device(), scaled(3000));
    await device.open();
    const heard = device.call('slow_report', { ms: 4000, steps: 4 });
    // Once the server is at it, well before its 4 s are up.
    await waitFor(() => fs.existsSync(log) && fs.readFileSync(log, 'utf8').includes('slow_report started'), 10_000, 'the call to start');
    // The relay process restarts: every connection is dropped.
    await relay.restart();
    // That device's model hears the timeout, as xiaozhi-esp32-server's client says it.
    expect(await heard).toBe(GAVE_UP);

    // The call went on: a task of this endpoint.
    const found = () => tasks.find((t) => t.tool === 'slow_report' && t.id !== undefined);
    await waitFor(() => found() !== undefined, 5000, 'a task for the call');
    const task = found() as BackgroundTask;
    expect(task).toMatchObject({ caller: 'home', state: 'running' });
    expect(logText(harness.logBook)).toMatch(new RegExp(`the connection closed while slow_report ran; it goes on as task ${task.id}`));

    // The link is back; the next device session asks.
    await relay.whenRegistered(true, undefined, 10_000);
    const next = new Esp32StandIn(await relay.device(), scaled(5000));
    await next.open();
    expect(await next.call('task_status')).toMatch(new RegExp(`${task.id}.*slow report`));
    await waitFor(() => tasks.some((t) => t.id === task.id && t.state === 'done'), 15_000, 'the task to finish');
    expect(await next.call('task_status', { task: task.id })).toBe(
      `Task ${task.id} (slow report) is done: The report is ready: 4 sections.`,
    );
    expect(fs.readFileSync(log, 'utf8')).toContain('slow_report finished');
    expect(fs.readFileSync(log, 'utf8')).not.toContain('slow_report cancelled');
    // The history says what happened: done, as that task, after its connection closed.
    const record = (await harness.bridge.api.getHistory()).find((r) => r.tool === 'slow_report');
    expect(record).toMatchObject({ outcome: 'ok', task: task.id, disconnected: true, result: 'The report is ready: 4 sections.' });
  });
});
