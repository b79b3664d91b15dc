import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';

import { describe, expect, it, vi } from 'vitest';

import { isAlive } from '../../../src/main/core/servers/process-tree';
import { defaultSettings } from '../../../src/shared/settings';
import { fixtureServer, makeBridge } from '../../helpers/bridge-harness';
import { tempDirs } from '../../helpers/temp-dirs';
import { waitFor } from '../../helpers/wait';

vi.mock('electron', async () => (await import('../../helpers/electron-mock')).electronModule);
const { FakeQuittingApp, fakeSafeStorage } = await import('../../helpers/electron-mock');
const { installQuitHandling } = await import('../../../src/main/electron/quit-handling');
const { installCrashGuard } = await import('../../../src/main/electron/crash-guard');
const { ElectronSettingsStore } = await import('../../../src/main/electron/electron-settings-store');
const { secretCodec } = await import('../../../src/main/electron/secret-codec');

const tempDir = tempDirs('xt-store-');

describe('quitting', () => {
  it('waits for the bridge to stop every child before exiting, and SIGTERM quits the same way', async () => {
    const { bridge } = makeBridge({ servers: [fixtureServer('a'), fixtureServer('b')] });
    bridge.start();
    await bridge.whenServersSettled();
    const pids = bridge.state().servers.map((s) => s.pid!);
    const app = new FakeQuittingApp();
    const proc = new EventEmitter();
    const quit = installQuitHandling({ app, stop: () => bridge.stop(), deadlineMs: 10_000, process: proc as never });
    proc.emit('SIGTERM');
    expect(quit.isQuitting()).toBe(true);
    expect(app.exitCode).toBeUndefined();
    await waitFor(() => app.exitCode !== undefined, 10_000, 'the app to exit');
    expect(app.exitCode).toBe(0);
    for (const pid of pids) expect(isAlive(pid)).toBe(false);
  });

  it("a crash answered with Quit stops every server's whole process tree, ends the update checks, then exits", async () => {
    const pidFile = path.join(tempDir(), 'pids.txt');
    const { bridge } = makeBridge({ servers: [fixtureServer('a', { FIXTURE_PID_FILE: pidFile, FIXTURE_GRANDCHILD: '1' })] });
    bridge.start();
    await bridge.whenServersSettled();
    await waitFor(
      () => fs.existsSync(pidFile) && fs.readFileSync(pidFile, 'utf8').trim().split('\n').length >= 2,
      10_000,
      'the server and its child',
    );
    const pids = fs.readFileSync(pidFile, 'utf8').trim().split('\n').map(Number);
    const app = new FakeQuittingApp();
    const onQuitting = vi.fn();
    const quit = installQuitHandling({
      app,
      stop: () => bridge.stop(),
      deadlineMs: 10_000,
      onQuitting,
      process: new EventEmitter() as never,
    });
    const proc = new EventEmitter();
    // As the composition root wires it (src/main/index.ts).
    installCrashGuard({
      log: (m) => m,
      show: async () => 'quit',
      quit: () => quit.quitNow(),
      isQuitting: () => quit.isQuitting(),
      process: proc as never,
    });
    proc.emit('uncaughtException', new Error('boom'));
    await waitFor(() => app.exitCode !== undefined, 10_000, 'the app to exit');
    expect(app.exitCode).toBe(0);
    for (const pid of pids) expect(isAlive(pid), `pid ${pid}`).toBe(false);
    expect(onQuitting).toHaveBeenCalledTimes(1);
  });

  it('quits for real after the stop (Electron runs its quit events), and exits if that quit is held too', async () => {
    const prevented: boolean[] = [];
    const app = new FakeQuittingApp();
    app.on('before-quit', (event: { defaultPrevented: boolean }) => setImmediate(() => prevented.push(event.defaultPrevented)));
    installQuitHandling({ app, stop: async () => undefined, deadlineMs: 50, process: new EventEmitter() as never });
    app.quit();
    await waitFor(() => app.exitCode === 0, 2000, 'the second quit');
    expect(prevented).toEqual([true, false]);

    // Something holds the second quit as well: the app still exits.
    const stuck = new FakeQuittingApp();
    stuck.quit = () => void stuck.emit('before-quit', { preventDefault() {} });
    installQuitHandling({ app: stuck, stop: async () => undefined, deadlineMs: 50, process: new EventEmitter() as never });
    stuck.quit();
    await waitFor(() => stuck.exitCode === 0, 2000, 'the exit after a held quit');
  });

  it('exits at the deadline even if stopping hangs', async () => {
    const app = new FakeQuittingApp();
    installQuitHandling({ app, stop: () => new Promise(() => undefined), deadlineMs: 50, process: new EventEmitter() as never });
    app.quit();
    await waitFor(() => app.exitCode === 0, 2000, 'exit after the deadline');
  });
});

