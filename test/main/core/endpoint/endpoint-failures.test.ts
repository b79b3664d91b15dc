import http from 'node:http';
import net from 'node:net';

import { afterEach, describe, expect, it } from 'vitest';

import { fastConnection, logText, makeBridge, withEndpointTeardown } from '../../../helpers/bridge-harness';
import { FakeXiaozhi } from '../../../helpers/fake-xiaozhi';
import { startTricklingUpgrade } from '../../../helpers/trickling-upgrade';
import { waitFor } from '../../../helpers/wait';

const ctx = withEndpointTeardown(afterEach);
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** Retries at least 2 s apart (a tenth of the base): the status between two attempts can be read. */
const slowRetries = { ...fastConnection, reconnectBaseMs: 20_000, reconnectMaxMs: 20_000 };

const endpoint = () => ctx.harness!.bridge.state().endpoints[0]!;

async function waiting(what: string) {
  await waitFor(() => endpoint().state === 'waiting', 10_000, what);
  return endpoint();
}

async function bridgeTo(url: string, input: Parameters<typeof makeBridge>[0] = {}) {
  ctx.harness = makeBridge({ endpoints: [{ id: 'e', name: 'home', url }], connection: slowRetries, ...input });
  ctx.harness.bridge.start();
}

async function listen(server: http.Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  closers.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return (server.address() as net.AddressInfo).port;
}

