import { afterEach, describe, expect, it } from 'vitest';

import { fastConnection, fixtureServer, type Harness, logText, makeBridge, tearDown } from '../../helpers/bridge-harness';
import { FakeXiaozhi } from '../../helpers/fake-xiaozhi';
import { waitFor } from '../../helpers/wait';

const TOKEN = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ0ZXN0In0.c2VjcmV0LXNpZ25hdHVyZQ';
let xiaozhi: FakeXiaozhi | undefined;
let harness: Harness | undefined;

afterEach(async () => {
  await tearDown(harness, xiaozhi);
  harness = xiaozhi = undefined;
});

const endpointState = () => harness!.bridge.state().endpoints[0]!;

describe('endpoint link: faults', () => {
  it('reconnects after xiaozhi closes with 4004, and the children keep running', async () => {
    xiaozhi = await FakeXiaozhi.start();
    harness = makeBridge({ endpoints: [{ id: 'e', name: 'home', url: xiaozhi.url(TOKEN) }], servers: [fixtureServer('fx')] });
    harness.bridge.start();
    await harness.bridge.whenServersSettled();
    const first = await xiaozhi.connection(0);
    await first.initialize();
    const pid = harness.bridge.state().servers[0]!.pid;
    expect(pid).toBeTypeOf('number');

    first.close(4004, 'Internal server error');
    const second = await xiaozhi.connection(1);
    await second.initialize();
    const call = await second.request(1, 'tools/call', { name: 'echo', arguments: { text: 'back' } });
    expect(call.result?.content?.[0]?.text).toBe('fx: back');
    expect(harness.bridge.state().servers[0]!.pid).toBe(pid);
    expect(harness.bridge.state().servers[0]!.restarts).toBe(0);
    expect(logText(harness.logBook)).toMatch(/closed with code 4004 \(xiaozhi internal server error.*\): Internal server error/);
  });

  it('detects an endpoint that stops answering pings and reconnects', async () => {
    xiaozhi = await FakeXiaozhi.start({ autoPong: false });
    harness = makeBridge({ connection: fastConnection, endpoints: [{ id: 'e', name: 'home', url: xiaozhi.url() }] });
    harness.bridge.start();
    const first = await xiaozhi.connection(0);
    await waitFor(() => first.isClosed, 5000, 'the silent connection to be dropped');
    await xiaozhi.connection(1);
    expect(logText(harness.logBook)).toContain('no answer to a ping');
  });

  it('waits and retries with a countdown while the endpoint is unreachable, then connects', async () => {
    const port = await FakeXiaozhi.freePort();
    harness = makeBridge({ endpoints: [{ id: 'e', name: 'home', url: `ws://127.0.0.1:${port}/mcp/?token=${TOKEN}` }] });
    harness.bridge.start();
    await waitFor(() => endpointState().state === 'waiting' && endpointState().attempts >= 2, 5000, 'failed attempts');
    const waiting = endpointState();
    expect(waiting.retryAt).toBeGreaterThan(Date.now() - 1000);
    expect(waiting.lastError).toMatch(/ECONNREFUSED/);
    xiaozhi = await FakeXiaozhi.start({ port });
    const session = await xiaozhi.connection(0);
    await session.initialize();
    await waitFor(() => endpointState().state === 'connected');
    expect(endpointState().lastError).toBeUndefined();
  });

  it('reports an HTTP refusal (bad token) and keeps trying', async () => {
    const http = await import('node:http');
    const server = http.createServer((_req, res) => {
      res.writeHead(401, 'Unauthorized');
      res.end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    const port = (server.address() as { port: number }).port;
    try {
      harness = makeBridge({ endpoints: [{ id: 'e', name: 'home', url: `ws://127.0.0.1:${port}/mcp/?token=${TOKEN}` }] });
      harness.bridge.start();
      await waitFor(() => endpointState().attempts >= 2, 5000, 'two refused attempts');
      expect(endpointState().lastError).toContain('HTTP 401');
      expect(endpointState().lastError).toMatch(/token .* probably wrong or expired/);
    } finally {
      server.close();
    }
  });

  it('starts the backoff over once the other side initialises a session that lasts a moment', async () => {
    const port = await FakeXiaozhi.freePort();
    harness = makeBridge({ endpoints: [{ id: 'e', name: 'home', url: `ws://127.0.0.1:${port}/mcp/?token=${TOKEN}` }] });
    harness.bridge.start();
    await waitFor(() => endpointState().attempts >= 4, 5000, 'failed attempts');
    xiaozhi = await FakeXiaozhi.start({ port });
    const session = await xiaozhi.connection(0);
    await session.initialize();
    // A session of a second (not the minute that counts as stable without a session).
    await waitFor(() => endpointState().state === 'connected' && Date.now() - endpointState().since >= 1000, 5000, 'a one-second session');
    session.close(4004);
    await waitFor(() => endpointState().state !== 'connected', 5000, 'the drop');
    // One failure since the session, not five: the next wait is short again.
    expect(endpointState().attempts).toBe(1);
  });

  it('keeps backing off from an endpoint that accepts a session and drops it at once, in a loop', async () => {
    xiaozhi = await FakeXiaozhi.start();
    harness = makeBridge({ endpoints: [{ id: 'e', name: 'home', url: xiaozhi.url() }] });
    harness.bridge.start();
    for (let i = 0; i < 4; i++) {
      const session = await xiaozhi.connection(i);
      await session.initialize();
      session.close(4004);
    }
    await waitFor(() => endpointState().attempts >= 4, 5000, 'the failures to count');
  });

  it('retries at once when woken (the machine resumed, the network came back)', async () => {
    const port = await FakeXiaozhi.freePort();
    harness = makeBridge({
      endpoints: [{ id: 'e', name: 'home', url: `ws://127.0.0.1:${port}/mcp/?token=${TOKEN}` }],
      connection: { reconnectBaseMs: 600_000, reconnectMaxMs: 600_000 },
    });
    harness.bridge.start();
    await waitFor(() => endpointState().state === 'waiting', 5000, 'the first failure');
    // The next try is at least a minute away (a tenth of the base): longer than any wait below, however slow the machine.
    expect(endpointState().retryAt! - Date.now()).toBeGreaterThan(50_000);
    xiaozhi = await FakeXiaozhi.start({ port });
    harness.bridge.wake();
    await xiaozhi.connection(0, 4000);
  });

  it('checks a connected socket at once when woken, and replaces it if it is dead', async () => {
    xiaozhi = await FakeXiaozhi.start({ autoPong: false });
    harness = makeBridge({
      endpoints: [{ id: 'e', name: 'home', url: xiaozhi.url() }],
      connection: { heartbeatIntervalMs: 600_000, heartbeatTimeoutMs: 200 },
    });
    harness.bridge.start();
    const first = await xiaozhi.connection(0);
    // The server side sees the connection before the bridge's socket opens: wake once it has.
    await waitFor(() => endpointState().state === 'connected', 5000, 'the bridge to be connected');
    harness.bridge.wake();
    await waitFor(() => first.isClosed, 4000, 'the dead socket to be dropped');
    await xiaozhi.connection(1);
  });

  it('never shows the token in logs or status', async () => {
    xiaozhi = await FakeXiaozhi.start();
    harness = makeBridge({ endpoints: [{ id: 'e', name: 'home', url: xiaozhi.url(TOKEN) }] });
    harness.bridge.start();
    const session = await xiaozhi.connection(0);
    await session.initialize();
    session.close(4004, `bad token ${TOKEN}`);
    await xiaozhi.connection(1);
    const everything = JSON.stringify({
      logs: harness.logBook.entries(),
      state: harness.bridge.state(),
      settings: await harness.bridge.api.getSettings(),
    });
    expect(everything).not.toContain(TOKEN);
    expect(everything).not.toContain('c2VjcmV0LXNpZ25hdHVyZQ');
    expect(everything).toContain('token=eyJh…(redacted)');
    expect(await harness.bridge.api.revealEndpointUrl({ id: 'e' })).toContain(TOKEN);
  });

  it('leaks no timers or sockets across reconnects', async () => {
    xiaozhi = await FakeXiaozhi.start();
    harness = makeBridge({ endpoints: [{ id: 'e', name: 'home', url: xiaozhi.url() }] });
    harness.bridge.start();
    const count = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout' || r === 'TCPSocketWrap').length;
    (await xiaozhi.connection(0)).close(4004);
    await xiaozhi.connection(1);
    await waitFor(() => endpointState().state === 'connected');
    const baseline = count();
    for (let i = 2; i < 12; i++) {
      xiaozhi.sessions[i - 1]!.close(4004);
      await xiaozhi.connection(i);
      await waitFor(() => endpointState().state === 'connected');
    }
    // A little slack for timers the test itself and ws have in flight at this instant.
    expect(count()).toBeLessThanOrEqual(baseline + 2);
  });

  it('stops retrying and disconnects when stopped', async () => {
    xiaozhi = await FakeXiaozhi.start();
    harness = makeBridge({ endpoints: [{ id: 'e', name: 'home', url: xiaozhi.url() }] });
    harness.bridge.start();
    const session = await xiaozhi.connection(0);
    await harness.bridge.stop();
    await waitFor(() => session.isClosed);
    expect(endpointState().state).toBe('disconnected');
    expect(xiaozhi.sessions).toHaveLength(1);
  });
});
