import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';

import { endpointFingerprint, RUNNING_DIR, RunningCopies } from '../../../../src/main/core/instances/running-copies';
import { startTimeOf } from '../../../../src/main/core/servers/process-tree';
import { CliHarness, fixtureEntry } from '../../../cli/cli-harness';
import { fixtureServer, type Harness, logText, makeBridge, tearDown, testConnection } from '../../../helpers/bridge-harness';
import { Esp32StandIn, NOT_READY } from '../../../helpers/esp32-stand-in';
import { RelayStandIn } from '../../../helpers/relay-stand-in';
import { scaled } from '../../../helpers/time-scale';
import { waitFor } from '../../../helpers/wait';

/**
 * One endpoint, one owner, against the self-hosted relay as its source behaves (relay-stand-in.ts):
 * a second connection with the same token replaces the first (1000 "新连接替换"), and when a replaced
 * connection closes the relay forgets the agent, leaving the connection that stays open serving nothing.
 */
const RELAY_CHECK_MS = 400;
const connection = { ...testConnection, relayCheckMs: RELAY_CHECK_MS };

let harness: Harness | undefined;
let relay: RelayStandIn | undefined;
const cli = new CliHarness();
const dirs: string[] = [];
const foreign: WebSocket[] = [];
afterEach(async () => {
  for (const socket of foreign.splice(0)) socket.terminate();
  await tearDown(harness);
  harness = undefined;
  await cli.cleanup();
  await relay?.close();
  relay = undefined;
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** What xiaozhi gets now: a device session opened as xiaozhi-esp32-server does, and a call of `echo`. */
async function xiaozhiHears(): Promise<string> {
  const device = await (relay as RelayStandIn).device();
  try {
    const client = new Esp32StandIn(device, scaled(5000));
    await client.open();
    return await client.call('echo', { text: 'hi' });
  } finally {
    device.close();
  }
}

/** Waits until xiaozhi's call of echo is answered by a copy of ours. */
async function servedAgain(timeoutMs: number): Promise<void> {
  let last = '';
  const deadline = Date.now() + scaled(timeoutMs);
  while (Date.now() < deadline) {
    last = await xiaozhiHears();
    if (last === 'fx: hi') return;
    // Between two device sessions (each one the relay logs): a pace, not a wait for an outcome.
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`xiaozhi still hears "${last}"\n${logText(harness!.logBook)}\n${relay!.log.join('\n')}`);
}

describe('another program takes the endpoint', () => {
  it('is said, not fought; the relay that forgot us is noticed, and xiaozhi gets the tools again', async () => {
    relay = await RelayStandIn.start();
    harness = makeBridge({ servers: [fixtureServer('fx')], endpoints: [{ id: 'e', name: 'home', url: relay.toolUrl() }], connection });
    harness.bridge.start();
    await harness.bridge.whenServersSettled();
    await relay.whenRegistered(true);
    expect(await xiaozhiHears()).toBe('fx: hi');

    // Another program connects with our token: the relay closes ours with 1000 新连接替换, and
    // forgets the other as soon as ours is gone (its handler unregisters the agent).
    const other = new WebSocket(relay.toolUrl());
    foreign.push(other);
    await waitFor(
      () => harness!.bridge.state().endpoints[0]?.lastErrorCause?.code === 'endpoint.replaced',
      scaled(10_000),
      'the link to say it was replaced',
    );
    expect(harness.bridge.state().endpoints[0]).toMatchObject({ state: 'waiting', attempts: 0 });
    expect(logText(harness.logBook)).toContain('another program is using this endpoint');
    // Nobody serves xiaozhi now (the relay forgot the other): the link sees the endpoint free and takes it.
    await servedAgain(10_000);
    expect(logText(harness.logBook)).toContain('the other program no longer holds the endpoint: connecting again');

    // The other program stops: its close makes the relay forget us too, without a word to us.
    const made = relay.toolSockets.length;
    other.close();
    await relay.whenRegistered(false);
    expect(await xiaozhiHears()).toBe(NOT_READY);
    // Our next check of the relay notices, and a fresh connection registers again.
    await servedAgain(10_000);
    expect(logText(harness.logBook)).toContain('the self-hosted relay no longer routes xiaozhi to this connection');
    // One new connection did it: no loop.
    expect(relay.toolSockets.length - made).toBe(1);
  });

  it('a second copy of ours with the same state folder is named, the two settle instead of looping, and the one left serves', async () => {
    relay = await RelayStandIn.start();
    const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'xt-copies-'));
    dirs.push(stateDir);
    // This copy: the desktop app (this process); the other: `xiaozhi-tray run` with the same state folder.
    harness = makeBridge(
      { servers: [fixtureServer('fx')], endpoints: [{ id: 'e', name: 'home', url: relay.toolUrl() }], connection },
      undefined,
      { copies: new RunningCopies(stateDir, { kind: 'desktop' }) },
    );
    harness.bridge.start();
    await harness.bridge.whenServersSettled();
    await relay.whenRegistered(true);
    const config = cli.writeConfig({
      endpoints: [{ id: 'x', name: 'copy', url: relay.toolUrl() }],
      servers: [{ name: 'fx', transport: 'stdio', ...fixtureEntry() }],
      connection,
    });
    const second = cli.spawn(['run', '--config', config, '--log-level', 'info'], { env: { XIAOZHI_TRAY_STATE_DIR: stateDir } });
    const pid = second.child.pid as number;
    // Each names the other: the desktop app in the run's log, the run in the app's.
    await waitFor(
      () =>
        logText(harness!.logBook).includes(
          `another copy of Xiaozhi Tray also serves this endpoint (xiaozhi-tray run --config ${config}, pid ${pid})`,
        ),
      scaled(15_000),
      'the app to name the run',
    );
    await waitFor(
      () => second.stdout().includes(`another copy of Xiaozhi Tray also serves this endpoint (the desktop app, pid ${process.pid})`),
      scaled(15_000),
      'the run to name the app',
    );

    // They settle: one holds the endpoint, the other waits and says who holds it; xiaozhi is served.
    await servedAgain(15_000);
    const settled = relay.toolSockets.length;
    // No event marks a loop that does not happen: watch a span of ten relay checks (RELAY_CHECK_MS) for one.
    await new Promise((resolve) => setTimeout(resolve, scaled(4000)));
    expect(
      relay.toolSockets.length - settled,
      `${logText(harness.logBook)}\n----\n${second.stdout()}\n----\n${relay.log.join('\n')}`,
    ).toBeLessThanOrEqual(1);
    await servedAgain(5_000);
    const mine = harness.bridge.state().endpoints[0];
    if (mine?.state !== 'connected')
      expect(mine?.lastErrorCause).toEqual({ code: 'endpoint.replacedByRun', params: expect.objectContaining({ pid, config }) });
    else expect(second.stdout()).toMatch(/another copy of Xiaozhi Tray is using this endpoint: the desktop app \(pid \d+\)/);

    // The run stops: this copy serves (it hears the run leave, and the relay is asked again).
    second.child.kill('SIGTERM');
    await second.exit;
    await servedAgain(10_000);
    await waitFor(() => harness!.bridge.state().endpoints[0]?.state === 'connected', scaled(5000), 'this copy to hold the endpoint');
  });

  it('a copy of ours that outranks this one keeps the endpoint: this one waits instead of taking it back, and takes it when that copy stops', async () => {
    // Seen with the real relay and two `xiaozhi-tray run` on one endpoint: each, once replaced, found
    // the relay free (it forgets the other when the replaced connection closes) and took the endpoint
    // back, the other did the same a few seconds later, and the two swapped every ~17 s for ever.
    relay = await RelayStandIn.start();
    const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'xt-copies-'));
    dirs.push(stateDir);
    // The other copy: a live process of ours, named in the running folder as serving this endpoint.
    const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 120000)'], { stdio: 'ignore' });
    const otherPid = other.pid as number;
    const gone = new Promise((resolve) => other.once('exit', resolve));
    try {
      const started = startTimeOf(otherPid);
      fs.mkdirSync(path.join(stateDir, RUNNING_DIR), { recursive: true, mode: 0o700 });
      fs.chmodSync(stateDir, 0o700);
      // This copy's pid is below any other's, so the other outranks it.
      harness = makeBridge(
        { servers: [fixtureServer('fx')], endpoints: [{ id: 'e', name: 'home', url: relay.toolUrl() }], connection },
        undefined,
        { copies: new RunningCopies(stateDir, { kind: 'desktop' }, 1) },
      );
      harness.bridge.start();
      await harness.bridge.whenServersSettled();
      await relay.whenRegistered(true);
      fs.writeFileSync(
        path.join(stateDir, RUNNING_DIR, `${otherPid}.json`),
        JSON.stringify({
          pid: otherPid,
          ...(started !== undefined ? { started } : {}),
          kind: 'headless',
          config: '/home/pi/other.json',
          endpoints: [endpointFingerprint(relay.toolUrl())],
        }),
        { mode: 0o600 },
      );
      // The other copy connects (a socket with our token stands for it) and then goes quiet: the relay forgets it.
      const taker = new WebSocket(relay.toolUrl());
      foreign.push(taker);
      await waitFor(
        () => harness!.bridge.state().endpoints[0]?.lastErrorCause?.code === 'endpoint.replacedByRun',
        scaled(10_000),
        'the link to name the copy that replaced it',
      );
      taker.close();
      await relay.whenRegistered(false);
      const made = relay.toolSockets.length;
      // Several of its looks later, it has not taken the endpoint back. A fixed span, scaled: these looks
      // ask no one (the copy that outranks it is alive), so there is no event to wait for.
      await new Promise((resolve) => setTimeout(resolve, scaled(3000)));
      expect(relay.toolSockets.length - made, logText(harness.logBook)).toBe(0);
      expect(harness.bridge.state().endpoints[0]?.state).toBe('waiting');

      // The other copy stops: this one hears it leave and serves.
      other.kill('SIGKILL');
      await gone;
      await servedAgain(10_000);
    } finally {
      other.kill('SIGKILL');
    }
  });
});
