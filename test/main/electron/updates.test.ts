import { createHash } from 'node:crypto';
import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import http from 'node:http';
import Module, { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';

import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';

import { LogBook } from '../../../src/main/core/logs/log-book';
import { logTo, newCancellationToken, timeOutUnanswered } from '../../../src/main/electron/updates/electron-updater-backend';
import { UpdateController, type UpdaterBackend } from '../../../src/main/electron/updates/update-controller';
import { channelFileName, checkFeedFileSize } from '../../../src/main/electron/updates/update-feed';
import { translator } from '../../../src/shared/i18n/translate';
import { logMessage } from '../../../src/shared/problem-words';
import type { UpdateSettings } from '../../../src/shared/settings';
import type { UpdateStatus } from '../../../src/shared/updates';
import { scaled } from '../../helpers/time-scale';
import { type Feed, FILE, payload, sha512, startFeed, yml } from '../../helpers/update-feed';
import { waitFor } from '../../helpers/wait';

/**
 * electron-updater itself, against a real HTTP server on 127.0.0.1 serving real latest*.yml files.
 * Only Electron's boundary is stood in for: `app` (version, paths, ready) and `net.request`, which
 * here goes out through Node's http to the same server.
 */
const requireHere = createRequire(import.meta.url);
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'xt-updates-'));
const fakeApp = Object.assign(new EventEmitter(), {
  isPackaged: true,
  getVersion: () => '0.1.0',
  getName: () => 'Xiaozhi Tray',
  getPath: () => path.join(work, 'user-data'),
  getAppPath: () => work,
  whenReady: () => Promise.resolve(),
  quit: vi.fn(),
  relaunch: vi.fn(),
});
/** Electron's net.request, stood in by Node's http: like Electron's ClientRequest, it never emits 'socket'. */
function electronNetRequest(options: http.RequestOptions): http.ClientRequest {
  const request = http.request(options);
  const on = request.on.bind(request);
  request.on = ((event: string, listener: (...args: unknown[]) => void) =>
    event === 'socket' ? request : on(event, listener)) as typeof request.on;
  return request;
}
const fakeElectron = {
  app: fakeApp,
  net: { request: electronNetRequest },
  session: { fromPartition: () => ({}) },
  autoUpdater: new EventEmitter(),
};
const electronPath = createRequire(requireHere.resolve('electron-updater')).resolve('electron');
const previousElectron = requireHere.cache[electronPath];
const stub = new Module(electronPath);
stub.filename = electronPath;
stub.loaded = true;
stub.exports = fakeElectron;
requireHere.cache[electronPath] = stub;
const { AppImageUpdater } = requireHere('electron-updater') as typeof import('electron-updater');

let feed: Feed | undefined;
let controller: UpdateController | undefined;
const envBefore = { APPIMAGE: process.env.APPIMAGE, XDG_CACHE_HOME: process.env.XDG_CACHE_HOME, LOCALAPPDATA: process.env.LOCALAPPDATA };

beforeAll(() => {
  // The running "AppImage" and the cache the download goes to.
  fs.writeFileSync(path.join(work, 'current.AppImage'), 'old');
  process.env.APPIMAGE = path.join(work, 'current.AppImage');
  process.env.XDG_CACHE_HOME = path.join(work, 'cache');
  process.env.LOCALAPPDATA = path.join(work, 'cache');
});
afterEach(async () => {
  controller?.stop();
  controller = undefined;
  await feed?.close();
  feed = undefined;
});
afterAll(() => {
  if (previousElectron) requireHere.cache[electronPath] = previousElectron;
  else delete requireHere.cache[electronPath];
  for (const [key, value] of Object.entries(envBefore)) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
  fs.rmSync(work, { recursive: true, force: true });
});

