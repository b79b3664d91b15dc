import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { fastSupervision, fixtureServer, type Harness, makeBridge } from '../../helpers/bridge-harness';
import { isRunning } from '../../helpers/processes';
import { waitFor } from '../../helpers/wait';

let harness: Harness | undefined;
let dir = '';

afterEach(async () => {
  await harness?.bridge.stop();
  harness = undefined;
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

/**
 * Two servers; one has a grandchild, so it outlives its closed stdin, and ignores SIGTERM (noting it in
 * a file): a clean stop must wait, then kill it. A long grace makes that wait long.
 */
async function runningBridge(): Promise<number[]> {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'xt-kill-now-'));
  const pidFile = path.join(dir, 'pids');
  const stubborn = { FIXTURE_GRANDCHILD: '1', FIXTURE_PID_FILE: pidFile, FIXTURE_TERM_FILE: path.join(dir, 'sigterm') };
  harness = makeBridge(
    { servers: [fixtureServer('a', stubborn), fixtureServer('b', { FIXTURE_PID_FILE: pidFile })] },
    { ...fastSupervision, stopGraceMs: 20_000 },
  );
  harness.bridge.start();
  await harness.bridge.whenServersSettled();
  await waitFor(() => fs.existsSync(pidFile) && fs.readFileSync(pidFile, 'utf8').trim().split('\n').length === 3, 5000, 'three pids');
  return fs.readFileSync(pidFile, 'utf8').trim().split('\n').map(Number);
}

describe('Bridge.killAllNow: every process tree, at once', () => {
  it('kills running servers and their grandchildren', async () => {
    const pids = await runningBridge();
    harness?.bridge.killAllNow();
    await waitFor(() => pids.every((pid) => !isRunning(pid)), 5000, 'every server process to die');
  });

  it('reaches the trees a clean stop is still waiting for', async () => {
    const pids = await runningBridge();
    const bridge = harness?.bridge;
    let stopped = false;
    const stopping = bridge?.stop().then(() => (stopped = true));
    // The stop has taken the servers' pids out of their status: it is tearing them down.
    await waitFor(() => bridge?.state().servers.every((s) => s.pid === undefined) === true, 5000, 'the stop to begin');
    bridge?.killAllNow();
    await waitFor(() => pids.every((pid) => !isRunning(pid)), 5000, 'every server process to die');
    expect(stopped).toBe(false);
    // Killed before the stop's own schedule got as far as a SIGTERM.
    expect(fs.existsSync(path.join(dir, 'sigterm'))).toBe(false);
    await stopping;
  });
});
