import http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeXiaozhi } from '../../../helpers/fake-xiaozhi';
import { fastSupervision, fixtureServer, makeBridge, tearDown, type Harness } from '../../../helpers/bridge-harness';

let harness: Harness | undefined;
let xiaozhi: FakeXiaozhi | undefined;
afterEach(async () => {
  await tearDown(harness, xiaozhi);
  harness = xiaozhi = undefined;
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
    await expect.poll(() => session.isClosed, { timeout: 5000 }).toBe(true);
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

  it('tests a saved endpoint by id, and reports one nobody answers', async () => {
    const gone = await FakeXiaozhi.start();
    const url = gone.url();
    await gone.close();
    harness = makeBridge({ endpoints: [{ id: 'e1', name: 'home', url }] });
    const result = await harness.bridge.api.testEndpoint({ id: 'e1' });
    expect(result).toMatchObject({ reachable: false, accepted: false, error: { code: 'net.refused' } });
    await expect(harness.bridge.api.testEndpoint({ url: 'https://not-a-websocket' })).rejects.toThrow(/ws:\/\/ or wss:\/\//);
  });

  it('reports when xiaozhi never asks for the tools', async () => {
    xiaozhi = await FakeXiaozhi.start();
    harness = makeBridge({}, fastSupervision, { testListWaitMs: 300 });
    const result = await harness.bridge.api.testEndpoint({ url: xiaozhi.url() });
    expect(result).toMatchObject({ reachable: true, accepted: true, waitedSeconds: 0 });
    expect(result.toolsListed).toBeUndefined();
  });
});
