import http from 'node:http';
import net from 'node:net';

import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';

import { failureCause, failureText } from '../../../../src/main/core/problems/failure-cause';
import { type Harness, makeBridge } from '../../../helpers/bridge-harness';
import { waitFor } from '../../../helpers/wait';

let harness: Harness | undefined;
const closers: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  await harness?.bridge.stop();
  harness = undefined;
  for (const close of closers.splice(0)) await close();
});

async function listen(server: http.Server | net.Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  closers.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return (server.address() as net.AddressInfo).port;
}

/** A port nothing listens on: bound, then closed. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const wsError = (url: string) =>
  new Promise<Error>((resolve) => {
    const ws = new WebSocket(url);
    ws.on('error', resolve);
    ws.on('unexpected-response', (_req, res) => {
      resolve(new Error(`the endpoint answered HTTP ${res.statusCode}`));
      ws.terminate();
    });
  });
const fetchError = (url: string) =>
  fetch(url).then(
    () => new Error('no error'),
    (e: Error) => e,
  );

describe('failure causes: what failed, as a code the UI can word', () => {
  it('tells refused, DNS, TLS and HTTP refusals apart, from real failures', async () => {
    const port = await closedPort();
    expect(failureCause(await fetchError(`http://127.0.0.1:${port}/mcp`))).toEqual({
      code: 'net.refused',
      params: { host: '127.0.0.1', port: String(port) },
    });
    expect(failureText(await fetchError(`http://127.0.0.1:${port}/mcp`))).toMatch(/^fetch failed: connect ECONNREFUSED/);
    expect(failureCause(await wsError(`ws://127.0.0.1:${port}/`)).code).toBe('net.refused');

    const dns = await fetchError('http://no-such-host.invalid/mcp');
    expect(failureCause(dns, { url: 'http://no-such-host.invalid/mcp' })).toEqual({
      code: 'net.dns',
      params: { host: 'no-such-host.invalid' },
    });

    const plain = await listen(http.createServer((_req, res) => res.writeHead(401).end()));
    expect(failureCause(await fetchError(`https://127.0.0.1:${plain}/`), { url: `https://127.0.0.1:${plain}/` })).toMatchObject({
      code: 'net.tls',
      params: { host: '127.0.0.1', detail: 'not-tls' },
    });
    expect(failureCause(await wsError(`ws://127.0.0.1:${plain}/`))).toEqual({ code: 'http.unauthorized', params: { status: 401 } });
  });

  it('classifies foreign errors by their codes and classes, and leaves our own failures alone (they are problems from the start)', () => {
    expect(failureCause(new Error('spawn npx-typo ENOENT'))).toEqual({ code: 'server.notFound', params: { command: 'npx-typo' } });
    expect(failureCause(new McpError(ErrorCode.ConnectionClosed, 'Connection closed'))).toEqual({ code: 'server.closed', params: {} });
    // The SDK's words without its class are not read as a closed connection.
    expect(failureCause(new Error('Connection closed')).code).toBe('other');
    // Our own English is never parsed back: it is not a source of codes.
    for (const ours of [
      'did not answer initialize within 60000 ms',
      'the program exited before it was ready, with exit code 2 (last stderr: ValueError: bad key)',
      'the program exited with code 7',
      'the program was killed by SIGKILL',
      'ping failed: socket closed',
      'closed with code 4004 (xiaozhi internal server error)',
      'no answer to a ping within 200 ms',
    ]) {
      expect(failureCause(new Error(ours))).toEqual({ code: 'other', params: { detail: ours } });
    }
    expect(failureCause(new Error('something else entirely'))).toEqual({ code: 'other', params: { detail: 'something else entirely' } });
  });
});

describe('failures reach the status as codes', () => {
  it('a remote server that refuses says so, not "fetch failed"', async () => {
    const port = await closedPort();
    harness = makeBridge({ servers: [{ name: 'remote', transport: 'streamable-http', url: `http://127.0.0.1:${port}/mcp` }] });
    harness.bridge.start();
    await waitFor(() => harness!.bridge.state().servers[0]!.restarts >= 1, 10_000, 'a failed attempt');
    const status = harness.bridge.state().servers[0]!;
    expect(status.lastError).toMatch(/ECONNREFUSED/);
    expect(status.lastErrorCause).toEqual({ code: 'net.refused', params: { host: '127.0.0.1', port: String(port) } });
  });

  it('an endpoint that answers 401 says the token was refused', async () => {
    const port = await listen(http.createServer((_req, res) => res.writeHead(401, 'Unauthorized').end()));
    harness = makeBridge({ endpoints: [{ id: 'e', name: 'home', url: `ws://127.0.0.1:${port}/mcp/?token=abc` }] });
    harness.bridge.start();
    await waitFor(() => harness!.bridge.state().endpoints[0]!.attempts >= 1, 5000, 'a refused attempt');
    expect(harness.bridge.state().endpoints[0]!.lastErrorCause).toEqual({ code: 'http.unauthorized', params: { status: 401 } });
  });

  it('a crash-looping server shows its output while it loops, one attempt at a time (no repeated traceback)', async () => {
    const script =
      'process.stderr.write(\'Traceback (most recent call last):\\n  File "server.py", line 3\\nValueError: bad key\\n\'); process.exit(1)';
    harness = makeBridge(
      { servers: [{ name: 'py', transport: 'stdio', command: process.execPath, args: ['-e', script] }] },
      {
        restartBaseMs: 50,
        restartMaxMs: 100,
        crashWindowMs: 10_000,
        maxCrashes: 3,
        startTimeoutMs: 10_000,
        stopGraceMs: 500,
      },
    );
    const seenWhileRestarting: string[][] = [];
    harness.bridge.on('status', (s) => {
      const py = s.servers[0];
      if (py?.state === 'restarting') seenWhileRestarting.push(py.stderrTail);
    });
    harness.bridge.start();
    await waitFor(() => harness!.bridge.state().servers[0]!.state === 'failed', 15_000, 'the crash loop to be detected');
    expect(seenWhileRestarting.some((tail) => tail.join('\n').includes('ValueError: bad key'))).toBe(true);
    const tail = harness.bridge.state().servers[0]!.stderrTail.join('\n');
    expect(tail.match(/Traceback/g)).toHaveLength(1);
    expect(harness.bridge.state().servers[0]!.lastErrorCause).toEqual({
      code: 'server.crashed',
      params: { line: 'ValueError: bad key', code: 1, when: 'starting' },
    });
  });
});
