import http from 'node:http';

import { afterEach, describe, expect, it } from 'vitest';

import { type Harness, logText, makeBridge } from '../../../helpers/bridge-harness';
import { hostileWith, refusingInitialize } from '../../../helpers/hostile-server';
import { type RawMcpHttp, startRawMcpHttp } from '../../../helpers/raw-mcp-http';
import { waitFor } from '../../../helpers/wait';

let harness: Harness | undefined;
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await harness?.bridge.stop();
  harness = undefined;
  for (const close of closers.splice(0)) await close();
});

const supervision = { restartBaseMs: 50, restartMaxMs: 100, healthIntervalMs: 0, startTimeoutMs: 10_000, stopGraceMs: 500 };
const server = () => harness!.bridge.state().servers[0]!;

async function raw(answer: Parameters<typeof startRawMcpHttp>[0]): Promise<RawMcpHttp> {
  const fixture = await startRawMcpHttp(answer);
  closers.push(fixture.close);
  return fixture;
}

async function refusingSse(status: number): Promise<string> {
  const requests: string[] = [];
  const sse = http.createServer((req, res) => {
    requests.push(req.url ?? '');
    res.writeHead(status, { 'Content-Type': 'application/json' }).end('{"error":"forbidden"}');
  });
  await new Promise<void>((resolve) => sse.listen(0, '127.0.0.1', () => resolve()));
  closers.push(() => new Promise<void>((resolve) => (sse.closeAllConnections(), sse.close(() => resolve()))));
  return `http://127.0.0.1:${(sse.address() as { port: number }).port}/sse`;
}

describe('remote servers that can never work as configured fail once, with what to do', () => {
  it('a streamable-HTTP server that answers 401 is failed at once (not retried for ever), with a plain reason', async () => {
    const refusing = await raw((_message, res) => {
      res
        .writeHead(401, { 'Content-Type': 'application/json' })
        .end('{"error":"invalid_token","error_description":"The access token expired"}');
      return true;
    });
    harness = makeBridge(
      {
        servers: [
          { name: 'remote', transport: 'streamable-http', url: refusing.url, headers: { Authorization: 'Bearer expired-token-123' } },
        ],
      },
      supervision,
    );
    harness.bridge.start();
    await waitFor(() => server().state === 'failed', 5000, 'the server to be failed');
    expect(server().restarts).toBe(0);
    expect(server().lastErrorCause).toEqual({ code: 'server.authRefused', params: { status: 401 } });
    expect(server().lastError).toBe('the server refused the credentials (HTTP 401): check the token or headers of this server');
    // Not retried: a failure's one log line says what follows it, a restart timer ("restarting in
    // 0.1 s") or none ("not retrying"), so no wait can see more than this line does.
    await harness.bridge.whenServersSettled();
    expect(logText(harness.logBook)).toMatch(/refused the credentials.*; not retrying until it is restarted/);
    expect(logText(harness.logBook)).not.toContain('restarting in');
    expect(logText(harness.logBook).match(/refused the credentials/g)).toHaveLength(1);
    expect(logText(harness.logBook)).not.toContain('expired-token-123');
  });

  it('an SSE server that answers 403 is failed at once too', async () => {
    harness = makeBridge({ servers: [{ name: 'remote', transport: 'sse', url: await refusingSse(403) }] }, supervision);
    harness.bridge.start();
    await waitFor(() => server().state === 'failed', 5000, 'the server to be failed');
    expect(server().lastErrorCause).toEqual({ code: 'server.authRefused', params: { status: 403 } });
    expect(server().restarts).toBe(0);
  });

  it('a server that answers initialize with a protocol version this app does not speak is failed, naming the version', async () => {
    const old = await raw((message, res) => {
      if (message.method !== 'initialize') return false;
      const result = { protocolVersion: '1999-01-01', capabilities: { tools: {} }, serverInfo: { name: 'old', version: '0.1' } };
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }));
      return true;
    });
    harness = makeBridge({ servers: [{ name: 'remote', transport: 'streamable-http', url: old.url }] }, supervision);
    harness.bridge.start();
    await waitFor(() => server().state === 'failed', 5000, 'the server to be failed');
    expect(server().lastErrorCause).toEqual({ code: 'server.protocolUnsupported', params: { version: '1999-01-01' } });
    expect(server().restarts).toBe(0);
  });

  it('a server that refuses our protocol version (JSON-RPC -32602 to initialize) is failed, naming the versions it speaks', async () => {
    harness = makeBridge({ servers: [refusingInitialize('future', -32602)] }, { ...supervision, maxCrashes: 5 });
    harness.bridge.start();
    await waitFor(() => server().state === 'failed', 5000, 'the server to be failed');
    expect(server().lastErrorCause).toEqual({ code: 'server.protocolUnsupported', params: { version: '2099-01-01' } });
    expect(server().restarts).toBe(0);
  });

  it('a header that cannot be sent (a space in its name) is failed at once as a setting to fix', async () => {
    const fine = await raw(() => false);
    harness = makeBridge(
      { servers: [{ name: 'remote', transport: 'streamable-http', url: fine.url, headers: { 'X Api Key': 'k' } }] },
      supervision,
    );
    harness.bridge.start();
    await waitFor(() => server().state === 'failed', 5000, 'the server to be failed');
    expect(server().lastErrorCause).toEqual({ code: 'server.badHeader', params: { name: 'X Api Key' } });
    expect(fine.requests).toEqual([]);
  });

  it('a server error (HTTP 503) is still retried with backoff: it may come back', async () => {
    const busy = await raw((_message, res) => {
      res.writeHead(503).end('{"error":"overloaded"}');
      return true;
    });
    harness = makeBridge({ servers: [{ name: 'remote', transport: 'streamable-http', url: busy.url }] }, supervision);
    harness.bridge.start();
    await waitFor(() => server().restarts >= 2, 10_000, 'retries');
    expect(server().state).toBe('restarting');
    expect(server().lastErrorCause).toEqual({ code: 'http.status', params: { status: 503 } });
  });
});

const hostile = (name: string, init: string) => hostileWith(name, { HOSTILE_INIT: init });

describe('initialize answers the SDK refuses, or out of all proportion', () => {
  it.each(['no-server-info', 'number-version'])('%s: failed once, saying what is wrong in words, not "["', async (shape) => {
    // Before: 'WARN [server:odd] [; restarting in 0.1 s', the status error "[", retried for ever.
    harness = makeBridge({ servers: [hostile('odd', shape)] }, supervision);
    harness.bridge.start();
    await waitFor(() => server().state === 'failed', 20_000, 'the server to fail');
    expect(server().lastError).toMatch(/^its answer to initialize is not valid MCP \(at (serverInfo|protocolVersion)\): /);
    expect(server().lastErrorCause?.code).toBe('server.badInitialize');
    expect(server().restarts).toBe(0);
    expect(logText(harness.logBook)).toContain('not retrying until it is restarted');
  });

  it('a made-up protocol version of 2 MB is not said whole', async () => {
    // Before: a 5,000,332-byte `servers --json` for a 5 MB version: the error held it all, in every status event.
    harness = makeBridge({ servers: [hostile('long', 'huge-version')] }, supervision);
    harness.bridge.start();
    await waitFor(() => server().state === 'failed', 20_000, 'the server to fail');
    expect(server().lastErrorCause?.code).toBe('server.protocolUnsupported');
    expect(server().lastError!.length).toBeLessThan(1000);
    expect(JSON.stringify(harness.bridge.state()).length).toBeLessThan(100_000);
    expect(harness.logBook.entries().every((e) => JSON.stringify(e).length < 10_000)).toBe(true);
  });
});
