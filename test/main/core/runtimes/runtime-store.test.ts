import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { RuntimeStore } from '../../../../src/main/core/runtimes/runtime-store';
import { fetchFailure, pinsOf, type RuntimeMirror, startRuntimeMirror, uvStandIn } from '../../../helpers/runtime-mirror';
import { tempDirs } from '../../../helpers/temp-dirs';
import { waitFor } from '../../../helpers/wait';

const tempDir = tempDirs('xt-runtime-store-');
let mirror: RuntimeMirror | undefined;
afterEach(async () => {
  await mirror?.close();
  mirror = undefined;
});

const uv = uvStandIn();
/** The stand-in's SHA-256 and size, pinned as the app pins the real uv's. */
const pins = pinsOf(uv);
const archiveRequests = () => mirror!.requests.filter((r) => r.path.endsWith(uv.source.archive));

describe.skipIf(process.platform === 'win32')("the app's runtime store", () => {
  it('downloads a runtime from the mirror, checks it against the SHA-256 the app carries, and unpacks it whole', async () => {
    mirror = await startRuntimeMirror({ uv });
    const dir = tempDir();
    const store = new RuntimeStore({ dir, sources: () => mirror!.urls, pins });
    expect(store.installed('uv')).toBeUndefined();
    const progress: (number | undefined)[] = [];
    const ready = await store.ensure('uv', (percent) => progress.push(percent));
    expect(ready).toEqual({
      binDir: path.join(dir, `uv-${uv.source.version}-${uv.source.folder.split(`${uv.source.version}-`)[1]}`),
      version: '0.12.0',
    });
    expect(fs.existsSync(path.join(ready.binDir, 'uv'))).toBe(true);
    expect(progress.at(-1)).toBe(100);
    // Only the archive was asked for: no checksum file.
    expect(mirror.requests.map((r) => r.path)).toEqual([`/uv/0.12.0/${uv.source.archive}`]);
    expect(progress.filter((p) => p !== undefined).every((p, i, all) => i === 0 || p >= all[i - 1]!)).toBe(true);
    // Nothing half-done left: no temporary folder, no archive.
    expect(fs.readdirSync(dir).sort()).toEqual(['downloads', uv.source.folder]);
    expect(fs.readdirSync(path.join(dir, 'downloads'))).toEqual([]);
    // Had: no second download.
    const asked = mirror.requests.length;
    expect(await store.ensure('uv', () => undefined)).toEqual(ready);
    expect(mirror.requests.length).toBe(asked);
  });

  it('resumes a download cut off in the middle where it stopped (HTTP Range)', async () => {
    mirror = await startRuntimeMirror({ uv });
    const dir = tempDir();
    const store = new RuntimeStore({ dir, sources: () => mirror!.urls, pins });
    mirror.cutNext('uv', 300_000);
    const cut = await fetchFailure(store.ensure('uv', () => undefined));
    expect(cut.problem.code).toBe('server.runtimeDownloadFailed');
    expect(cut.problem.params.runtime).toBe('uv');
    const reason = String(cut.problem.params.reason);
    expect(reason).toMatch(/: the download stopped at \d+ bytes \(the connection was cut\)$/);
    const stopped = Number(/stopped at (\d+)/.exec(reason)![1]);
    expect(stopped).toBeGreaterThan(0);
    expect(stopped).toBeLessThanOrEqual(300_000);
    // All that came is kept.
    expect(fs.statSync(path.join(dir, 'downloads', `${uv.source.archive}.part`)).size).toBe(stopped);
    expect(store.installed('uv')).toBeUndefined();

    const ready = await store.ensure('uv', () => undefined);
    expect(fs.existsSync(path.join(ready.binDir, 'uvx'))).toBe(true);
    expect(archiveRequests().map((r) => r.range)).toEqual([undefined, `bytes=${stopped}-`]);
  });

  it('refuses an archive whose SHA-256 is not the pinned one, with its own problem, and keeps none of it', async () => {
    // The mirror serves another build (and a checksum file that matches it): only the pin counts.
    mirror = await startRuntimeMirror({ uv: uvStandIn() });
    const dir = tempDir();
    const store = new RuntimeStore({ dir, sources: () => mirror!.urls, pins });
    const refused = await fetchFailure(store.ensure('uv', () => undefined));
    expect(refused.problem).toEqual({
      code: 'server.runtimeMismatch',
      params: { runtime: 'uv', version: '0.12.0', file: uv.source.archive, host: '127.0.0.1', advice: 'custom' },
    });
    expect(store.installed('uv')).toBeUndefined();
    expect(fs.readdirSync(dir)).toEqual(['downloads']);
    expect(fs.readdirSync(path.join(dir, 'downloads'))).toEqual([]);
  });

  it('fetches nothing for which it carries no SHA-256', async () => {
    mirror = await startRuntimeMirror({ uv });
    const store = new RuntimeStore({ dir: tempDir(), sources: () => mirror!.urls, pins: new Map() });
    const refused = await fetchFailure(store.ensure('uv', () => undefined));
    expect(refused.problem.params.reason).toBe(`the app carries no SHA-256 for ${uv.source.archive}, and fetches nothing it cannot check`);
    expect(mirror.requests).toEqual([]);
  });

  it('says a site it could not reach as such, with the address and code kept as the detail', async () => {
    // A mirror that was there and is gone: its port refuses (offline, no name lookup can be relied on).
    mirror = await startRuntimeMirror({ uv });
    const urls = mirror.urls;
    await mirror.close();
    mirror = undefined;
    const store = new RuntimeStore({ dir: tempDir(), sources: () => urls, pins });
    const failed = await fetchFailure(store.ensure('uv', () => undefined));
    expect(failed.problem.params).toMatchObject({ reason: 'network', host: '127.0.0.1' });
    expect(String(failed.problem.params.detail)).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/.*ECONNREFUSED/);
    // The log's English keeps the address and the code.
    expect(failed.message).toContain('ECONNREFUSED');
  });

  it('says which file the mirror does not have', async () => {
    mirror = await startRuntimeMirror({});
    const store = new RuntimeStore({ dir: tempDir(), sources: () => mirror!.urls, pins });
    const missing = await fetchFailure(store.ensure('uv', () => undefined));
    expect(missing.problem.params.reason).toBe(`${mirror.urls.uvDownload}0.12.0/${uv.source.archive} answered HTTP 404`);
  });

  it('a second start while the first downloads waits for that download instead of starting another', async () => {
    mirror = await startRuntimeMirror({ uv });
    const store = new RuntimeStore({ dir: tempDir(), sources: () => mirror!.urls, pins });
    const release = mirror.hold('uv');
    const seen: string[] = [];
    const first = store.ensure('uv', (p) => seen.push(`first ${p}`));
    const second = store.ensure('uv', (p) => seen.push(`second ${p}`));
    release();
    const [a, b] = await Promise.all([first, second]);
    expect(a).toEqual(b);
    expect(archiveRequests()).toHaveLength(1);
    // Both hear the one download's progress.
    expect(seen).toContain('first 100');
    expect(seen).toContain('second 100');
  });

  it('another copy of the app on the same folder waits for the download under way, then uses it', async () => {
    mirror = await startRuntimeMirror({ uv });
    const dir = tempDir();
    const desktop = new RuntimeStore({ dir, sources: () => mirror!.urls, pins });
    const headless = new RuntimeStore({ dir, sources: () => mirror!.urls, pins });
    const release = mirror.hold('uv');
    const first = desktop.ensure('uv', () => undefined);
    await waitFor(() => fs.existsSync(path.join(dir, `${uv.source.folder}.lock`)), 5000, 'the lock');
    const second = headless.ensure('uv', () => undefined);
    release();
    expect(await second).toEqual(await first);
    expect(archiveRequests()).toHaveLength(1);
    expect(fs.existsSync(path.join(dir, `${uv.source.folder}.lock`))).toBe(false);
  });

  it('takes over a lock left by a process that is gone', async () => {
    mirror = await startRuntimeMirror({ uv });
    const dir = tempDir();
    const gone = spawnSync(process.execPath, ['-e', '']).pid;
    fs.writeFileSync(path.join(dir, `${uv.source.folder}.lock`), String(gone));
    const ready = await new RuntimeStore({ dir, sources: () => mirror!.urls, pins }).ensure('uv', () => undefined);
    expect(fs.existsSync(path.join(ready.binDir, 'uv'))).toBe(true);
  });

  it('takes over a lock no copy has kept up for a minute, though its pid now names a live process (reused after a crash or a restart)', async () => {
    // Found by the attack on issue 30: a lock naming pid 1 (or any live process that is not
    // downloading) kept ensure() waiting for ever, and the server never started.
    mirror = await startRuntimeMirror({ uv });
    const dir = tempDir();
    const lock = path.join(dir, `${uv.source.folder}.lock`);
    fs.writeFileSync(lock, String(process.ppid));
    const old = new Date(Date.now() - 5 * 60_000);
    fs.utimesSync(lock, old, old);
    const ready = await new RuntimeStore({ dir, sources: () => mirror!.urls, pins }).ensure('uv', () => undefined);
    expect(fs.existsSync(path.join(ready.binDir, 'uv'))).toBe(true);
    expect(fs.existsSync(lock)).toBe(false);
  });

  it('keeps its lock fresh while it downloads, so another copy goes on waiting for a download that takes long', async () => {
    mirror = await startRuntimeMirror({ uv });
    const dir = tempDir();
    const lock = path.join(dir, `${uv.source.folder}.lock`);
    const release = mirror.hold('uv');
    const first = new RuntimeStore({ dir, sources: () => mirror!.urls, pins, lockBeatMs: 50 }).ensure('uv', () => undefined);
    await waitFor(() => fs.existsSync(lock), 5000, 'the lock');
    const old = new Date(Date.now() - 5 * 60_000);
    fs.utimesSync(lock, old, old);
    await waitFor(() => Date.now() - fs.statSync(lock).mtimeMs < 60_000, 5000, 'the lock refreshed by its holder');
    release();
    await first;
    expect(archiveRequests()).toHaveLength(1);
  });

  it('neither runs nor fetches into a folder other users can write to: a runtime put there by someone else is not used', async () => {
    // Found by the attack on issue 30: a store folder open to others (a shared cache, XDG_CACHE_HOME on a
    // shared disk) let anyone put their own uvx there, and the app ran it as the user.
    mirror = await startRuntimeMirror({ uv });
    const dir = tempDir();
    fs.chmodSync(dir, 0o777);
    const planted = path.join(dir, uv.source.folder);
    fs.mkdirSync(planted);
    for (const program of ['uv', 'uvx']) fs.writeFileSync(path.join(planted, program), '#!/bin/sh\necho planted\n', { mode: 0o755 });
    const store = new RuntimeStore({ dir, sources: () => mirror!.urls, pins });
    expect(store.installed('uv')).toBeUndefined();
    const refused = await fetchFailure(store.ensure('uv', () => undefined));
    expect(refused.problem).toEqual({
      code: 'server.runtimeFolderUnsafe',
      params: { runtime: 'uv', folder: dir, why: `other users can write to its folder ${dir} (mode 777)` },
    });
    expect(mirror.requests).toEqual([]);
  });

  it('makes its folder private to the user', async () => {
    mirror = await startRuntimeMirror({ uv });
    const dir = path.join(tempDir(), 'runtimes');
    await new RuntimeStore({ dir, sources: () => mirror!.urls, pins }).ensure('uv', () => undefined);
    expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
  });

  it('drops a download that sends nothing for too long, saying so (the part kept for the next try)', async () => {
    mirror = await startRuntimeMirror({ uv });
    const release = mirror.hold('uv');
    const store = new RuntimeStore({ dir: tempDir(), sources: () => mirror!.urls, idleTimeoutMs: 300, pins });
    const stalled = await fetchFailure(store.ensure('uv', () => undefined));
    release();
    expect(stalled.problem.params).toMatchObject({ reason: 'tooSlow', host: '127.0.0.1', kilobytes: 16, seconds: 1 });
    expect(stalled.problem.params.detail).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/uv\/0\.12\.0\/uv-.*: less than 16 KB came in 300 ms$/);
  });
});
