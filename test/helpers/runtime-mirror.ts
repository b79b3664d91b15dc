import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';

import { expect } from 'vitest';

import { ProblemError } from '../../src/main/core/problems/server-problems';
import type { ArchivePin } from '../../src/main/core/runtimes/runtime-pins';
import { type RuntimeSource, runtimeSource } from '../../src/main/core/runtimes/runtime-sources';
import type { MirrorUrls } from '../../src/shared/mirrors';
import type { RuntimeName } from '../../src/shared/runtime-need';
import { FIXTURE } from './bridge-harness';

const ROOT = path.resolve(__dirname, '../..');
const CACHE = path.join(ROOT, 'node_modules', '.cache', 'runtime-stand-ins');

export const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

/**
 * A Node.js release for this OS and CPU, shaped as the official one (`node-vX-os-arch/bin/node`
 * in a .tar.xz), made of the Node binary running the tests (there is no internet here). Built once
 * and kept in node_modules/.cache: compressing ~100 MB takes a while. Its `bin/npx` is a stand-in
 * that starts as the real one does (`#!/usr/bin/env node`, so found through PATH) and runs the
 * MCP server named by STANDIN_NPX_SERVER in its place.
 */
export function nodeStandIn(): { source: RuntimeSource; archive: Buffer } {
  const source = runtimeSource('node', {})!;
  const file = path.join(CACHE, `${source.archive}-from-${process.version}-with-npx`);
  if (!fs.existsSync(file)) {
    const work = fs.mkdtempSync(path.join(os.tmpdir(), 'xt-node-standin-'));
    try {
      const bin = path.join(work, source.folder, 'bin');
      fs.mkdirSync(bin, { recursive: true });
      fs.copyFileSync(process.execPath, path.join(bin, 'node'));
      fs.chmodSync(path.join(bin, 'node'), 0o755);
      const npx = "#!/usr/bin/env node\nimport(require('node:url').pathToFileURL(process.env.STANDIN_NPX_SERVER).href);\n";
      fs.writeFileSync(path.join(bin, 'npx'), npx, { mode: 0o755 });
      fs.mkdirSync(CACHE, { recursive: true });
      const flag = source.archive.endsWith('.tar.xz') ? '-cJf' : '-czf';
      execFileSync('tar', [flag, `${file}.tmp`, '-C', work, source.folder], { env: { ...process.env, XZ_OPT: '-0 -T0', GZIP: '-1' } });
      fs.renameSync(`${file}.tmp`, file);
    } finally {
      fs.rmSync(work, { recursive: true, force: true });
    }
  }
  return { source, archive: fs.readFileSync(file) };
}

/**
 * A stand-in uv release (`uv-<target>/uv` and `uvx` in a .tar.gz): `uvx` runs the fixture MCP
 * server with this test's Node by its full path, `uv --version` says the version; plus 1 MB of
 * noise, so a download can be cut in the middle.
 */
export function uvStandIn(): { source: RuntimeSource; archive: Buffer } {
  const source = runtimeSource('uv', {})!;
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'xt-uv-standin-'));
  try {
    const top = path.join(work, source.folder.replace(`uv-${source.version}-`, 'uv-'));
    fs.mkdirSync(top);
    fs.writeFileSync(path.join(top, 'uv'), `#!/bin/sh\necho "uv ${source.version} (stand-in)"\n`, { mode: 0o755 });
    fs.writeFileSync(path.join(top, 'uvx'), `#!/bin/sh\nexec "${process.execPath}" "${FIXTURE}"\n`, { mode: 0o755 });
    fs.writeFileSync(path.join(top, 'noise.bin'), randomBytes(1024 * 1024));
    const file = path.join(work, source.archive);
    execFileSync('tar', ['-czf', file, '-C', work, path.basename(top)]);
    return { source, archive: fs.readFileSync(file) };
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/** The problem a runtime store's `ensure` failed with (it fails the test if it did not). */
export async function fetchFailure(ensure: Promise<unknown>): Promise<ProblemError> {
  const error = await ensure.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ProblemError);
  return error as ProblemError;
}

export interface RuntimeMirror {
  /** The download sources that point at this mirror. */
  urls: MirrorUrls;
  /** Paths asked for, with the Range header when there was one. */
  requests: { path: string; range: string | undefined }[];
  /** The next answer for this runtime's archive sends `bytes` bytes of its body, then the connection is cut. */
  cutNext(runtime: RuntimeName, bytes: number): void;
  /** Answers for this runtime's archive wait until `release` is called. */
  hold(runtime: RuntimeName): () => void;
  close(): Promise<void>;
}

/**
 * The SHA-256 and size of the given stand-ins, as the app pins its real runtimes' (a test's store
 * takes them instead), with a bound a little over the size, as the app's Node.js pins have.
 */
export function pinsOf(...standIns: { source: RuntimeSource; archive: Buffer }[]): Map<string, ArchivePin> {
  return new Map(
    standIns.map(({ source, archive }) => [
      source.pinKey,
      { sha256: sha256(archive), maxBytes: archive.length + 64 * 1024, size: archive.length },
    ]),
  );
}

