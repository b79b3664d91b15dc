import { afterEach, describe, expect, it } from 'vitest';

import { type Harness, logText, makeBridge } from '../../../helpers/bridge-harness';
import { hostileWith } from '../../../helpers/hostile-server';
import { waitFor } from '../../../helpers/wait';

/**
 * Whatever the bridge writes to a stdio server's stdin waits in memory while the server does not
 * read it. A server that stops reading and sends requests (pings whose 1 MB ids each answer echoes)
 * made the bridge hold every answer: 1,500 of them took `run` to 904,856 KB of RSS, and nothing was
 * said. Past a bound of unread input, the server is dropped and said, like a peer of the endpoint.
 */
let harness: Harness | undefined;
afterEach(async () => {
  await harness?.bridge.stop();
  harness = undefined;
});

describe('a server that stops reading its stdin while it sends requests', () => {
  it('is dropped and said once what waits for it passes the bound, instead of held in memory without end', async () => {
    // 200 pings of 1 MB ids: 200 MB of answers it never reads.
    harness = makeBridge({ servers: [hostileWith('deaf', { HOSTILE_FLOOD: '200' })] });
    harness.bridge.start();
    // Before: nothing was said, the server stayed "running", and the answers stayed in memory.
    await waitFor(() => logText(harness!.logBook).includes('[server:deaf] it stopped reading'), 60_000, 'the warning');
    expect(harness.bridge.state().servers[0]?.state).not.toBe('running');
    const warning = harness.logBook.entries().find((e) => e.message.startsWith('it stopped reading'));
    expect(warning?.level).toBe('warn');
    expect(warning?.message).toMatch(/^it stopped reading its input: more than 16 MB the bridge sent it is waiting; restarting in/);
    expect(harness.bridge.state().servers[0]?.lastErrorCause?.code).toBe('server.notReading');
  }, 90_000);
});
