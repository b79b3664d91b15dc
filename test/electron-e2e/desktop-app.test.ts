import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import type { ElectronApplication, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { findElectron } from '../../scripts/electron-binary.mjs';
import { isAlive } from '../../src/main/core/servers/process-tree';
import { fixtureServer } from '../helpers/bridge-harness';
import { FakeXiaozhi } from '../helpers/fake-xiaozhi';
import { scaled } from '../helpers/time-scale';
import { waitFor } from '../helpers/wait';

/**
 * The real app in the real Electron (playwright-core's `_electron`), against a stand-in xiaozhi
 * endpoint and real child servers. Electron cannot be installed on our development machines: there
 * these tests are skipped with one line; the GitHub workflow (ubuntu under xvfb, windows, macos)
 * installs Electron and runs them, and sets XIAOZHI_E2E_REQUIRE_ELECTRON so they cannot skip there.
 */
const ROOT = path.resolve(__dirname, '../..');
const electron = findElectron(ROOT);
if (!electron.binary) {
  if (process.env.XIAOZHI_E2E_REQUIRE_ELECTRON) throw new Error(`Electron end-to-end tests cannot run: ${electron.reason}`);
  console.log(`Electron end-to-end tests skipped: ${electron.reason}.`);
}

interface TrayShown {
  tooltip: string;
  menu: { kind: string; label?: string; id?: string }[];
}

let xiaozhi: FakeXiaozhi;
let app: ElectronApplication;
let page: Page;
let work = '';
let dataDir = '';
let pidFile = '';
const env = () => ({
  ...process.env,
  XIAOZHI_TRAY_DATA_DIR: dataDir,
  XIAOZHI_TRAY_E2E: '1',
  // Linux autostart entries go here, not into the tester's own session.
  XDG_CONFIG_HOME: path.join(work, 'config'),
  MCP_ENDPOINT: '',
  ELECTRON_ENABLE_LOGGING: '1',
});
const tray = () =>
  app.evaluate(() => (globalThis as unknown as { xiaozhiTrayE2E: { tray(): TrayShown } }).xiaozhiTrayE2E.tray()) as Promise<TrayShown>;

describe.skipIf(!electron.binary)('the desktop app in the real Electron', () => {
  beforeAll(async () => {
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'xt-electron-'));
    dataDir = path.join(work, 'data');
    pidFile = path.join(work, 'pids.txt');
    fs.mkdirSync(dataDir, { recursive: true });
    xiaozhi = await FakeXiaozhi.start();
    // Settings as the app keeps them (secrets in plain text are read as they are).
    fs.writeFileSync(
      path.join(dataDir, 'settings.json'),
      JSON.stringify({
        version: 1,
        endpoints: [{ id: 'home', name: 'home', url: xiaozhi.url(), enabled: true }],
        ui: { language: 'en', theme: 'light', startHidden: false },
      }),
    );
    const { _electron } = await import('playwright-core');
    app = await _electron.launch({ executablePath: electron.binary!, args: [ROOT], cwd: ROOT, env: env(), timeout: scaled(60_000) });
    page = await app.firstWindow({ timeout: scaled(60_000) });
  }, 90_000);

  afterAll(async () => {
    if (app && app.process().exitCode === null) await app.close().catch(() => undefined);
    await xiaozhi?.close();
    if (work) fs.rmSync(work, { recursive: true, force: true });
  });

  it('loads the window from app:// with no Node in it, and shows the overview from real IPC', async () => {
    expect(page.url()).toMatch(/^app:\/\/xiaozhi-tray\/index\.html/);
    await page.getByRole('heading', { name: 'Overview' }).waitFor({ timeout: scaled(30_000) });
    expect(
      await page.evaluate(() => [
        typeof (globalThis as { require?: unknown }).require,
        typeof (globalThis as { process?: unknown }).process,
      ]),
    ).toEqual(['undefined', 'undefined']);
    expect(await page.evaluate(() => typeof (window as unknown as { xiaozhi: { getState: unknown } }).xiaozhi.getState)).toBe('function');
    // The endpoint connects: xiaozhi's side gets the handshake, the window says so.
    const session = await xiaozhi.connection(0, 30_000);
    await session.initialize();
    await page
      .getByText('connected', { exact: false })
      .first()
      .waitFor({ timeout: scaled(30_000) });
  }, 60_000);

  it('adds a server whose tools then appear, in the window and for xiaozhi', async () => {
    const server = fixtureServer('e2e', { FIXTURE_PID_FILE: pidFile, FIXTURE_GRANDCHILD: '1' });
    await page.evaluate((s) => (window as unknown as { xiaozhi: { addServer(x: unknown): Promise<void> } }).xiaozhi.addServer(s), server);
    await page.evaluate(() => (window.location.hash = '#/tools'));
    await page
      .getByText('weather_get')
      .first()
      .waitFor({ timeout: scaled(30_000) });
    const session = await xiaozhi.connection(0);
    const { tools } = await session.listAllTools();
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['echo', 'weather_get']));
  }, 60_000);

  it('has a tray icon whose tooltip and menu follow the status', async () => {
    await waitFor(async () => /1\/1 endpoints connected/.test((await tray()).tooltip), 30_000, 'the connected tooltip');
    const shown = await tray();
    expect(shown.tooltip).toMatch(/^Xiaozhi Tray · 1\/1 endpoints connected · 1 servers · \d+ tools$/);
    expect(shown.menu).toContainEqual({ kind: 'label', label: 'home: connected' });
    expect(shown.menu).toContainEqual(expect.objectContaining({ kind: 'action', id: 'quit', label: 'Quit' }));
  }, 60_000);

  it('round-trips Launch at login through the Settings page and the OS', async () => {
    await page.evaluate(() => (window.location.hash = '#/settings'));
    const toggle = page.getByRole('switch', { name: 'Launch at login' });
    await toggle.waitFor();
    const osSays = () =>
      process.platform === 'linux'
        ? Promise.resolve(fs.existsSync(path.join(work, 'config', 'autostart', 'xiaozhi-tray.desktop')))
        : app.evaluate(({ app: electronApp }) => electronApp.getLoginItemSettings({ args: ['--hidden'] }).openAtLogin);
    expect(await osSays()).toBe(false);
    await toggle.click();
    await waitFor(async () => (await osSays()) === true, 10_000, 'the login item to be set');
    await waitFor(async () => await toggle.isChecked(), 10_000, 'the switch to follow');
    await toggle.click();
    await waitFor(async () => (await osSays()) === false, 10_000, 'the login item to be removed');
  }, 60_000);

  it('brings the first window back when the app is launched a second time', async () => {
    const visible = () => app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows().some((w) => w.isVisible()));
    // Closing the window only hides it.
    await app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows()[0]?.close());
    await waitFor(async () => !(await visible()), 10_000, 'the window to hide');
    const second = spawn(electron.binary!, [ROOT], { cwd: ROOT, env: env(), stdio: 'ignore' });
    const code = await new Promise<number | null>((resolve) => second.on('exit', resolve));
    expect(code).toBe(0);
    await waitFor(visible, 15_000, 'the first window to show again');
  }, 60_000);

  it('quits leaving no child process behind', async () => {
    const pids = fs.readFileSync(pidFile, 'utf8').trim().split('\n').map(Number);
    expect(pids.length).toBeGreaterThanOrEqual(2);
    expect(pids.every(isAlive)).toBe(true);
    const proc = app.process();
    const exited = new Promise<number | null>((resolve) => proc.on('exit', resolve));
    await app.evaluate(({ app: electronApp }) => electronApp.quit());
    expect(await exited).toBe(0);
    await waitFor(() => !pids.some(isAlive), 10_000, 'every server process (and its child) to be gone');
  }, 60_000);
});