function makeController(settings: UpdateSettings, extra: Partial<ConstructorParameters<typeof UpdateController>[0]> = {}) {
  const updater = new AppImageUpdater();
  // electron-builder writes this next to app.asar; the download cache is named in it.
  const config = path.join(work, 'app-update.yml');
  fs.writeFileSync(config, 'provider: generic\nurl: http://127.0.0.1:9/\nupdaterCacheDirName: xiaozhi-tray-updater-test\n');
  updater.updateConfigPath = config;
  const logBook = new LogBook();
  // As loadElectronUpdater() makes it for the app.
  logTo(timeOutUnanswered(updater), logBook.logger('updates'));
  const statuses: UpdateStatus[] = [];
  const prepareQuit = vi.fn(async () => undefined);
  controller = new UpdateController({
    backend: updater as unknown as UpdaterBackend,
    currentVersion: '0.1.0',
    settings: () => settings,
    buildMirror: '',
    log: logBook.logger('updates'),
    isQuitting: () => false,
    prepareQuit,
    ...extra,
  });
  controller.subscribe((status) => statuses.push(status));
  return { controller, updater, statuses, logBook, prepareQuit };
}

describe('updates from a mirror', () => {
  it('downloads a newer version in the background and restarts into it only when asked, servers stopped first', async () => {
    feed = await startFeed(yml('0.2.0'));
    const { controller, updater, statuses, prepareQuit, logBook } = makeController({ enabled: true, mirrorUrl: feed.url });
    const first = await controller.check();
    expect(first).toMatchObject({ state: 'downloading', version: '0.2.0', feedUrl: `${feed.url}/` });
    await waitFor(() => controller.status().state !== 'downloading', 20_000, 'the download to finish');
    expect(controller.status()).toMatchObject({ state: 'ready', version: '0.2.0', currentVersion: '0.1.0' });
    // The app's lines in the window's language (walkthrough 4: English lines in the Chinese log).
    const zh = translator('zh-CN');
    const said = logBook.entries().map((e) => logMessage(zh, e));
    expect(said).toEqual(expect.arrayContaining(['正在下载新版本 0.2.0', '新版本 0.2.0 已下载，重启后安装']));
    expect(feed.requests.some((p) => /\/feed\/latest[\w-]*\.yml$/.test(p))).toBe(true);
    expect(feed.requests).toContain(`/feed/${FILE}`);
    expect(statuses.map((s) => s.state)).toEqual(expect.arrayContaining(['checking', 'downloading', 'ready']));
    expect(statuses.some((s) => s.state === 'downloading' && s.percent === 100) || statuses.at(-1)?.state === 'ready').toBe(true);
    // The downloaded file is the one the feed described (its sha512 was checked).
    const pending = path.join(work, 'cache', 'xiaozhi-tray-updater-test', 'pending', FILE);
    expect(createHash('sha512').update(fs.readFileSync(pending)).digest('base64')).toBe(sha512);
    // Nothing is installed until the user restarts.
    const order: string[] = [];
    prepareQuit.mockImplementation(async () => void order.push('servers stopped'));
    const quitAndInstall = vi.spyOn(updater, 'quitAndInstall').mockImplementation(() => void order.push('quit and install'));
    expect(quitAndInstall).not.toHaveBeenCalled();
    await controller.install();
    expect(order).toEqual(['servers stopped', 'quit and install']);
    expect(quitAndInstall).toHaveBeenCalledWith(true, true);
  });

  it('says it is up to date when the feed has the same version', async () => {
    feed = await startFeed(yml('0.1.0'));
    const { controller, logBook } = makeController({ enabled: true, mirrorUrl: feed.url });
    expect(await controller.check()).toMatchObject({ state: 'up-to-date', currentVersion: '0.1.0' });
    const line = logBook.entries().find((e) => e.message.startsWith('up to date'))!;
    expect(logMessage(translator('zh-CN'), line)).toBe('已是最新版本（0.1.0）');
    expect(controller.status().checkedAt).toBeTypeOf('number');
    expect(feed.requests).not.toContain(`/feed/${FILE}`);
  });

  it('refuses a download whose checksum does not match, and installs nothing', async () => {
    feed = await startFeed(yml('0.2.0', createHash('sha512').update('something else').digest('base64')));
    const { controller } = makeController({ enabled: true, mirrorUrl: feed.url });
    await controller.check();
    await waitFor(() => controller.status().state !== 'downloading', 20_000, 'the download to fail');
    expect(controller.status()).toMatchObject({ state: 'error', error: { code: 'integrity', announce: true } });
    await expect(controller.install()).rejects.toThrow(/No update has been downloaded/);
  });

  it.each([
    ['a feed that is not YAML', '{{{ this: is: not yaml', 'feed-invalid'],
    ['a feed without a version', 'files: []\n', 'feed-invalid'],
    ['a mirror without the files', undefined, 'feed-missing'],
  ] as const)('reports %s', async (_name, channel, code) => {
    feed = await startFeed(channel);
    const { controller } = makeController({ enabled: true, mirrorUrl: feed.url });
    expect(await controller.check()).toMatchObject({ state: 'error', error: { code, announce: true } });
  });

  it('reports a mirror that nothing listens on as offline', async () => {
    feed = await startFeed(undefined);
    const closed = feed.url;
    await feed.close();
    feed = undefined;
    // (electron-updater itself retries a refused connection three times before it gives up.)
    const { controller, logBook } = makeController({ enabled: true, mirrorUrl: closed });
    expect(await controller.check(false)).toMatchObject({ state: 'error', error: { code: 'offline', announce: true } });
    expect(logBook.entries().some((e) => e.source === 'updates' && /update offline/.test(e.message))).toBe(true);
  });

  it('announces a problem once on scheduled checks, again when the user asks, and anew after a success', async () => {
    feed = await startFeed(undefined, true);
    const settings: UpdateSettings = { enabled: true, mirrorUrl: feed.url };
    const { controller } = makeController(settings);
    expect(await controller.check(false)).toMatchObject({ state: 'error', error: { code: 'offline', announce: true } });
    expect(await controller.check(false)).toMatchObject({ state: 'error', error: { code: 'offline', announce: false } });
    expect(await controller.check(true)).toMatchObject({ state: 'error', error: { code: 'offline', announce: true } });
    const good = await startFeed(yml('0.1.0'));
    try {
      settings.mirrorUrl = good.url;
      expect(await controller.check(false)).toMatchObject({ state: 'up-to-date' });
    } finally {
      await good.close();
    }
    settings.mirrorUrl = feed.url;
    expect(await controller.check(false)).toMatchObject({ state: 'error', error: { code: 'offline', announce: true } });
  });
});

