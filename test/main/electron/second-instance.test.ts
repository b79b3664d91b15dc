import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterAll, describe, expect, it, vi } from 'vitest';

import { FakeQuittingApp } from '../../helpers/electron-mock';
import { waitFor } from '../../helpers/wait';

/**
 * A second launch of the desktop app while one runs: Electron's single-instance lock is taken by
 * the first, so the second builds nothing (no bridge, no tray, no window, no file in the state
 * folder) and quits; the first gets its arguments (`second-instance`, app-main.test.ts) and shows
 * its window. The state folder `connect` reads stays the first's.
 */
const userData = fs.mkdtempSync(path.join(os.tmpdir(), 'xt-second-'));
const handled: string[] = [];

class SecondApp extends FakeQuittingApp {
  requestSingleInstanceLock = () => false;
  whenReady = () => Promise.resolve();
  getPath = () => userData;
  setPath = () => undefined;
  isPackaged = false;
  getVersion = () => '0.1.0';
  getLocale = () => 'en';
  getAppPath = () => path.resolve(__dirname, '../../..');
  setAppUserModelId = () => undefined;
  dock = { hide: () => undefined };
}
const app = new SecondApp();

vi.mock('electron', async () => {
  const { electronMock } = await import('../../helpers/electron-mock');
  const mock = {
    ...electronMock,
    app,
    ipcMain: { on: () => undefined, handle: (channel: string) => void handled.push(channel), removeHandler: () => undefined },
  };
  return { ...mock, default: mock };
});

afterAll(() => fs.rmSync(userData, { recursive: true, force: true }));

describe('a second launch of the desktop app', () => {
  it('takes nothing over: it quits without a bridge, a tray, a window or a file in the state folder', async () => {
    const { FakeTray, FakeBrowserWindow } = await import('../../helpers/electron-mock');
    // The processes project shares modules between files (isolate: false): count only what this launch makes.
    const trays = FakeTray.instances.length;
    const windows = FakeBrowserWindow.instances.length;
    await import('../../../src/main/index');
    await waitFor(() => app.exitCode !== undefined, 5000, 'the second launch to quit');
    expect(app.exitCode).toBe(0);
    expect(FakeTray.instances.slice(trays)).toHaveLength(0);
    expect(FakeBrowserWindow.instances.slice(windows)).toHaveLength(0);
    expect(handled).toEqual([]);
    expect(fs.readdirSync(userData)).toEqual([]);
  });
});
