import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterAll, describe, expect, it, vi } from 'vitest';

import { commandChannel } from '../../../src/shared/bridge-client';
import { FakeQuittingApp } from '../../helpers/electron-mock';
import { scaled } from '../../helpers/time-scale';
import { waitFor } from '../../helpers/wait';

/**
 * The composition root, wired against a stand-in Electron: it must build one bridge, bind IPC,
 * show the tray, hand config files from a second launch to import, and stop everything on quit.
 */
const userData = fs.mkdtempSync(path.join(os.tmpdir(), 'xt-app-'));
const handlers = new Map<string, (event: unknown, input: unknown) => Promise<unknown>>();

class FakeApp extends FakeQuittingApp {
  requestSingleInstanceLock = () => true;
  whenReady = () => Promise.resolve();
  getPath = () => userData;
  setPath = () => undefined;
  isPackaged = false;
  getVersion = () => '0.1.0';
  getLocale = () => 'zh-CN';
  getAppPath = () => path.resolve(__dirname, '../../..');
  setAppUserModelId = () => undefined;
  getLoginItemSettings = () => ({ openAtLogin: false, wasOpenedAtLogin: false });
  setLoginItemSettings = () => undefined;
  dock = { hide: () => undefined };
}
const app = new FakeApp();

vi.mock('electron', async () => {
  const { electronMock } = await import('../../helpers/electron-mock');
  const mock = {
    ...electronMock,
    app,
    ipcMain: {
      on: () => undefined,
      handle: (channel: string, fn: (event: unknown, input: unknown) => Promise<unknown>) => void handlers.set(channel, fn),
      removeHandler: (c: string) => void handlers.delete(c),
    },
    safeStorage: {
      isEncryptionAvailable: () => false,
      encryptString: (s: string) => Buffer.from(s),
      decryptString: (b: Buffer) => b.toString(),
      getSelectedStorageBackend: () => 'basic_text',
    },
    powerMonitor: new EventEmitter(),
    net: { isOnline: () => true },
  };
  return { ...mock, default: mock };
});

afterAll(() => fs.rmSync(userData, { recursive: true, force: true }));