/** A mirror whose download starts, then sends nothing more. */
async function stallingFeed(): Promise<Feed & { downloads: () => number }> {
  let downloads = 0;
  const server = http.createServer((req, res) => {
    const pathname = new URL(req.url ?? '/', 'http://x').pathname;
    if (/latest[\w-]*\.yml$/.test(pathname)) return void res.writeHead(200).end(yml('0.2.0'));
    if (!pathname.endsWith(FILE)) return void res.writeHead(404).end();
    downloads++;
    res.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Length': payload.length });
    res.write(payload.subarray(0, 1024));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}/feed`,
    requests: [],
    sizeChecks: [],
    downloads: () => downloads,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

describe('updates that go wrong on the way', () => {
  it('gives up a download that makes no progress (announced once), and checks and downloads again later', async () => {
    const stalling = await stallingFeed();
    feed = stalling;
    const { controller, statuses } = makeController(
      { enabled: true, mirrorUrl: stalling.url },
      { stallMs: 300, newCancellation: newCancellationToken, firstCheckDelayMs: 0, intervalMs: 50 },
    );
    controller.start();
    await waitFor(() => statuses.filter((s) => s.error?.code === 'stalled').length >= 2, 20_000, 'two stalled downloads');
    controller.stop();
    const stalled = statuses.filter((s) => s.error?.code === 'stalled');
    expect(stalled[0]).toMatchObject({
      state: 'error',
      error: { code: 'stalled', announce: true, message: 'the download of version 0.2.0 made no progress for 0 s' },
    });
    expect(stalled[1]?.error?.announce).toBe(false);
    // The stalled download was cancelled in electron-updater (which otherwise hands every later
    // downloadUpdate() the same pending promise), so the next check downloaded anew.
    expect(stalling.downloads()).toBeGreaterThanOrEqual(2);
  });

  it('downloads anew when checked right after a stalled download, not the abandoned download\'s "cancelled"', async () => {
    const stalling = await stallingFeed();
    feed = stalling;
    const { controller, statuses } = makeController(
      { enabled: true, mirrorUrl: stalling.url },
      { stallMs: 300, newCancellation: newCancellationToken },
    );
    // The user asks again the moment the stall is shown.
    let again: Promise<UpdateStatus> | undefined;
    controller.subscribe((status) => {
      if (status.error?.code === 'stalled' && !again) again = controller.check();
    });
    await controller.check();
    await waitFor(() => again !== undefined, 10_000, 'the stall');
    await again;
    await waitFor(() => statuses.filter((s) => s.state === 'error').length >= 2, 10_000, 'the second download to end');
    controller.stop();
    expect(statuses.filter((s) => s.state === 'error').map((s) => s.error?.code)).toEqual(['stalled', 'stalled']);
    expect(stalling.downloads()).toBe(2);
  });

  it('gives up a check that the mirror accepts and never answers, and the next check works', async () => {
    let answer: 'nothing' | 'half' | 'all' = 'nothing';
    const held: http.ServerResponse[] = [];
    const server = http.createServer((req, res) => {
      if (answer === 'nothing') return void held.push(res);
      // The answer starts, then stops.
      if (answer === 'half') {
        res.writeHead(200, { 'Content-Type': 'text/yaml', 'Content-Length': 500 }).write('version: 0.2.0\n');
        return void held.push(res);
      }
      if (/latest[\w-]*\.yml$/.test(new URL(req.url ?? '/', 'http://x').pathname))
        return void res.writeHead(200, { 'Content-Type': 'text/yaml' }).end(yml('0.1.0'));
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    try {
      const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/feed`;
      const channel = `${url}/${channelFileName(process.platform, process.arch)}`;
      const { controller, updater } = makeController(
        { enabled: true, mirrorUrl: url },
        { checkFeed: () => checkFeedFileSize(channel, 300) },
      );
      timeOutUnanswered(updater, 300);
      const first = await Promise.race([
        controller.check(),
        new Promise<'hung'>((resolve) => setTimeout(() => resolve('hung'), scaled(10_000)).unref()),
      ]);
      expect(first).toMatchObject({ state: 'error', error: { code: 'offline', announce: true } });
      answer = 'half';
      expect(await controller.check()).toMatchObject({ state: 'error', error: { code: 'offline', announce: true } });
      answer = 'all';
      expect(await controller.check()).toMatchObject({ state: 'up-to-date' });
      expect(held.length).toBeGreaterThanOrEqual(4);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('refuses a feed file far larger than an update feed before electron-updater reads it', async () => {
    let sent = 0;
    const server = http.createServer((req, res) => {
      if (!/latest[\w-]*\.yml$/.test(req.url ?? '')) return void res.writeHead(404).end();
      // An endless feed (bounded here at 64 MB), without a length: only the reader can stop it.
      res.writeHead(200, { 'Content-Type': 'text/yaml' });
      const line = Buffer.from(`version: 0.2.0 # ${'x'.repeat(1000)}\n`);
      const pump = () => {
        while (sent < 64 * 1024 * 1024) {
          sent += line.length;
          if (!res.write(line)) return void res.once('drain', pump);
        }
        res.end();
      };
      res.on('close', () => res.removeAllListeners('drain'));
      pump();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    try {
      const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/feed`;
      const { controller } = makeController({ enabled: true, mirrorUrl: url });
      const status = await controller.check();
      expect(status).toMatchObject({ state: 'error', error: { code: 'feed-invalid', announce: true } });
      expect(status.error?.message).toMatch(/latest-linux[\w-]*\.yml is larger than 1 MB: not an update feed$/);
      expect(sent).toBeLessThan(16 * 1024 * 1024);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('the update schedule', () => {
  it('checks at start and again every interval, and stops checking once the app is quitting', async () => {
    feed = await startFeed(yml('0.1.0'));
    let quitting = false;
    const { controller } = makeController(
      { enabled: true, mirrorUrl: feed.url },
      { firstCheckDelayMs: 0, intervalMs: 10, isQuitting: () => quitting },
    );
    const channelRequests = () => feed!.requests.filter((p) => p.endsWith('.yml')).length;
    controller.start();
    await waitFor(() => channelRequests() >= 3, 10_000, 'three scheduled checks');
    quitting = true;
    // No check scheduled and none under way (a check says "checking" from its first moment).
    await waitFor(() => !controller.scheduled && controller.status().state !== 'checking', 5000, 'the schedule to end');
    const seen = channelRequests();
    expect(controller.scheduled).toBe(false);
    expect(channelRequests()).toBe(seen);
    expect(controller.status().state).toBe('up-to-date');
  });

  it('checks nothing once the app is quitting, not even when asked (the tray stays clickable while servers stop)', async () => {
    feed = await startFeed(yml('0.2.0'));
    let quitting = false;
    const settings: UpdateSettings = { enabled: true, mirrorUrl: feed.url };
    const { controller } = makeController(settings, { isQuitting: () => quitting });
    quitting = true;
    expect(await controller.check(true)).toMatchObject({ state: 'idle' });
    settings.mirrorUrl = `${feed.url}/`;
    controller.settingsChanged();
    expect(controller.scheduled).toBe(false);
    expect(feed.requests).toEqual([]);
    expect(feed.sizeChecks).toEqual([]);
  });

  it('follows the off switch: no schedule while off, a check soon after switching back on', async () => {
    feed = await startFeed(yml('0.1.0'));
    const settings: UpdateSettings = { enabled: false, mirrorUrl: '' };
    settings.mirrorUrl = feed.url;
    const { controller } = makeController(settings, { firstCheckDelayMs: 0 });
    expect(controller.status().state).toBe('disabled');
    controller.start();
    await waitFor(() => !controller.scheduled, 5000, 'the first tick');
    expect(feed.requests).toEqual([]);
    // Checking by hand still works with automatic checks off.
    expect(await controller.check()).toMatchObject({ state: 'up-to-date' });
    settings.enabled = true;
    controller.settingsChanged();
    expect(controller.scheduled).toBe(true);
    await waitFor(() => feed!.requests.filter((p) => p.endsWith('.yml')).length >= 2, 5000, 'the check after switching on');
    // That check ends, and the next one is scheduled.
    await waitFor(() => controller.status().state === 'up-to-date' && controller.scheduled, 5000, 'the next check to be scheduled');
    settings.enabled = false;
    controller.settingsChanged();
    expect(controller.status().state).toBe('disabled');
    expect(controller.scheduled).toBe(false);
  });

  it('is "unsupported" where the app cannot update itself', async () => {
    const logBook = new LogBook();
    const plain = new UpdateController({
      backend: undefined,
      currentVersion: '0.1.0',
      settings: () => ({ enabled: true }),
      log: logBook.logger('updates'),
      isQuitting: () => false,
      prepareQuit: async () => undefined,
    });
    expect(plain.status()).toEqual({ state: 'unsupported', currentVersion: '0.1.0' });
    expect(await plain.check()).toMatchObject({ state: 'unsupported' });
    await expect(plain.install()).rejects.toThrow();
  });
});
