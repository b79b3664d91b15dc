import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { runtimeSource } from '../../../../src/main/core/runtimes/runtime-sources';
import { RuntimeStore } from '../../../../src/main/core/runtimes/runtime-store';
import { type PypiStandIn, startPypiStandIn, wheelStandIn } from '../../../helpers/pypi-stand-in';
import {
  fetchFailure,
  type HostileMirror,
  pinsOf,
  type RuntimeMirror,
  startHostileMirror,
  startRuntimeMirror,
  uvStandIn,
} from '../../../helpers/runtime-mirror';
import { tempDirs } from '../../../helpers/temp-dirs';

/**
 * A download source that is hostile or broken (issue 30): the app runs only the runtimes whose
 * SHA-256 it carries, reads no more than the pinned size, drops a body that trickles, and unpacks
 * nothing of a wheel but its two programs.
 */

const tempDir = tempDirs('xt-hostile-mirror-');
let mirror: RuntimeMirror | HostileMirror | PypiStandIn | undefined;
afterEach(async () => {
  await mirror?.close();
  mirror = undefined;
});

/** Every file under `dir`, relative to it. */
function filesUnder(dir: string): string[] {
  return fs.existsSync(dir) ? (fs.readdirSync(dir, { recursive: true }) as string[]).sort() : [];
}

/** A Node.js release for this OS and CPU as a mirror could make it: the right name and layout, its own `node`. */
function forgedNode(): { source: NonNullable<ReturnType<typeof runtimeSource>>; archive: Buffer } {
  const source = runtimeSource('node', {})!;
  const work = tempDir();
  fs.mkdirSync(path.join(work, source.folder, 'bin'), { recursive: true });
  fs.writeFileSync(path.join(work, source.folder, 'bin', 'node'), '#!/bin/sh\necho pwned\n', { mode: 0o755 });
  const file = path.join(work, source.archive);
  execFileSync('tar', [source.archive.endsWith('.tar.xz') ? '-cJf' : '-czf', file, '-C', work, source.folder]);
  return { source, archive: fs.readFileSync(file) };
}

/** The most this process's memory (RSS) grew while `work` ran, sampled as it ran. */
async function memoryGrowth<T>(work: () => Promise<T>): Promise<{ result: T; grewBy: number }> {
  const before = process.memoryUsage().rss;
  let peak = before;
  const sample = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
  try {
    const result = await work();
    peak = Math.max(peak, process.memoryUsage().rss);
    return { result, grewBy: peak - before };
  } finally {
    clearInterval(sample);
  }
}

const MiB = 1024 * 1024;

/** uv fetched, with the app's own pins, from an endless source set as `key`: refused as too big; how much went out, and memory's growth. */
async function fetchFromEndless(key: 'uvDownload' | 'uvIndex') {
  const endless = await startHostileMirror('endless');
  mirror = endless;
  const urls = { [key]: endless.urls[key]! };
  const dir = tempDir();
  const store = new RuntimeStore({ dir, sources: () => urls });
  const { result, grewBy } = await memoryGrowth(() => fetchFailure(store.ensure('uv', () => undefined)));
  expect(result.problem.code).toBe('server.runtimeDownloadFailed');
  expect(result.problem.params.reason).toBe('tooBig');
  return { dir, grewBy, sent: endless.sent };
}

