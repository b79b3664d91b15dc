import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

import { expect } from 'vitest';

import { FIXTURE } from '../helpers/bridge-harness';
import { CLI_SCRIPT, cliEnv } from '../helpers/cli-env';
import { type FakeSession, FakeXiaozhi } from '../helpers/fake-xiaozhi';
import { stopChild } from '../helpers/stop-child';
import { scaled } from '../helpers/time-scale';
import { waitFor } from '../helpers/wait';

/** A small seeded generator: the same junk every run, so a failure can be replayed. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One malformed (or hostile but well-formed) frame from the endpoint. */
function junkFrame(random: () => number, n: number): string | Buffer {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
  const text = (length: number) => Array.from({ length }, () => String.fromCharCode(32 + Math.floor(random() * 95))).join('');
  const call = (extra: Record<string, unknown>) => JSON.stringify({ jsonrpc: '2.0', method: 'tools/call', ...extra });
  const makers: (() => string | Buffer)[] = [
    () => text(1 + Math.floor(random() * 300)),
    () =>
      JSON.stringify({ jsonrpc: '2.0', id: n, method: 'tools/call', params: { name: 'echo', arguments: { text: 'x' } } }).slice(
        0,
        1 + Math.floor(random() * 60),
      ),
    () => pick(['1', '"str"', 'null', 'true', '[]', '[1,2,{}]', '{}', '""']),
    () => JSON.stringify({ id: n, method: 'ping' }),
    () => JSON.stringify({ jsonrpc: '1.0', id: n, method: 'ping' }),
    () =>
      `{"jsonrpc":"2.0","id":${pick(['{}', '[]', 'true', '1.5', '1e308', '-0', '9007199254740993', `"${'i'.repeat(5000)}"`])},"method":"ping"}`,
    () => JSON.stringify({ jsonrpc: '2.0', id: n, method: pick([42, null, '', 'tools/unknown', 'x'.repeat(2000), 'rpc.discover']) }),
    () =>
      JSON.stringify({
        jsonrpc: '2.0',
        id: n,
        method: 'tools/list',
        params: pick([[], 'p', 7, { cursor: 12 }, { cursor: 'z'.repeat(3000) }, { cursor: '\u0000' }]),
      }),
    () =>
      call({
        id: n,
        params: pick([
          {},
          { name: 5 },
          { name: 'n'.repeat(10_000) },
          { name: 'echo', arguments: [1] },
          { name: 'echo', arguments: 'a' },
          { name: 'nope' },
        ]),
      }),
    () => `${'['.repeat(10_000)}${']'.repeat(10_000)}`,
    () => `{"jsonrpc":"2.0","id":${n},"method":"tools/call","params":{"name":"echo","arguments":{"__proto__":{"text":"polluted"}}}}`,
    () => JSON.stringify({ jsonrpc: '2.0', id: 100_000 + n, result: { blob: 'b'.repeat(Math.floor(random() * 300_000)) } }),
    () => JSON.stringify({ jsonrpc: '2.0', id: n, error: { code: 'x', message: 5 } }),
    () => Buffer.from(Array.from({ length: 1 + Math.floor(random() * 200) }, () => Math.floor(random() * 256))),
    () =>
      JSON.stringify({
        jsonrpc: '2.0',
        method: 'notifications/cancelled',
        params: pick([{}, { requestId: {} }, { requestId: n * 7 }, { requestId: 'r'.repeat(1000) }]),
      }),
    () =>
      JSON.stringify({
        jsonrpc: '2.0',
        id: n,
        method: 'initialize',
        params: pick([
          {},
          { protocolVersion: 1 },
          { protocolVersion: '2024-11-05', capabilities: {}, clientInfo: { name: 'again', version: '1' } },
        ]),
      }),
    () =>
      JSON.stringify({
        jsonrpc: '2.0',
        method: pick(['notifications/initialized', 'notifications/unknown', 'notifications/progress']),
        params: pick([undefined, {}, { progressToken: n }]),
      }),
    () => JSON.stringify({ jsonrpc: '2.0', id: n, method: 'ping', params: { pad: 'p'.repeat(Math.floor(random() * 1_000_000)) } }),
  ];
  return pick(makers)();
}

/** Invalid UTF-8 sent as a text frame (not a binary one): ws would close the connection for it. */
function invalidUtf8Text(session: FakeSession): void {
  session.socket.send(Buffer.from([0x7b, 0xc0, 0xaf, 0xff, 0xfe, 0x7d]), { binary: false });
}

/** A raw HTTP request, exactly as written; resolves with the status line's code, or 0 if closed. */
function rawHttp(port: number, request: string | Buffer): Promise<number> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(request));
    let head = '';
    const timer = setTimeout(() => socket.destroy(), scaled(5000));
    socket.on('data', (d: Buffer) => {
      head += d.toString('latin1');
      const match = /^HTTP\/1\.[01] (\d{3})/.exec(head);
      if (match) {
        clearTimeout(timer);
        socket.destroy();
        resolve(Number(match[1]));
      }
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(0);
    });
  });
}

