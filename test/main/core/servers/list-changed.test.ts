import { afterEach, describe, expect, it } from 'vitest';

import { type Harness, logText, makeBridge } from '../../../helpers/bridge-harness';
import { hostileWith } from '../../../helpers/hostile-server';
import { waitFor } from '../../../helpers/wait';

/**
 * Every notifications/tools/list_changed started a whole new tools/list at once, however many were
 * already under way, and each one that ended logged a line: a server sending 10,000 of them got
 * 10,000 tools/list requests and the log 10,000 lines (the log book keeps 5,000: everything else was
 * pushed out). Refreshes are coalesced: one in flight, one more after it for whatever came meanwhile.
 */
let harness: Harness | undefined;
afterEach(async () => {
  await harness?.bridge.stop();
  harness = undefined;
});

/** Resolves once `read()` has not changed for `quietMs` (checked as waitFor checks, not slept). */
async function settled(read: () => number, quietMs: number, timeoutMs: number): Promise<number> {
  let last = read();
  let since = Date.now();
  await waitFor(
    () => {
      const now = read();
      if (now !== last) {
        last = now;
        since = Date.now();
      }
      return Date.now() - since >= quietMs;
    },
    timeoutMs,
    'the log to settle',
  );
  return last;
}

describe('a storm of tools/list_changed', () => {
  it('is read as a few tools/list requests and a few log lines, not one of each per notification, and the newest list wins', async () => {
    harness = makeBridge({ servers: [hostileWith('storm', { HOSTILE_STORM: '3000' })] });
    harness.bridge.start();
    await harness.bridge.whenServersSettled();
    await waitFor(() => logText(harness!.logBook).includes('tool list changed'), 20_000, 'a refresh');
    const lines = () =>
      logText(harness!.logBook)
        .split('\n')
        .filter((line) => line.startsWith('[server:storm]')).length;
    await settled(lines, 2000, 60_000);
    const { result } = await harness.bridge.toolHub.call('lists', {}, { caller: 'test' });
    const listed = Number((result.content[0] as { text: string }).text);
    // Before: 3,001 tools/list requests and 3,000 "tool list changed" lines.
    expect(listed).toBeLessThan(100);
    expect(lines()).toBeLessThan(50);
    // Each tools/list answers a tool named after how many came before it: the last one read is served.
    expect(harness.bridge.toolHub.has(`changed_${listed}`)).toBe(true);
  }, 90_000);
});

// Issue 30: a server announcing a change every few tens of milliseconds for 50 s (each refresh done before
// the next announcement, so nothing was coalesced) was listed again each time and logged 1,100 INFO lines.
describe('a server that keeps announcing list changes', () => {
  it('is listed again at most about once a second, and logged once at first and once with the count', async () => {
    const announced = 110;
    harness = makeBridge({ servers: [hostileWith('drizzle', { HOSTILE_DRIZZLE: String(announced), HOSTILE_DRIZZLE_MS: '45' })] });
    harness.bridge.start();
    await harness.bridge.whenServersSettled();
    await waitFor(() => logText(harness!.logBook).includes('tool list changed'), 20_000, 'a refresh');
    // Until the server has said everything and the last list is served (the tool it names stops changing).
    const served = () =>
      Number(/^changed_(\d+)$/.exec(harness!.bridge.toolHub.catalog().find((t) => t.name.startsWith('changed_'))?.name ?? '')?.[1] ?? 0);
    await settled(served, 2500, 60_000);
    const { result } = await harness.bridge.toolHub.call('lists', {}, { caller: 'test' });
    const read = Number((result.content[0] as { text: string }).text);
    const said = () =>
      logText(harness!.logBook)
        .split('\n')
        .filter((line) => line.startsWith('[server:drizzle]') && /tool list/.test(line));
    // Over ~5 s: about 5 lists at most once a second (before: one per announcement, 110).
    expect(read).toBeLessThan(15);
    expect(said()).toHaveLength(1);
    // The count is said once, when its minute is over or the server stops.
    await harness.bridge.stop();
    const lines = said();
    expect(lines).toHaveLength(2);
    const count = Number(/announced as changed (\d+) more times/.exec(lines[1] ?? '')?.[1]);
    expect(count).toBeGreaterThan(announced - 15);
    expect(count).toBeLessThan(announced);
  }, 120_000);
});
