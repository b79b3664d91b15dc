import http from 'node:http';
import net from 'node:net';
import path from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';

import { startWebUi, type WebUi } from '../../../../src/main/core/web/web-ui-server';
import { type Harness, makeBridge } from '../../../helpers/bridge-harness';
import { dribble, heldSocket, slowBodies, statusOf } from '../../../helpers/raw-http';
import { waitFor } from '../../../helpers/wait';

const RENDERER = path.resolve(__dirname, '../../../../out/renderer');
let ui: WebUi | undefined;
let harness: Harness | undefined;
afterEach(async () => {
  await ui?.close();
  await harness?.bridge.stop();
  ui = undefined;
  harness = undefined;
});

/** A bridge with nothing set up, and its web UI serving the built window; both stopped after the test. */
async function startUi(options: { host?: string; headersTimeoutMs?: number } = {}): Promise<WebUi> {
  harness = makeBridge({});
  return startWebUi({ api: harness.bridge.api, rendererDir: RENDERER, log: harness.logBook.logger('web'), ...options });
}

function get(
  port: number,
  pathname: string,
  host = `127.0.0.1:${port}`,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path: pathname, headers: { Host: host } }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

function connect(url: string, origin: string): Promise<'open' | number> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url, { origin });
    ws.on('open', () => {
      ws.close();
      resolve('open');
    });
    ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    ws.on('error', () => undefined);
  });
}