describe('the desktop app, wired', () => {
  // The whole app starts and stops: its waits add up to more than a unit test's limit.
  it(
    'starts the tray, the window and IPC; offers a file from a second launch; quits cleanly',
    async () => {
      const { FakeTray, FakeBrowserWindow, fakeProtocol, electronMock } = await import('../../helpers/electron-mock');
      const rejectionListeners = new Set(process.listeners('unhandledRejection'));
      await import('../../../src/main/index');
      // app:// is privileged before the app is ready.
      expect(fakeProtocol.privileged).toEqual([{ scheme: 'app', privileges: expect.objectContaining({ standard: true, secure: true }) }]);
      await waitFor(() => FakeTray.instances.length > 0 && handlers.size > 0, 15_000, 'the tray and IPC');
      const tray = FakeTray.instances.at(-1)!;
      // The bridge starts; the tray follows its status (no endpoint yet), in the system's Chinese.
      await waitFor(() => tray.tooltip === '小智托盘 · 尚未添加接入点', 5000, 'the running tooltip');
      expect(FakeBrowserWindow.instances).toHaveLength(1);
      const win = FakeBrowserWindow.instances[0]!;
      expect(win.loadedUrl).toBe('app://xiaozhi-tray/index.html');
      // The protocol serves the built page, with its CSP.
      const page = await fakeProtocol.handlers.get('app')!(new Request('app://xiaozhi-tray/index.html'));
      expect(page.status).toBe(200);
      expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
      expect(await page.text()).toContain('<div id="root">');
      // Permissions: none, but the clipboard write that Logs → Copy uses, for our page only.
      const permissions = electronMock.session.defaultSession;
      expect(permissions.checkHandler!(null, 'clipboard-sanitized-write', 'app://xiaozhi-tray', {})).toBe(true);
      expect(permissions.checkHandler!(null, 'media', 'app://xiaozhi-tray', {})).toBe(false);
      // Any other web contents is held to our page too.
      const stray = new (await import('../../helpers/electron-mock')).FakeWebContents();
      app.emit('web-contents-created', {}, stray);
      const nav = { url: 'https://evil.example/', isMainFrame: true, preventDefault: vi.fn() };
      stray.emit('will-frame-navigate', nav);
      expect(nav.preventDefault).toHaveBeenCalled();

      // IPC from our window reaches the engine; the host info says secrets are not encrypted here.
      const fromWindow = { sender: win.webContents, senderFrame: win.webContents.mainFrame };
      const host = (await handlers.get(commandChannel('getHostInfo'))!(fromWindow, undefined)) as {
        carrier: string;
        secretStorage: string;
        logsFolder: string;
      };
      expect(host).toMatchObject({ carrier: 'electron', secretStorage: 'no-keyring', logsFolder: path.join(userData, 'logs') });
      // Claude Desktop is given this app's own binary in its connect mode (a checkout: electron <folder>), no env.
      const claude = (await handlers.get(commandChannel('previewAddToClient'))!(fromWindow, { client: 'claude-desktop' })) as {
        entry: string;
      };
      expect(JSON.parse(claude.entry)).toEqual({
        command: process.execPath,
        args: [path.resolve(__dirname, '../../..'), 'connect', '--client', 'claude-desktop'],
      });

      // A second launch (the single-instance lock is this one's): the window closed to the tray comes back, in front.
      win.hide();
      const focused = win.focused;
      app.emit('second-instance', {}, ['/opt/xiaozhi-tray/xiaozhi-tray']);
      expect(win.visible).toBe(true);
      expect(win.focused).toBeGreaterThan(focused);
      expect(FakeBrowserWindow.instances).toHaveLength(1);

      // A second launch with a config file: the window shows again and gets the import preview.
      const file = path.join(userData, 'claude_desktop_config.json');
      fs.writeFileSync(
        file,
        JSON.stringify({ mcpServers: { memory: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory'] } } }),
      );
      app.emit('second-instance', {}, ['/opt/xiaozhi-tray/xiaozhi-tray', file]);
      await waitFor(() => win.webContents.sent.some((m) => m.channel === 'xiaozhi:event:importPreview'), 5000, 'the import preview event');
      const preview = win.webContents.sent.find((m) => m.channel === 'xiaozhi:event:importPreview')!.payload as { format: string };
      expect(preview.format).toBe('claude-desktop');

      // An unhandled rejection is logged and shown once; the app keeps running.
      const guard = process.listeners('unhandledRejection').find((l) => !rejectionListeners.has(l))!;
      expect(guard).toBeTypeOf('function');
      (guard as (reason: unknown) => void)(new Error('a stray promise failed'));
      (guard as (reason: unknown) => void)(new Error('and another one'));
      await waitFor(() => electronMock.dialog.showMessageBox.mock.calls.length > 0, 5000, 'the crash dialog');
      expect(electronMock.dialog.showMessageBox).toHaveBeenCalledTimes(1);
      expect(app.exitCode).toBeUndefined();
      process.removeListener('unhandledRejection', guard);

      // Quit waits for the bridge, then exits.
      app.quit();
      await waitFor(() => app.exitCode === 0, 15_000, 'the app to exit');
      expect(fs.existsSync(path.join(userData, 'settings.json'))).toBe(true);
      const logFile = fs.readFileSync(path.join(userData, 'logs', 'xiaozhi-tray.log'), 'utf8');
      expect(logFile).toContain('Xiaozhi Tray 0.1.0 started');
      expect(logFile).toContain('unhandled rejection: Error: a stray promise failed');
      expect(logFile).toContain('unhandled rejection: Error: and another one');
    },
    scaled(60_000),
  );
});