describe.skipIf(process.platform === 'win32')('a hostile download source', () => {
  it('its own uv, with its own matching checksum file beside it, is refused: nothing unpacked, nothing kept', async () => {
    mirror = await startRuntimeMirror({ uv: uvStandIn() });
    const dir = tempDir();
    const store = new RuntimeStore({ dir, sources: () => (mirror as RuntimeMirror).urls });
    const refused = await fetchFailure(store.ensure('uv', () => undefined));
    expect(refused.problem.code).toBe('server.runtimeMismatch');
    expect(refused.problem.params).toMatchObject({ runtime: 'uv', host: '127.0.0.1' });
    expect(store.installed('uv')).toBeUndefined();
    expect(filesUnder(dir)).toEqual(['downloads']);
    // The app no longer asks a source for a checksum: it has its own.
    expect((mirror as RuntimeMirror).requests.map((r) => r.path).filter((p) => /sha256|SHASUMS/.test(p))).toEqual([]);
  });

  it('its own Node.js, with its own SHASUMS256.txt, is refused likewise', async () => {
    mirror = await startRuntimeMirror({ node: forgedNode() });
    const dir = tempDir();
    const store = new RuntimeStore({ dir, sources: () => (mirror as RuntimeMirror).urls });
    const refused = await fetchFailure(store.ensure('node', () => undefined));
    expect(refused.problem.code).toBe('server.runtimeMismatch');
    expect(refused.problem.params).toMatchObject({ runtime: 'Node.js', version: '22.12.0' });
    expect(filesUnder(dir)).toEqual(['downloads']);
  });

  it('an archive that never ends: no more than the pinned size is read, its .part is deleted, and memory stays small', async () => {
    const { dir, grewBy, sent: sentTo } = await fetchFromEndless('uvDownload');
    const sent = [...sentTo.values()].reduce((a, b) => a + b, 0);
    // uv's archives are pinned at under 40 MiB; what the socket buffers on both sides comes on top.
    expect(sent).toBeLessThan(48 * MiB);
    expect(grewBy).toBeLessThan(64 * MiB);
    expect(filesUnder(dir)).toEqual(['downloads']);
  }, 60_000);

  it('a PyPI index page that never ends is read up to a bound, and memory stays small', async () => {
    const { dir, grewBy, sent } = await fetchFromEndless('uvIndex');
    expect(sent.get('/simple/uv/')).toBeGreaterThan(0);
    expect(sent.get('/simple/uv/')).toBeLessThan(24 * MiB);
    expect(grewBy).toBeLessThan(96 * MiB);
    expect(filesUnder(dir)).toEqual(['downloads']);
  }, 60_000);

  it('an archive that trickles a byte at a time is dropped as too slow, though bytes keep coming', async () => {
    mirror = await startHostileMirror('slow', { everyMs: 5 });
    const urls = { uvDownload: mirror.urls.uvDownload! };
    const dir = tempDir();
    const store = new RuntimeStore({ dir, sources: () => urls, idleTimeoutMs: 500 });
    const slow = await fetchFailure(store.ensure('uv', () => undefined));
    expect(slow.problem.code).toBe('server.runtimeDownloadFailed');
    expect(slow.problem.params.reason).toBe('tooSlow');
    expect(store.installed('uv')).toBeUndefined();
    expect(filesUnder(dir).filter((f) => !f.startsWith('downloads'))).toEqual([]);
  }, 60_000);

  it("a wheel's path escapes are never written: only its two programs are taken, as files named by the app", async () => {
    const hostile = wheelStandIn({
      extra: [
        { name: '../../../escaped-by-wheel', data: 'pwned' },
        { name: `uv-${wheelStandIn().source.version}.data/scripts/../../../../escaped-too`, data: 'pwned' },
        { name: '/tmp/absolute-from-wheel', data: 'pwned' },
      ],
    });
    mirror = await startPypiStandIn([{ name: hostile.source.archive, data: hostile.archive }]);
    const root = tempDir();
    const dir = path.join(root, 'a', 'b', 'store');
    const urls = { uvIndex: mirror.index };
    // Pinned as if it were genuine (the hash stops a hostile wheel first): the unpack holds on its own.
    const store = new RuntimeStore({ dir, sources: () => urls, pins: pinsOf(hostile) });
    const ready = await store.ensure('uv', () => undefined);
    expect(filesUnder(root)).toEqual(
      [
        'a',
        'a/b',
        'a/b/store',
        'a/b/store/downloads',
        `a/b/store/${hostile.source.folder}`,
        `a/b/store/${hostile.source.folder}/uv`,
        `a/b/store/${hostile.source.folder}/uvx`,
      ].sort(),
    );
    expect(ready.binDir).toBe(path.join(dir, hostile.source.folder));
    expect(fs.existsSync('/tmp/absolute-from-wheel')).toBe(false);
  });

  it('a wheel whose program is a symbolic link is refused, and nothing is kept', async () => {
    const { version } = wheelStandIn().source;
    const data = `uv-${version}.data/scripts/`;
    const hostile = wheelStandIn({
      scripts: [
        { name: `${data}uv`, data: '/bin/sh', symlink: true, mode: 0o777 },
        { name: `${data}uvx`, data: '#!/bin/sh\necho pwned\n', mode: 0o755 },
      ],
    });
    mirror = await startPypiStandIn([{ name: hostile.source.archive, data: hostile.archive }]);
    const dir = tempDir();
    const urls = { uvIndex: mirror.index };
    const store = new RuntimeStore({ dir, sources: () => urls, pins: pinsOf(hostile) });
    const refused = await fetchFailure(store.ensure('uv', () => undefined));
    expect(refused.problem.code).toBe('server.runtimeDownloadFailed');
    expect(String(refused.problem.params.reason)).toMatch(/symbolic link/);
    expect(store.installed('uv')).toBeUndefined();
    expect(filesUnder(dir)).toEqual(['downloads']);
  });

  it('is followed through a redirect only to https (or this machine): never on to plain http elsewhere', async () => {
    const uv = uvStandIn();
    const real = await startRuntimeMirror({ uv });
    mirror = real;
    // A front that sends /uv/… on to the mirror (another port here), and anything else to plain http elsewhere.
    const front = http.createServer((req, res) => {
      const url = req.url ?? '/';
      res
        .writeHead(302, { Location: url.startsWith('/uv/') ? `${real.urls.uvDownload}${url.slice(4)}` : `http://files.example.com${url}` })
        .end();
    });
    await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(front.address() as AddressInfo).port}`;
    try {
      const through = new RuntimeStore({ dir: tempDir(), sources: () => ({ uvDownload: `${base}/uv/` }), pins: pinsOf(uv) });
      expect((await through.ensure('uv', () => undefined)).version).toBe('0.12.0');
      const elsewhere = new RuntimeStore({ dir: tempDir(), sources: () => ({ uvDownload: `${base}/other/` }), pins: pinsOf(uv) });
      const refused = await fetchFailure(elsewhere.ensure('uv', () => undefined));
      expect(refused.problem.params.reason).toBe(
        `${base}/other/0.12.0/${uv.source.archive} redirects to an address that is not https: http://files.example.com`,
      );
    } finally {
      front.closeAllConnections();
      await new Promise((resolve) => front.close(resolve));
    }
  });
});