export interface HostileMirror {
  urls: MirrorUrls;
  /** Bytes written to each path's answers so far. */
  sent: Map<string, number>;
  close(): Promise<void>;
}

/**
 * A mirror on 127.0.0.1 whose every answer (archive, checksum file, index page) is 200 with a body
 * that does not end: as fast as the socket takes it ('endless', up to `capBytes`, so a client that
 * reads it all still ends), or a byte every `everyMs` ('slow', a slow-loris). `sent` counts what went out.
 */
export async function startHostileMirror(
  mode: 'endless' | 'slow',
  options: { capBytes?: number; everyMs?: number } = {},
): Promise<HostileMirror> {
  const sent = new Map<string, number>();
  const timers = new Set<NodeJS.Timeout>();
  const cap = options.capBytes ?? 256 * 1024 * 1024;
  const chunk = Buffer.alloc(64 * 1024, 0x61);
  const server = http.createServer((req, res) => {
    const url = req.url ?? '/';
    res.writeHead(200, { 'Content-Type': 'application/octet-stream' });
    const count = (n: number) => sent.set(url, (sent.get(url) ?? 0) + n);
    if (mode === 'slow') {
      const timer = setInterval(() => {
        if (res.destroyed) return void (clearInterval(timer), timers.delete(timer));
        res.write('a');
        count(1);
      }, options.everyMs ?? 20);
      timers.add(timer);
      return;
    }
    const pump = () => {
      while (!res.destroyed && (sent.get(url) ?? 0) < cap) {
        count(chunk.length);
        if (!res.write(chunk)) return void res.once('drain', pump);
      }
      if (!res.destroyed) res.end();
    };
    pump();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    urls: { nodeDist: `${base}/node/`, uvDownload: `${base}/uv/`, uvIndex: `${base}/simple/` },
    sent,
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearInterval(timer);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * A mirror on 127.0.0.1 laid out as nodejs.org/dist and uv's GitHub releases, serving the given
 * archives with checksum files that match them (as a hostile mirror serving its own build would:
 * the app asks for none); it honours Range requests as both do.
 */
export async function startRuntimeMirror(
  archives: Partial<Record<RuntimeName, { source: RuntimeSource; archive: Buffer }>>,
): Promise<RuntimeMirror> {
  const files = new Map<string, { data: Buffer; runtime?: RuntimeName }>();
  const checksum = sha256;
  if (archives.node?.source.format === 'archive') {
    const { source, archive } = archives.node;
    const dir = `/node/v${source.version}/`;
    files.set(dir + source.archive, { data: archive, runtime: 'node' });
    const other = `${'0'.repeat(64)}  node-v${source.version}-aix-ppc64.tar.gz\n`;
    files.set(`${dir}SHASUMS256.txt`, { data: Buffer.from(`${other}${checksum(archive)}  ${source.archive}\n`) });
  }
  if (archives.uv?.source.format === 'archive') {
    const { source, archive } = archives.uv;
    const file = `/uv/${source.version}/${source.archive}`;
    files.set(file, { data: archive, runtime: 'uv' });
    files.set(`${file}.sha256`, { data: Buffer.from(`${checksum(archive)} *${source.archive}\n`) });
  }
  const requests: RuntimeMirror['requests'] = [];
  const cuts = new Map<RuntimeName, number>();
  const holds = new Map<RuntimeName, Promise<void>>();
  const server = http.createServer((req, res) => {
    const url = req.url ?? '/';
    requests.push({ path: url, range: req.headers.range });
    const file = files.get(url);
    if (!file) return void res.writeHead(404).end('not found');
    const send = () => {
      const range = /^bytes=(\d+)-$/.exec(req.headers.range ?? '');
      const start = range ? Number(range[1]) : 0;
      if (start >= file.data.length) return void res.writeHead(416, { 'Content-Range': `bytes */${file.data.length}` }).end();
      const body = file.data.subarray(start);
      res.writeHead(range ? 206 : 200, {
        'Content-Length': body.length,
        'Content-Type': 'application/octet-stream',
        ...(range ? { 'Content-Range': `bytes ${start}-${file.data.length - 1}/${file.data.length}` } : {}),
      });
      const cut = file.runtime !== undefined ? cuts.get(file.runtime) : undefined;
      if (cut !== undefined && file.runtime) {
        cuts.delete(file.runtime);
        res.write(body.subarray(0, cut), () => res.socket?.destroy());
        return;
      }
      res.end(body);
    };
    const held = file.runtime ? holds.get(file.runtime) : undefined;
    if (held) void held.then(send);
    else send();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    urls: { nodeDist: `${base}/node/`, uvDownload: `${base}/uv/` },
    requests,
    cutNext: (runtime, bytes) => void cuts.set(runtime, bytes),
    hold: (runtime) => {
      let release = () => {};
      holds.set(runtime, new Promise<void>((resolve) => (release = resolve)));
      return () => {
        holds.delete(runtime);
        release();
      };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