describe('the settings store', () => {
  const TOKEN = 'eyJhbGciOiJIUzI1NiJ9.eyJ1IjoxfQ.storesecret';
  const settingsWithSecrets = () => ({
    ...defaultSettings(),
    endpoints: [{ id: 'e', name: 'home', url: `wss://api.xiaozhi.me/mcp/?token=${TOKEN}`, enabled: true }],
    servers: [
      {
        name: 's',
        transport: 'stdio' as const,
        command: 'node',
        args: [],
        env: { API_KEY: 'sk-very-secret', LANG: 'zh_CN' },
        enabled: true,
      },
    ],
    confirmation: { pin: '731946', pinShown: true },
  });

  it('encrypts endpoint URLs and secret values at rest and reads them back', () => {
    const dir = tempDir();
    const codec = secretCodec(fakeSafeStorage(), 'linux');
    const store = new ElectronSettingsStore(dir, codec);
    store.save(settingsWithSecrets());
    const onDisk = fs.readFileSync(path.join(dir, 'settings.json'), 'utf8');
    expect(onDisk).not.toContain(TOKEN);
    expect(onDisk).not.toContain('sk-very-secret');
    expect(onDisk).not.toContain('731946');
    expect(onDisk).toContain('zh_CN');
    const again = new ElectronSettingsStore(dir, codec);
    expect(again.load()).toEqual(settingsWithSecrets());
    expect(again.recovered).toBeUndefined();
  });

  it.skipIf(process.platform === 'win32')(
    'keeps the settings file readable by its user only, one that was 644 included (secrets are in clear without a keyring)',
    () => {
      const dir = tempDir();
      fs.writeFileSync(path.join(dir, 'settings.json'), JSON.stringify({ version: 2 }), { mode: 0o644 });
      fs.chmodSync(path.join(dir, 'settings.json'), 0o644);
      const store = new ElectronSettingsStore(dir, secretCodec(fakeSafeStorage(true, 'basic_text'), 'linux'));
      store.save(settingsWithSecrets());
      expect((fs.statSync(path.join(dir, 'settings.json')).mode & 0o777).toString(8)).toBe('600');
    },
  );

  it('says plainly when Linux has no keyring, and stores in clear', () => {
    const codec = secretCodec(fakeSafeStorage(true, 'basic_text'), 'linux');
    expect(codec.encrypted).toBe(false);
    expect(codec.storage).toBe('no-keyring');
  });

  it('moves a corrupt store aside and reports it, never discarding it', () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'settings.json'), '{"endpoints": [ broken');
    const store = new ElectronSettingsStore(dir, secretCodec(fakeSafeStorage(), 'linux'));
    expect(store.recovered?.reason).toMatch(/^invalid JSON/);
    const aside = fs.readdirSync(dir).find((f) => f.startsWith('settings.corrupt-'));
    expect(aside).toBeDefined();
    expect(store.recovered?.movedTo).toBe(path.join(dir, aside!));
    expect(fs.readFileSync(path.join(dir, aside!), 'utf8')).toBe('{"endpoints": [ broken');
    expect(store.load()).toEqual(defaultSettings());
  });

  it('moves aside settings that are valid JSON but not valid settings', () => {
    const dir = tempDir();
    fs.writeFileSync(
      path.join(dir, 'settings.json'),
      JSON.stringify({ version: 1, endpoints: [{ id: 'x', name: 'x', url: 'http://nope' }] }),
    );
    const store = new ElectronSettingsStore(dir, secretCodec(fakeSafeStorage(), 'linux'));
    expect(store.recovered?.reason).toMatch(/invalid at endpoints\.0\.url/);
  });

  it('keeps every setting when a header value stored by an earlier build ends in a line break (a pasted token)', () => {
    const dir = tempDir();
    const remote = { name: 'amap', transport: 'streamable-http', url: 'https://mcp.example.com/mcp', enabled: true };
    fs.writeFileSync(
      path.join(dir, 'settings.json'),
      JSON.stringify({ ...defaultSettings(), servers: [{ ...remote, headers: { Authorization: 'Bearer abc\r\n' } }] }),
    );
    const store = new ElectronSettingsStore(dir, secretCodec(fakeSafeStorage(false), 'darwin'));
    expect(store.recovered).toBeUndefined();
    expect(store.load().servers).toMatchObject([{ ...remote, headers: { Authorization: 'Bearer abc' } }]);
  });

  it('migrates settings of an early version', () => {
    const dir = tempDir();
    fs.writeFileSync(
      path.join(dir, 'settings.json'),
      JSON.stringify({ mcpEndpoint: 'wss://api.xiaozhi.me/mcp/?token=abc', mcpServers: { m: { command: 'npx', args: ['-y', 'x'] } } }),
    );
    const store = new ElectronSettingsStore(dir, secretCodec(fakeSafeStorage(false), 'darwin'));
    expect(store.recovered).toBeUndefined();
    expect(store.load()).toMatchObject({
      version: 3,
      endpoints: [{ url: 'wss://api.xiaozhi.me/mcp/?token=abc' }],
      servers: [{ name: 'm', transport: 'stdio', command: 'npx' }],
    });
  });
});
