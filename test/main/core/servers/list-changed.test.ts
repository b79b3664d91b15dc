import { afterEach, describe, expect, it } from 'vitest';
import { logText, makeBridge, type Harness } from '../../../helpers/bridge-harness';
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
