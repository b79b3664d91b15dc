import http from 'node:http';

import { afterEach, describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';

import {
  fastSupervision,
  fixtureServer,
  type Harness,
  logText,
  makeBridge,
  tearDown,
  testConnection,
} from '../../../helpers/bridge-harness';
import { FakeXiaozhi } from '../../../helpers/fake-xiaozhi';
import { RelayStandIn } from '../../../helpers/relay-stand-in';
import { scaled } from '../../../helpers/time-scale';
import { startTricklingUpgrade } from '../../../helpers/trickling-upgrade';

let harness: Harness | undefined;
let xiaozhi: FakeXiaozhi | undefined;
let relay: RelayStandIn | undefined;
afterEach(async () => {
  await tearDown(harness, xiaozhi);
  await relay?.close();
  harness = xiaozhi = relay = undefined;
});

describe('Test connection', () => {
  it('connects once and reports: reachable, token accepted, tools listed, time', async () => {
    xiaozhi = await FakeXiaozhi.start();
    harness = makeBridge({ servers: [fixtureServer('fx')] });
    harness.bridge.start();
    await harness.bridge.whenServersSettled();
    const testing = harness.bridge.api.testEndpoint({ url: xiaozhi.url() });
    const session = await xiaozhi.connection(0);
    await session.initialize();
    const list = await session.listAllTools();
    const result = await testing;
    expect(result).toMatchObject({ reachable: true, accepted: true, toolsListed: list.tools.length });
    expect(result.toolsListed).toBeGreaterThan(5);
    expect(result.durationMs).toBeGreaterThanOrEqual(0);
    // It closes its connection when done; nothing is left open.
    await expect.poll(() => session.isClosed, { timeout: scaled(5000) }).toBe(true);
  });

  it('says the token was refused when the endpoint answers 401', async () => {
    const server = http.createServer((_req, res) => res.writeHead(401, 'Unauthorized').end());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    try {
      harness = makeBridge({});
      const port = (server.address() as { port: number }).port;
      const result = await harness.bridge.api.testEndpoint({
        url: `ws://127.0.0.1:${port}/mcp/?token=eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln`,
      });
      expect(result).toMatchObject({ reachable: true, accepted: false, error: { code: 'http.unauthorized' } });
      expect(result.errorText).toContain('HTTP 401');
      expect(JSON.stringify(result)).not.toContain('eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln');
    } finally {
      server.close();
    }
  });

  it('gives up at the connect timeout on a program that answers the upgrade a byte at a time (no reply that ends)', async () => {
    // ws's handshakeTimeout is the socket's idle time: a byte now and then kept the test waiting for ever.
    const trickle = await startTricklingUpgrade();
    harness = makeBridge({ connection: { connectTimeoutMs: 500 } });
    try {
      const gaveUp = new Promise<'still waiting'>((resolve) => setTimeout(() => resolve('still waiting'), scaled(10_000)).unref());
      const result = await Promise.race([harness.bridge.api.testEndpoint({ url: trickle.url }), gaveUp]);
      expect(result).toMatchObject({ accepted: false, error: { code: 'net.timeout' } });
    } finally {
      await trickle.close();
    }
  });

  it('tests a saved endpoint by id, and reports one nobody answers', async () => {
    const gone = await FakeXiaozhi.start();
    const url = gone.url();
    await gone.close();
    harness = makeBridge({ endpoints: [{ id: 'e1', name: 'home', url }] });
    const result = await harness.bridge.api.testEndpoint({ id: 'e1' });
    expect(result).toMatchObject({ reachable: false, accepted: false, error: { code: 'net.refused' } });
    await expect(harness.bridge.api.testEndpoint({ url: 'https://not-a-websocket' })).rejects.toThrow(/ws:\/\/ or wss:\/\//);
  });

  it('says a self-hosted endpoint that did not ask for the tools works, as that kind lists them only when a device talks', async () => {
    xiaozhi = await FakeXiaozhi.start();
    harness = makeBridge({}, fastSupervision, { testListWaitMs: 300 });
    const result = await harness.bridge.api.testEndpoint({ url: xiaozhi.url() });
    expect(result).toMatchObject({ reachable: true, accepted: true, waitedSeconds: 0 });
    expect(result.toolsListed).toBeUndefined();
    expect(result.note).toBe('listsOnDeviceTalk');
  });
  it('says an endpoint that closes at once refused the connection, and one that closes before listing closed early', async () => {
    const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    await new Promise<void>((resolve) => server.once('listening', () => resolve()));
    // 1008 is a refusal by policy; 4000 any other close before xiaozhi asked for the tools.
    let code = 1008;
    server.on('connection', (socket) => socket.close(code, 'no'));
    try {
      harness = makeBridge({}, fastSupervision, { testListWaitMs: 5000 });
      const url = `ws://127.0.0.1:${(server.address() as { port: number }).port}/mcp/?token=x`;
      const refused = await harness.bridge.api.testEndpoint({ url });
      expect(refused).toMatchObject({ reachable: true, accepted: false, error: { code: 'endpoint.closed', params: { code: 1008 } } });
      code = 4000;
      const closed = await harness.bridge.api.testEndpoint({ url });
      expect(closed).toMatchObject({ reachable: true, accepted: true, error: { code: 'endpoint.closed', params: { code: 4000 } } });
      // Neither is "normal for a self-hosted endpoint".
      expect(closed.note).toBeUndefined();
    } finally {
      server.close();
    }
  });

  it('says an endpoint that sends a broken frame once connected was reached, not unreachable nor an HTTP status', async () => {
    const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    await new Promise<void>((resolve) => server.once('listening', () => resolve()));
    // Raw frames no WebSocket peer may send: an unknown opcode, and a close with code 999 (not a valid close code).
    const frames = [Buffer.from([0x83, 0x02, 0x41, 0x42]), Buffer.from([0x88, 0x02, 0x03, 0xe7])];
    let next = 0;
    server.on('connection', (_socket, request) => request.socket.write(frames[next++]!));
    try {
      harness = makeBridge({}, fastSupervision, { testListWaitMs: 5000 });
      const url = `ws://127.0.0.1:${(server.address() as { port: number }).port}/mcp/?token=x`;
      for (const detail of [/opcode 3/, /status code 999/]) {
        const result = await harness.bridge.api.testEndpoint({ url });
        expect(result).toMatchObject({ reachable: true, error: { code: 'endpoint.badFrame' } });
        expect(String(result.error?.params.detail)).toMatch(detail);
      }
    } finally {
      server.close();
    }
  });

  it('keeps the token out of what it says when the other side echoes it (a close reason, an HTTP status text)', async () => {
    // A self-hosted relay's token is no JWT: only knowing it masks it.
    const token = 'Zq8HkLmN3pRsTuVwXyZ0aB1cD2eF3gH4';
    const closing = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    await new Promise<void>((resolve) => closing.once('listening', () => resolve()));
    closing.on('connection', (socket) => socket.close(4001, `bad ${token}`));
    const refusing = http.createServer((_req, res) => res.writeHead(403, `denied ${token}`).end());
    await new Promise<void>((resolve) => refusing.listen(0, '127.0.0.1', () => resolve()));
    try {
      harness = makeBridge({}, fastSupervision, { testListWaitMs: 5000 });
      for (const port of [(closing.address() as { port: number }).port, (refusing.address() as { port: number }).port]) {
        const result = await harness.bridge.api.testEndpoint({ url: `ws://127.0.0.1:${port}/mcp_endpoint/mcp/?token=${token}` });
        expect(result.errorText).toBeDefined();
        expect(JSON.stringify(result)).not.toContain(token);
      }
      expect(logText(harness.logBook)).toContain('connection test');
      expect(logText(harness.logBook)).not.toContain(token);
    } finally {
      closing.close();
      refusing.close();
    }
  });
});

describe('Test connection against the self-hosted relay', () => {
  it('says a token the relay refuses is refused (it opens the socket, then closes it 1008)', async () => {
    relay = await RelayStandIn.start();
    harness = makeBridge({});
    const result = await harness.bridge.api.testEndpoint({ url: relay.toolUrl().replace(/token=.*/, 'token=bm90LWEtdG9rZW4%3D') });
    expect(result).toMatchObject({ reachable: true, accepted: false, error: { code: 'endpoint.tokenRejected' } });
  });

  it('lists the tools through the relay as a device would, though the relay lists only when a device talks', async () => {
    relay = await RelayStandIn.start();
    harness = makeBridge({ servers: [fixtureServer('fx')] }, fastSupervision, { testListWaitMs: 5000 });
    harness.bridge.start();
    await harness.bridge.whenServersSettled();
    const result = await harness.bridge.api.testEndpoint({ url: relay.toolUrl() });
    expect(result).toMatchObject({ reachable: true, accepted: true, listedVia: 'relay' });
    expect(result.toolsListed).toBeGreaterThan(5);
    // The test's own connection is gone, and the relay is left knowing nobody.
    await relay.whenRegistered(false);
  });

  it('tests a connected endpoint without opening a second connection that would push it out', async () => {
    relay = await RelayStandIn.start();
    harness = makeBridge(
      { servers: [fixtureServer('fx')], endpoints: [{ id: 'e1', name: 'home', url: relay.toolUrl() }], connection: testConnection },
      fastSupervision,
      { testListWaitMs: 5000 },
    );
    harness.bridge.start();
    await harness.bridge.whenServersSettled();
    await relay.whenRegistered(true);
    const made = relay.toolSockets.length;
    const result = await harness.bridge.api.testEndpoint({ id: 'e1' });
    expect(result).toMatchObject({ reachable: true, accepted: true, listedVia: 'relay' });
    expect(result.toolsListed).toBeGreaterThan(5);
    // The person's tools, as the other pages count them (walkthrough 5 read "你的 5 个工具": search mode's helpers).
    const { catalog } = await harness.bridge.api.getState();
    expect(result.userTools).toBe(catalog.toolCount - (catalog.appTools ?? 0));
    expect(relay.toolSockets.length).toBe(made);
    expect(harness.bridge.state().endpoints[0]?.state).toBe('connected');
    expect(relay.registered()).toBe(relay.toolSockets.at(-1));
  });

  it('says another program is using the endpoint, rather than take it for the test', async () => {
    relay = await RelayStandIn.start();
    const { WebSocket } = await import('ws');
    const other = new WebSocket(relay.toolUrl());
    try {
      await relay.whenRegistered(true);
      // The other program answers pings (as any MCP server does).
      other.on('message', (data) => {
        const message = JSON.parse(data.toString()) as { id?: unknown; method?: string };
        if (message.method === 'ping') other.send(JSON.stringify({ jsonrpc: '2.0', id: message.id, result: {} }));
      });
      harness = makeBridge({});
      const result = await harness.bridge.api.testEndpoint({ url: relay.toolUrl() });
      expect(result).toMatchObject({ reachable: true, accepted: true, error: { code: 'endpoint.replaced' } });
      expect(result.toolsListed).toBeUndefined();
      // Its connection is the only one the relay got, and it still holds the endpoint.
      expect(relay.toolSockets).toHaveLength(1);
      expect(relay.registered()).toBe(relay.toolSockets[0]);
    } finally {
      other.terminate();
    }
  });
});