function junkRequest(random: () => number, port: number): string | Buffer {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
  const host = `Host: 127.0.0.1:${port}\r\n`;
  const upgrade =
    'Connection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n';
  const target = pick([
    '/%',
    '/%C0',
    '/%E0%A4%A',
    '/%00',
    'http://[',
    '//x',
    '/..%2f..%2fetc/passwd',
    '/assets/%ff',
    `/${'a'.repeat(9000)}`,
    '*',
    '/api?token=%ZZ',
    'http://[::1',
    '/\u00ff\u00fe',
    '/api',
  ]);
  const method = pick(['GET', 'HEAD', 'POST', 'DELETE', 'OPTIONS', 'BREW', 'G\u00c9T', '']);
  const extra = pick([
    '',
    upgrade,
    `${upgrade}Origin: http://evil.example\r\n`,
    `${upgrade}Origin: http://127.0.0.1:${port}\r\n`,
    'Content-Length: -1\r\n',
    'Transfer-Encoding: chunked\r\n',
    `X-Big: ${'h'.repeat(20_000)}\r\n`,
  ]);
  return pick([
    `${method} ${target} HTTP/1.1\r\n${host}${extra}\r\n`,
    `${method} ${target} HTTP/1.1\r\n${extra}\r\n`,
    `${target} HTTP/9.9\r\n\r\n`,
    Buffer.from(Array.from({ length: 1 + Math.floor(random() * 300) }, () => Math.floor(random() * 256))),
    `GET / HTTP/1.1\r\n${host}Host: evil\r\n\r\n`,
  ]);
}

function rssMb(pid: number): number | undefined {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]);
    return kb / 1024;
  } catch {
    return undefined;
  }
}

/**
 * Runs the CLI (`run --ui`) against a fake xiaozhi, sends it `frames` malformed (or hostile but
 * well-formed) frames with a valid call after every ten, then `requests` malformed HTTP requests to
 * its web UI; it must answer every valid call, keep its one session, serve no 5xx, and keep its
 * memory and output bounded. The same seed every run, so a failure can be replayed.
 */
export async function fuzzTheRunningCli({ frames, requests }: { frames: number; requests: number }): Promise<void> {
  const xiaozhi = await FakeXiaozhi.start();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'xt-fuzz-'));
  try {
    const config = path.join(dir, 'tray.json');
    fs.writeFileSync(
      config,
      JSON.stringify({
        endpoints: [{ id: 'e', name: 'fuzz', url: xiaozhi.url() }],
        servers: [{ name: 'fx', transport: 'stdio', command: process.execPath, args: [FIXTURE], env: { FIXTURE_NAME: 'fx' } }],
      }),
    );
    const proc = spawn(process.execPath, [CLI_SCRIPT, 'run', '--config', config, '--ui', '--log-level', 'error'], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: cliEnv(),
    });
    try {
      let stdout = '';
      let stdoutBytes = 0;
      proc.stdout?.on('data', (d: Buffer) => {
        stdoutBytes += d.length;
        if (stdout.length < 10_000) stdout += d.toString();
      });
      proc.stderr?.resume();
      await waitFor(() => /http:\/\/127\.0\.0\.1:(\d+)\//.test(stdout), 20_000, 'the web UI address');
      const port = Number(/http:\/\/127\.0\.0\.1:(\d+)\//.exec(stdout)?.[1]);
      const session = await xiaozhi.connection(0, 20_000);
      await session.initialize();
      session.record = false;
      const idle = rssMb(proc.pid!);

      const random = prng(20261129);
      let checked = 0;
      for (let i = 0; i < frames; i++) {
        if (i % 97 === 0) invalidUtf8Text(session);
        else session.sendRaw(junkFrame(random, i) as string);
        if (i % 10 === 9) {
          const id = 1_000_000 + i;
          const answer = await session.request(id, 'tools/call', { name: 'echo', arguments: { text: `call ${i}` } }, 15_000);
          expect(answer.result?.content?.[0]?.text).toBe(`fx: call ${i}`);
          checked++;
        }
      }
      expect(checked).toBe(Math.floor(frames / 10));

      const statuses: number[] = [];
      for (let i = 0; i < requests; i++) statuses.push(await rawHttp(port, junkRequest(random, port)));
      expect(proc.exitCode).toBeNull();
      // The page is still served and the endpoint still answers.
      expect(await rawHttp(port, `GET / HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`)).toBe(200);
      const last = await session.request(2_000_000, 'tools/call', { name: 'echo', arguments: { text: 'after' } }, 15_000);
      expect(last.result?.content?.[0]?.text).toBe('fx: after');
      expect(xiaozhi.sessions).toHaveLength(1);
      expect(statuses.filter((s) => s >= 500)).toEqual([]);

      const after = rssMb(proc.pid!);
      if (idle !== undefined && after !== undefined) expect(after).toBeLessThan(Math.max(200, idle * 2.5));
      // Its output stays bounded too (warnings are logged, at error level none are printed).
      expect(stdoutBytes).toBeLessThan(100_000);
    } finally {
      await stopChild(proc);
    }
  } finally {
    await xiaozhi.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
