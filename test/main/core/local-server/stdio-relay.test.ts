import { getEventListeners } from 'node:events';
import http from 'node:http';

import { afterEach, describe, expect, it } from 'vitest';

import { isolatedSignalFetch } from '../../../../src/main/core/local-server/stdio-relay';

let server: http.Server | undefined;

afterEach(async () => {
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

/** A server answering JSON at once, or (at /slow) never, or (at /answer) one event of a stream that ends, as the app answers a request. */
async function start(): Promise<string> {
  server = http.createServer((req, res) => {
    if (req.url === '/slow') return;
    if (req.url === '/answer') {
      res.writeHead(200, { 'Content-Type': 'text/event-stream' }).end('event: message\ndata: {}\n\n');
      return;
    }
    if (req.url === '/stream') {
      res.writeHead(200, { 'Content-Type': 'text/event-stream' }).write(': open\n\n');
      return;
    }
    res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', () => resolve()));
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
}

describe("connect's fetch toward the app", () => {
  it('leaves no listener on the shared signal per request (plain fetch does, until garbage collection)', async () => {
    const url = await start();
    const shared = new AbortController();
    for (let i = 0; i < 200; i++) await (await isolatedSignalFetch(url, { signal: shared.signal })).text();
    expect(getEventListeners(shared.signal, 'abort')).toHaveLength(0);

    const control = new AbortController();
    for (let i = 0; i < 200; i++) await (await fetch(url, { signal: control.signal })).text();
    expect(getEventListeners(control.signal, 'abort').length).toBeGreaterThan(100);
  });

  it('leaves no listener for an answer that came as an event stream once the stream ended, only for a stream still open', async () => {
    const url = await start();
    const shared = new AbortController();
    for (let i = 0; i < 50; i++)
      expect(await (await isolatedSignalFetch(`${url}/answer`, { signal: shared.signal })).text()).toContain('data: {}');
    expect(getEventListeners(shared.signal, 'abort')).toHaveLength(0);

    const open = await isolatedSignalFetch(`${url}/stream`, { signal: shared.signal });
    expect(getEventListeners(shared.signal, 'abort')).toHaveLength(1);
    await open.body?.cancel();
    expect(getEventListeners(shared.signal, 'abort')).toHaveLength(0);
  });

  it('still cancels a request in flight when the shared signal aborts', async () => {
    const url = await start();
    const shared = new AbortController();
    const pending = isolatedSignalFetch(`${url}/slow`, { signal: shared.signal });
    await new Promise<void>((resolve) => server!.once('request', () => resolve()));
    shared.abort(new Error('relay closed'));
    await expect(pending).rejects.toThrow(/relay closed/);
    expect(getEventListeners(shared.signal, 'abort')).toHaveLength(0);
  });
});