describe('why an endpoint connection ended, recorded where it happened', () => {
  it.each([
    {
      code: 4004,
      reason: 'Internal server error',
      cause: 'endpoint.idle',
      text: 'closed with code 4004 (xiaozhi internal server error (idle or broken session)): Internal server error',
    },
    { code: 4100, reason: 'bye', cause: 'endpoint.closed', text: 'closed with code 4100: bye' },
  ])(
    'xiaozhi closing with $code: the $cause cause with its code, and the close in the English text',
    async ({ code, reason, cause, text }) => {
      ctx.xiaozhi = await FakeXiaozhi.start();
      await bridgeTo(ctx.xiaozhi.url());
      const session = await ctx.xiaozhi.connection(0);
      await session.initialize();
      session.socket.close(code, reason);
      const status = await waiting(`the retry after ${code}`);
      expect(status.lastErrorCause).toEqual({ code: cause, params: { code } });
      expect(status.lastError).toBe(text);
    },
  );

  it('a token xiaozhi cannot read (1008 "token解密失败"): says the token is wrong and waits long, not 20 tries in 5 s', async () => {
    ctx.xiaozhi = await FakeXiaozhi.start();
    // The defaults: a 0.5 s base and a 60 s cap.
    await bridgeTo(ctx.xiaozhi.url(), { connection: { ...fastConnection, reconnectBaseMs: 500, reconnectMaxMs: 60_000 } });
    const session = await ctx.xiaozhi.connection(0);
    session.socket.close(1008, 'token解密失败');
    const status = await waiting('the retry after the refused token');
    expect(status.lastErrorCause).toEqual({ code: 'endpoint.tokenRejected', params: { code: 1008 } });
    expect(status.lastError).toBe(
      'xiaozhi refused the token in the endpoint URL (closed with code 1008: token解密失败): copy the MCP endpoint URL again from the xiaozhi console',
    );
    // Before: retried within 0.1-0.5 s, 20 cycles in 5 s.
    expect((status.retryAt ?? 0) - Date.now()).toBeGreaterThan(30_000);
  });

  it('the first retries after a drop are not a tenth of a second apart', async () => {
    ctx.xiaozhi = await FakeXiaozhi.start();
    await bridgeTo(ctx.xiaozhi.url(), { connection: { ...fastConnection, reconnectBaseMs: 1000, reconnectMaxMs: 60_000 } });
    // Six drops: with the old floor, each had even odds of a retry under half the base.
    for (let i = 0; i < 6; i++) {
      const session = await ctx.xiaozhi.connection(i, 20_000);
      const before = Date.now();
      session.socket.close(4100, 'bye');
      const status = await waiting(`retry ${i}`);
      // Before: as little as 0.1 s (a tenth of the base); now at least half the base.
      expect((status.retryAt ?? 0) - before).toBeGreaterThanOrEqual(500);
    }
  });

  it('an endpoint that stops answering pings: "no answer to a ping", not the 1006 close it led to', async () => {
    ctx.xiaozhi = await FakeXiaozhi.start({ autoPong: false });
    await bridgeTo(ctx.xiaozhi.url());
    const status = await waiting('the silent connection to be dropped');
    expect(status.lastErrorCause).toMatchObject({ code: 'endpoint.noPong' });
    expect(status.lastError).toBe(`no answer to a ping within ${fastConnection.heartbeatTimeoutMs} ms`);
    expect(logText(ctx.harness!.logBook)).toContain(
      `no answer to a ping within ${fastConnection.heartbeatTimeoutMs} ms; the connection is dead`,
    );
  });

  it('a frame over the incoming limit: a cause of its own, with the limit', async () => {
    ctx.xiaozhi = await FakeXiaozhi.start();
    await bridgeTo(ctx.xiaozhi.url(), { limits: { maxIncomingBytes: 65_536 } });
    const session = await ctx.xiaozhi.connection(0);
    await session.initialize();
    session.sendRaw(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: 'p'.repeat(100_000) } }));
    const status = await waiting('the oversized frame to end the connection');
    expect(status.lastErrorCause).toEqual({ code: 'endpoint.tooBig', params: { kb: 64 } });
    expect(status.lastError).toBe('the endpoint sent a message over the 64 KB limit (limits.maxIncomingBytes)');
  });

  it('an HTTP refusal: the status code as the cause, the status text and what to do in the English text', async () => {
    const port = await listen(http.createServer((_req, res) => res.writeHead(403, 'Forbidden').end()));
    await bridgeTo(`ws://127.0.0.1:${port}/mcp/?token=abc`);
    const status = await waiting('the refused attempt');
    expect(status.lastErrorCause).toEqual({ code: 'http.forbidden', params: { status: 403 } });
    expect(status.lastError).toBe(
      'the endpoint answered HTTP 403 Forbidden: the token in the endpoint URL is probably wrong or expired; copy the MCP endpoint URL again from the xiaozhi console',
    );
  });

  it('a refused connection: told from the socket error itself, with its own words in the English text', async () => {
    const port = await FakeXiaozhi.freePort();
    await bridgeTo(`ws://127.0.0.1:${port}/mcp/?token=abc`);
    const status = await waiting('the refused attempt');
    expect(status.lastErrorCause).toEqual({ code: 'net.refused', params: { host: '127.0.0.1', port: String(port) } });
    expect(status.lastError).toBe(`connect ECONNREFUSED 127.0.0.1:${port}`);
    expect(logText(ctx.harness!.logBook)).toMatch(new RegExp(`connect ECONNREFUSED 127\\.0\\.0\\.1:${port}; retrying in \\d+\\.\\d s`));
  });

  it('an upgrade answered a byte at a time: given up at the connect timeout and retried, not connecting for ever', async () => {
    const trickle = await startTricklingUpgrade();
    closers.push(() => trickle.close());
    await bridgeTo(trickle.url, { connection: { ...slowRetries, connectTimeoutMs: 500 } });
    const status = await waiting('the attempt given up');
    expect(status.lastErrorCause?.code).toBe('net.timeout');
  });

  it('names the host as the endpoint URL has it, not the address it resolved to', async () => {
    const port = await FakeXiaozhi.freePort();
    await bridgeTo(`ws://localhost:${port}/mcp/?token=abc`);
    const status = await waiting('the refused attempt');
    expect(status.lastErrorCause).toEqual({ code: 'net.refused', params: { host: 'localhost', port: String(port) } });
  });
});