describe('the headless web UI server', () => {
  it('serves the page with a strict CSP, and refuses path tricks and foreign Host headers', async () => {
    ui = await startUi();
    expect(ui.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/#\/overview\?token=[\w-]{20,}$/);
    const page = await get(ui.port, '/');
    expect(page.status).toBe(200);
    expect(page.headers['content-security-policy']).toContain("default-src 'none'");
    expect(page.body).toContain('<div id="root">');
    expect((await get(ui.port, '/../../package.json')).status).toBe(404);
    expect((await get(ui.port, '/%2e%2e/%2e%2e/package.json')).status).toBe(404);
    expect((await get(ui.port, '/', 'evil.example:80')).status).toBe(421);
  });

  it('carries the API only for the right token and origin', async () => {
    ui = await startUi();
    const base = `ws://127.0.0.1:${ui.port}/api`;
    const origin = `http://127.0.0.1:${ui.port}`;
    expect(await connect(`${base}?token=${ui.token}`, origin)).toBe('open');
    expect(await connect(`${base}?token=nope`, origin)).toBe(401);
    expect(await connect(`${base}?token=${ui.token}`, 'http://evil.example')).toBe(403);

    const ws = new WebSocket(`${base}?token=${ui.token}`, { origin });
    await new Promise((resolve) => ws.once('open', resolve));
    const reply = (request: { id: number; command: string; input?: unknown }) =>
      new Promise<Record<string, unknown>>((resolve) => {
        const onMessage = (data: WebSocket.RawData) => {
          const message = JSON.parse(data.toString());
          if (message.id === request.id) {
            ws.off('message', onMessage);
            resolve(message);
          }
        };
        ws.on('message', onMessage);
        ws.send(JSON.stringify(request));
      });
    expect(await reply({ id: 1, command: 'getState' })).toMatchObject({ id: 1, output: { running: false } });
    expect(await reply({ id: 2, command: 'start' })).toEqual({ id: 2 });
    expect(await reply({ id: 3, command: 'rm -rf' })).toEqual({ id: 3, error: 'Unknown command "rm -rf"' });
    expect((await reply({ id: 4, command: 'addServer', input: { name: 'x' } })).error).toMatch(/transport/);
    // Messages that are JSON but not command objects are dropped; the connection and the bridge stay.
    for (const junk of ['null', '[]', '5', '"getState"', '{"id":{"x":1},"command":"getState"}']) ws.send(junk);
    expect(await reply({ id: 5, command: 'getState' })).toMatchObject({ id: 5, output: { running: true } });
    ws.close();
  });

  it('accepts any Host name when the user chose to listen on every interface', async () => {
    ui = await startUi({ host: '0.0.0.0' });
    expect((await get(ui.port, '/', `192.168.1.20:${ui.port}`)).status).toBe(200);
    expect((await get(ui.port, '/', `192.168.1.20:1`)).status).toBe(421);
  });
});

describe('the headless web UI server under hostile request lines', () => {
  it('answers 400 to undecodable paths and upgrade URLs, and keeps serving', async () => {
    ui = await startUi();
    const host = `Host: 127.0.0.1:${ui.port}\r\n`;
    expect(await statusOf(ui.port, `GET /%C0 HTTP/1.1\r\n${host}\r\n`)).toBe(400);
    expect(await statusOf(ui.port, `GET /% HTTP/1.1\r\n${host}\r\n`)).toBe(400);
    expect(await statusOf(ui.port, `GET /assets/%E0%A4%A HTTP/1.1\r\n${host}\r\n`)).toBe(400);
    const upgrade = `Connection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n`;
    expect(await statusOf(ui.port, `GET http://[ HTTP/1.1\r\n${host}${upgrade}\r\n`)).toBe(400);
    expect(await statusOf(ui.port, `GET /api?token=%ZZ HTTP/1.1\r\n${host}${upgrade}Origin: http://127.0.0.1:${ui.port}\r\n\r\n`)).toBe(
      401,
    );
    expect((await get(ui.port, '/')).status).toBe(200);
  });
});

describe('the web UI API with a window that stops reading', () => {
  it('closes that window instead of holding its updates in memory', async () => {
    ui = await startUi();
    const ws = new WebSocket(`ws://127.0.0.1:${ui.port}/api?token=${ui.token}`, { origin: `http://127.0.0.1:${ui.port}` });
    await new Promise((resolve) => ws.once('open', resolve));
    // A laptop lid closing: the socket stays, nothing is read any more.
    (ws as unknown as { _socket: net.Socket })._socket.pause();
    const closed = new Promise((resolve) => ws.once('close', resolve));
    for (let i = 0; i < 10_000 && ws.readyState === WebSocket.OPEN; i++) {
      harness!.logBook.add('info', 'test', `line ${i} ${'z'.repeat(3900)}`);
      if (i % 500 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    (ws as unknown as { _socket: net.Socket })._socket.resume();
    await closed;
    expect(harness!.logBook.entries().filter((e) => e.message.includes('stopped reading'))).toHaveLength(1);
  });
});

describe('the headless web UI server against floods', () => {
  const refusedLines = () => harness!.logBook.entries().filter((e) => e.level === 'warn' && e.message.includes('refused'));

  it('logs the first of 300 foreign-origin API connections at once, and the rest as one count', async () => {
    ui = await startUi();
    const base = `ws://127.0.0.1:${ui.port}/api?token=${ui.token}`;
    for (let i = 0; i < 300; i++) expect(await connect(base, `https://evil${i}.example`)).toBe(403);
    expect(refusedLines().map((e) => e.message)).toEqual(['web UI: refused an API connection (foreign origin https://evil0.example)']);
    // Stopping says what is still counted.
    await ui.close();
    ui = undefined;
    expect(refusedLines().map((e) => e.message)).toEqual([
      'web UI: refused an API connection (foreign origin https://evil0.example)',
      'refused 299 more connections in the last 60 s; the last: web UI: refused an API connection (foreign origin https://evil299.example)',
    ]);
  });

  it('drops a connection that sends its headers one byte at a time, within seconds (not the minute Node allows)', async () => {
    // A second for the headers (the default, 10 s, is read in guarded-http-server.test.ts): the same guard, sooner.
    ui = await startUi({ headersTimeoutMs: 1000 });
    const head = `GET / HTTP/1.1\r\nHost: 127.0.0.1:${ui.port}\r\nX-Slow: ${'a'.repeat(10_000)}\r\n\r\n`;
    const slow = await dribble(ui.port, head, 100);
    expect(slow.answer).toMatch(/^HTTP\/1\.1 408/);
    // At 10 bytes a second: closed after a second or so (the check runs every half of it), far from the whole header.
    expect(slow.bytesSent).toBeLessThan(300);
  }, 60_000);

  it('drops requests whose bodies come a byte at a time, so the page loads again within seconds', async () => {
    ui = await startUi();
    const port = ui.port;
    const page = `GET / HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`;
    expect(await statusOf(port, page)).toBe(200);
    const held = await slowBodies(port, 64, `POST / HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n`);
    try {
      // Before: refused (no answer) until the requests timed out 30 to 60 s later.
      await waitFor(async () => (await statusOf(port, page)) === 200, 20_000, 'the page to load again');
    } finally {
      for (const socket of held) socket.destroy();
    }
  }, 60_000);

  it('takes at most 64 connections at once, WebSockets included, and serves again once they close', async () => {
    ui = await startUi();
    const port = ui.port;
    const get200 = `GET / HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`;
    const windows: WebSocket[] = [];
    for (let i = 0; i < 4; i++) {
      const ws = new WebSocket(`ws://127.0.0.1:${port}/api?token=${ui.token}`, { origin: `http://127.0.0.1:${port}` });
      await new Promise((resolve) => ws.once('open', resolve));
      windows.push(ws);
    }
    const held: net.Socket[] = [];
    for (let i = 0; i < 60; i++) held.push(await heldSocket(port, `GET / HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n`));
    expect(await statusOf(port, get200)).toBe(0);
    await waitFor(
      () => refusedLines().some((e) => e.message === 'web UI: refused a connection: 64 are open, the most it takes'),
      5000,
      'the refusal in the log',
    );
    held.pop()?.destroy();
    await waitFor(async () => (await statusOf(port, get200)) === 200, 5000, 'a connection to be taken again');
    for (const socket of held) socket.destroy();
    for (const ws of windows) ws.close();
  });
});
