import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { afterEach, describe, expect, it } from 'vitest';

import { startBearerRelay } from '../../scripts/conformance/bearer-relay.mjs';
import { waitFor } from '../helpers/wait';

/** The relay `npm run conformance` puts between the suite and our local MCP server (which wants a bearer token). */
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

interface Seen {
  method?: string;
  url?: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** An upstream on 127.0.0.1 that records what reached it; `answer` writes the response. */
async function upstream(answer: (res: http.ServerResponse) => void = (res) => res.writeHead(200, { 'x-up': '1' }).end('fine')) {
  const seen: Seen[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      seen.push({ method: req.method, url: req.url, headers: req.headers, body });
      answer(res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise((resolve) => (server.closeAllConnections(), server.close(() => resolve()))));
  return { seen, host: `127.0.0.1:${(server.address() as AddressInfo).port}` };
}

async function relayTo(host: string) {
  const relay = await startBearerRelay(`http://${host}/mcp`, 'tok-0123456789abcdef');
  closers.push(relay.close);
  return relay;
}

/** A request with the headers exactly as given (fetch would not let Host be set). */
function send(
  url: string,
  headers: Record<string, string>,
  body = '',
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'POST', headers }, (res) => {
      let text = '';
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('the conformance bearer relay', () => {
  it('adds the bearer token, keeps the method, path and body, and returns the answer as it came', async () => {
    const up = await upstream();
    const relay = await relayTo(up.host);
    expect(new URL(relay.url).pathname).toBe('/mcp');
    const answer = await send(relay.url, { 'content-type': 'application/json', 'mcp-session-id': 's1' }, '{"jsonrpc":"2.0"}');
    expect(answer).toMatchObject({ status: 200, body: 'fine', headers: { 'x-up': '1' } });
    expect(up.seen).toEqual([
      expect.objectContaining({
        method: 'POST',
        url: '/mcp',
        body: '{"jsonrpc":"2.0"}',
        headers: expect.objectContaining({ authorization: 'Bearer tok-0123456789abcdef', 'mcp-session-id': 's1' }),
      }),
    ]);
  });

  it('rewrites a Host and Origin that name the relay to the upstream, and passes any other as sent (the DNS-rebinding check is upstream)', async () => {
    const up = await upstream();
    const relay = await relayTo(up.host);
    const self = new URL(relay.url).host;
    await send(relay.url, { host: self, origin: `http://${self}` });
    await send(relay.url, { host: 'evil.example.com', origin: 'http://evil.example.com' });
    expect(up.seen.map((s) => [s.headers.host, s.headers.origin])).toEqual([
      [up.host, `http://${up.host}`],
      ['evil.example.com', 'http://evil.example.com'],
    ]);
  });

  it('streams an answer as it is written (SSE), not once it ends', async () => {
    let finish: (() => void) | undefined;
    const up = await upstream((res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: first\n\n');
      finish = () => res.end('data: last\n\n');
    });
    const relay = await relayTo(up.host);
    let received = '';
    const ended = new Promise<void>((resolve) =>
      http
        .request(relay.url, { method: 'GET' }, (res) => {
          res.on('data', (chunk) => (received += chunk));
          res.on('end', resolve);
        })
        .end(),
    );
    await waitFor(() => received.includes('data: first'), 5_000, 'the first event before the stream ends');
    expect(received).not.toContain('last');
    finish?.();
    await ended;
    expect(received).toBe('data: first\n\ndata: last\n\n');
  });
});
