import type { IpcMainInvokeEvent } from 'electron';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { fixtureServer, type Harness, makeBridge } from '../../helpers/bridge-harness';

vi.mock('electron', async () => (await import('../../helpers/electron-mock')).electronModule);
const { electronMock } = await import('../../helpers/electron-mock');
type FakeBrowserWindow = import('../../helpers/electron-mock').FakeBrowserWindow;
const { bindIpc, trustedSender } = await import('../../../src/main/electron/ipc-bridge');
const { createMainWindow } = await import('../../../src/main/electron/main-window');
const { commandChannel, eventChannel } = await import('../../../src/shared/bridge-client');

const PAGE = 'app://xiaozhi-tray/index.html';
let harness: Harness | undefined;
afterEach(async () => {
  await harness?.bridge.stop();
  harness = undefined;
});

function fakeIpcMain() {
  const handlers = new Map<string, (event: IpcMainInvokeEvent, input: unknown) => Promise<unknown>>();
  return {
    handlers,
    handle: (channel: string, fn: (event: IpcMainInvokeEvent, input: unknown) => Promise<unknown>) => void handlers.set(channel, fn),
    removeHandler: (channel: string) => void handlers.delete(channel),
  };
}

function openWindow(quitting = false) {
  const win = createMainWindow({
    preload: '/app/out/preload/index.js',
    pageUrl: PAGE,
    show: true,
    isQuitting: () => quitting,
    title: 'Xiaozhi Tray',
  });
  return win as unknown as FakeBrowserWindow;
}

describe('the window', () => {
  it('is isolated, sandboxed and has no Node integration', () => {
    const win = openWindow();
    const prefs = win.options.webPreferences as Record<string, unknown>;
    expect(prefs).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      webviewTag: false,
      preload: '/app/out/preload/index.js',
    });
    expect(win.loadedUrl).toBe(PAGE);
  });

  it('denies navigation, redirects, webviews and new windows, sending web links to the browser', () => {
    const win = openWindow();
    const navigate = (url: string, isMainFrame = true) => {
      const details = { url, isMainFrame, preventDefault: vi.fn() };
      win.webContents.emit('will-frame-navigate', details);
      return details.preventDefault;
    };
    electronMock.shell.openExternal.mockClear();
    expect(navigate('https://evil.example/')).toHaveBeenCalled();
    expect(electronMock.shell.openExternal).toHaveBeenCalledWith('https://evil.example/');
    expect(navigate('file:///etc/passwd')).toHaveBeenCalled();
    expect(navigate('app://other-host/index.html')).toHaveBeenCalled();
    // A subframe's web link is refused without opening anything.
    expect(navigate('https://ads.example/', false)).toHaveBeenCalled();
    expect(electronMock.shell.openExternal).toHaveBeenCalledTimes(1);
    // Reloading our own page (any hash route) is fine.
    expect(navigate('app://xiaozhi-tray/index.html#/settings')).not.toHaveBeenCalled();

    const redirect = { url: 'https://evil.example/', preventDefault: vi.fn() };
    win.webContents.emit('will-redirect', redirect);
    expect(redirect.preventDefault).toHaveBeenCalled();
    const webview = { preventDefault: vi.fn() };
    win.webContents.emit('will-attach-webview', webview);
    expect(webview.preventDefault).toHaveBeenCalled();

    expect(win.webContents.windowOpenHandler!({ url: 'https://xiaozhi.me/console' })).toEqual({ action: 'deny' });
    expect(electronMock.shell.openExternal).toHaveBeenCalledWith('https://xiaozhi.me/console');
    expect(win.webContents.windowOpenHandler!({ url: 'javascript:alert(1)' })).toEqual({ action: 'deny' });
    expect(electronMock.shell.openExternal).toHaveBeenCalledTimes(2);
  });

  it('hides on close until the app is quitting', () => {
    const win = openWindow(false);
    win.show();
    const event = { preventDefault: vi.fn() };
    win.emit('close', event);
    expect(event.preventDefault).toHaveBeenCalled();
    expect(win.visible).toBe(false);
    const quittingWin = openWindow(true);
    const closing = { preventDefault: vi.fn() };
    quittingWin.emit('close', closing);
    expect(closing.preventDefault).not.toHaveBeenCalled();
  });
});

describe('IPC binding', () => {
  it('serves our window, refuses other senders and invalid payloads, and forwards events', async () => {
    harness = makeBridge({ servers: [fixtureServer('fx')] });
    const win = openWindow();
    const ipc = fakeIpcMain();
    const binding = bindIpc(
      ipc,
      harness.bridge.api,
      trustedSender(() => win as never, PAGE),
      () => win.webContents as never,
    );
    const ours = { sender: win.webContents, senderFrame: win.webContents.mainFrame } as unknown as IpcMainInvokeEvent;
    const call = (event: IpcMainInvokeEvent, name: string, input?: unknown) =>
      ipc.handlers.get(commandChannel(name as never))!(event, input);

    await expect(call(ours, 'getState')).resolves.toMatchObject({ running: false });

    const otherWindow = openWindow();
    const foreign = { sender: otherWindow.webContents, senderFrame: otherWindow.webContents.mainFrame } as unknown as IpcMainInvokeEvent;
    await expect(call(foreign, 'getState')).rejects.toThrow(/did not come from the Xiaozhi Tray window/);
    const subframe = { sender: win.webContents, senderFrame: { url: PAGE } } as unknown as IpcMainInvokeEvent;
    await expect(call(subframe, 'getState')).rejects.toThrow(/Refused/);

    await expect(call(ours, 'addServer', { name: '', transport: 'stdio', command: 'x' })).rejects.toThrow(
      /Invalid input for "addServer" at name/,
    );
    await expect(call(ours, 'setToolEnabled', { server: 'fx', tool: 'echo', enabled: 'yes' })).rejects.toThrow(/at enabled/);

    harness.bridge.start();
    await harness.bridge.whenServersSettled();
    expect(win.webContents.sent.some((m) => m.channel === eventChannel('catalog'))).toBe(true);
    expect(win.webContents.sent.some((m) => m.channel === eventChannel('log'))).toBe(true);

    binding.dispose();
    expect(ipc.handlers.size).toBe(0);
  });
});
