import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { bearerMatches, hostAllowed, isLoopbackHost, originAllowed, secretsEqual } from '../../../../src/main/core/io/http-gate';
import type { LocalMcpServer } from '../../../../src/main/core/local-server/local-mcp-server';
import { startWebUi, type WebUi } from '../../../../src/main/core/web/web-ui-server';
import { startBareLocalServer } from '../../../helpers/bare-local-server';
import { type Harness, makeBridge } from '../../../helpers/bridge-harness';
import { statusOf } from '../../../helpers/raw-http';

const TOKEN = 'gate-test-token-0123456789abcdef';
const RENDERER = path.resolve(__dirname, '../../../../out/renderer');
const P = 4321;
const LOOPBACK = { host: '127.0.0.1', port: P };

/** Host headers as a client could send them, `{P}` standing for the server's port; true: it names this server. */
const HOSTS: [string, boolean][] = [
  ['127.0.0.1:{P}', true],
  ['localhost:{P}', true],
  ['LOCALHOST:{P}', true],
  ['LocalHost:{P}', true],
  ['localhost.:{P}', true],
  ['127.0.0.1.:{P}', true],
  ['127.0.0.2:{P}', true],
  ['[::1]:{P}', true],
  ['[0:0:0:0:0:0:0:1]:{P}', true],
  // DNS rebinding: a page's own name, resolved to 127.0.0.1.
  ['evil.example:{P}', false],
  ['127.0.0.1.evil.com:{P}', false],
  ['localhost.evil.com:{P}', false],
  ['evil.com.127.0.0.1:{P}', false],
  ['localhost..:{P}', false],
  ['evil.example@127.0.0.1:{P}', false],
  ['127.0.0.1:{P}@evil.example', false],
  ['127.0.0.1:{P}/path', false],
  ['127.0.0.1:1', false],
  ['127.0.0.1', false],
  ['[::1]', false],
  ['[::2]:{P}', false],
  ['', false],
];

/** Origin headers (`{P}` the server's port) and whether the local server and the web UI's API take them. */
const ORIGINS: [string | undefined, { local: boolean; web: boolean }][] = [
  // The page the web UI served, however its name is cased.
  ['http://127.0.0.1:{P}', { local: true, web: true }],
  ['http://LOCALHOST:{P}', { local: true, web: false }],
  ['null', { local: false, web: false }],
  ['http://evil.example', { local: false, web: false }],
  ['http://127.0.0.1.evil.com:{P}', { local: false, web: false }],
  ['file://', { local: false, web: false }],
  ['ftp://127.0.0.1:{P}', { local: false, web: false }],
  // A local tool (the MCP Inspector) may talk to the MCP server; only its own page to the web UI.
  ['http://localhost:6274', { local: true, web: false }],
  // Programs send no Origin; a browser always does on a WebSocket.
  [undefined, { local: true, web: false }],
];

const fill = (text: string, port: number) => text.replaceAll('{P}', String(port));

describe('the HTTP gate', () => {
  it('lets a Host through when it names this server, read as a URL parser reads it', () => {
    for (const [host, named] of HOSTS) expect(hostAllowed(fill(host, P), LOOPBACK), host).toBe(named);
    expect(hostAllowed(undefined, LOOPBACK)).toBe(false);
    // No port is port 80.
    expect(hostAllowed('localhost', { host: '127.0.0.1', port: 80 })).toBe(true);
    expect(hostAllowed('localhost:80', { host: '127.0.0.1', port: 80 })).toBe(true);
    // Bound to an address of the LAN: that address (and loopback names), not another one.
    const lan = { host: '192.168.1.20', port: P };
    expect(hostAllowed(`192.168.1.20:${P}`, lan)).toBe(true);
    expect(hostAllowed(`192.168.1.21:${P}`, lan)).toBe(false);
    expect(hostAllowed(`[fe80::1]:${P}`, { host: 'FE80::1', port: P })).toBe(true);
    // Bound to every interface (the user's choice): any name, the right port only.
    expect(hostAllowed(`my-pc.lan:${P}`, { host: '0.0.0.0', port: P })).toBe(true);
    expect(hostAllowed('my-pc.lan:1', { host: '0.0.0.0', port: P })).toBe(false);
    expect(hostAllowed(`not a host:${P}`, { host: '::', port: P })).toBe(false);
  });

  it('knows loopback however it is written', () => {
    for (const host of ['localhost', 'LOCALHOST', '127.0.0.1', '127.1', '127.9.9.9', '::1', '[::1]', 'localhost.'])
      expect(isLoopbackHost(host), host).toBe(true);
    for (const host of [
      '0.0.0.0',
      '::',
      '[::]',
      '[::ffff:127.0.0.1]',
      '192.168.1.20',
      'localhost.evil.com',
      '127.0.0.1.evil.com',
      '128.0.0.1',
    ])
      expect(isLoopbackHost(host), host).toBe(false);
  });

  it('lets a page through by the rule of each server', () => {
    for (const [origin, allowed] of ORIGINS) {
      const given = origin === undefined ? undefined : fill(origin, P);
      expect(originAllowed(given, `127.0.0.1:${P}`, LOOPBACK, 'loopback'), `local ${origin}`).toBe(allowed.local);
      // The web UI's page at the Host the request names.
      expect(originAllowed(given, `127.0.0.1:${P}`, LOOPBACK, 'same-origin'), `web ${origin}`).toBe(allowed.web);
    }
    expect(originAllowed(`http://LOCALHOST:${P}`, `localhost:${P}`, LOOPBACK, 'same-origin')).toBe(true);
    expect(originAllowed(`http://localhost:${P}/`, `LOCALHOST:${P}`, LOOPBACK, 'same-origin')).toBe(true);
    expect(originAllowed('http://localhost', 'localhost:80', LOOPBACK, 'same-origin')).toBe(true);
    expect(originAllowed('https://localhost', 'localhost:80', LOOPBACK, 'same-origin')).toBe(false);
    expect(originAllowed(`http://localhost:${P}`, undefined, LOOPBACK, 'same-origin')).toBe(false);
  });

  it('compares tokens whole, whatever their lengths', () => {
    expect(secretsEqual(TOKEN, TOKEN)).toBe(true);
    expect(secretsEqual(TOKEN.slice(0, -1), TOKEN)).toBe(false);
    expect(secretsEqual(`${TOKEN}x`, TOKEN)).toBe(false);
    expect(secretsEqual('', TOKEN)).toBe(false);
    expect(secretsEqual('', '')).toBe(true);
    expect(secretsEqual('密钥', '密钥')).toBe(true);
    expect(bearerMatches(`Bearer ${TOKEN}`, TOKEN)).toBe(true);
    expect(bearerMatches(`bearer  ${TOKEN} `, TOKEN)).toBe(true);
    expect(bearerMatches(`Basic ${TOKEN}`, TOKEN)).toBe(false);
    expect(bearerMatches(undefined, TOKEN)).toBe(false);
  });
});

describe('the local MCP server and the web UI behind the same gate', () => {
  let local: LocalMcpServer;
  let web: WebUi;
  let harness: Harness;
  beforeAll(async () => {
    ({ server: local } = await startBareLocalServer(TOKEN));
    harness = makeBridge({});
    web = await startWebUi({ api: harness.bridge.api, rendererDir: RENDERER, log: harness.logBook.logger('web'), token: TOKEN });
  });
  afterAll(async () => {
    await local?.stop();
    await web?.close();
    await harness?.bridge.stop();
  });

  const headers = (host: string | undefined, more: string[] = []) =>
    [...(host === undefined ? [] : [`Host: ${host}`]), ...more, 'Connection: close'].map((h) => `${h}\r\n`).join('');
  /** What each server answers a request naming `host` (and coming from `origin`): true when it is served. */
  async function answers(host: (port: number) => string | undefined, origin?: (port: number) => string | undefined) {
    const originHeader = (port: number) => {
      const value = origin?.(port);
      return value === undefined ? [] : [`Origin: ${value}`];
    };
    const version = host(0) === undefined ? 'HTTP/1.0' : 'HTTP/1.1';
    const status = await statusOf(
      local.port,
      `GET /status ${version}\r\n${headers(host(local.port), [`Authorization: Bearer ${TOKEN}`, ...originHeader(local.port)])}\r\n`,
    );
    const page = await statusOf(web.port, `GET / ${version}\r\n${headers(host(web.port))}\r\n`);
    const upgrade = [
      'Upgrade: websocket',
      'Connection: Upgrade',
      'Sec-WebSocket-Version: 13',
      'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==',
    ];
    const api = await statusOf(
      web.port,
      `GET /api?token=${TOKEN} HTTP/1.1\r\n${[...(host(web.port) === undefined ? [] : [`Host: ${host(web.port)}`]), ...upgrade, ...originHeader(web.port)].map((h) => `${h}\r\n`).join('')}\r\n`,
    );
    return { local: status === 200, page: page === 200, api: api === 101, statuses: [status, page, api] };
  }

  it('refuse and accept the same Host headers', async () => {
    for (const [host, named] of HOSTS) {
      const answer = await answers(
        (port) => fill(host, port),
        (port) => `http://${fill(host, port)}`,
      );
      expect({ host, local: answer.local, page: answer.page, api: answer.api }, `statuses ${answer.statuses.join(', ')}`).toEqual({
        host,
        local: named,
        page: named,
        api: named,
      });
    }
    // No Host at all (HTTP/1.0 may leave it out; Node itself answers 400 to HTTP/1.1 without one).
    expect(await answers(() => undefined)).toMatchObject({ local: false, page: false, api: false });
  });

  it('take Origins by their own rule, parsed the same way', async () => {
    for (const [origin, allowed] of ORIGINS) {
      const answer = await answers(
        (port) => `127.0.0.1:${port}`,
        (port) => (origin === undefined ? undefined : fill(origin, port)),
      );
      expect({ origin, local: answer.local, api: answer.api }, `statuses ${answer.statuses.join(', ')}`).toEqual({
        origin,
        local: allowed.local,
        api: allowed.web,
      });
    }
    // The web UI's page, named in upper case, is still its own page.
    const upper = await answers(
      (port) => `LOCALHOST:${port}`,
      (port) => `http://localhost:${port}`,
    );
    expect(upper).toMatchObject({ local: true, page: true, api: true });
  });
});
