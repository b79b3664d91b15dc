import path from 'node:path';

import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { Bridge } from '../../src/main/core/bridge/bridge';
import type { UpdatesHost } from '../../src/main/core/bridge/bridge-host';
import { MemorySettingsStore } from '../../src/main/core/config/settings-store';
import { LogBook } from '../../src/main/core/logs/log-book';
import { startWebUi, type WebUi } from '../../src/main/core/web/web-ui-server';
import { SettingsSchema } from '../../src/shared/settings';
import type { UpdateStatus } from '../../src/shared/updates';
import { haveChromium, launchChromium } from '../helpers/headless-window';
import { scaled } from '../helpers/time-scale';
import { LOOKS, screenshot } from '../helpers/window-pages';

/**
 * The updater's UI in Chromium: Settings → Updates, "Check for updates", the mirror, the off switch,
 * "Restart to update to x.y.z", and a problem toasted once. The window talks to a real bridge over
 * the web carrier; the bridge's updates host is a stand-in whose status the test sets (the updater
 * itself is tested against electron-updater in test/main/electron/updates.test.ts).
 */
const ROOT = path.resolve(__dirname, '../..');

class StandInUpdates implements UpdatesHost {
  current: UpdateStatus = { state: 'idle', currentVersion: '0.1.0', feedUrl: 'https://github.com/xiaozhi-tray/xiaozhi-tray/releases' };
  checks = 0;
  installs = 0;
  next: UpdateStatus = { state: 'up-to-date', currentVersion: '0.1.0', checkedAt: Date.UTC(2026, 10, 29, 8, 30) };
  private readonly listeners = new Set<(status: UpdateStatus) => void>();
  status = () => this.current;
  check = async () => {
    this.checks++;
    this.set(this.next);
    return this.current;
  };
  install = async () => void this.installs++;
  subscribe = (listener: (status: UpdateStatus) => void) => {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  };
  set(status: UpdateStatus) {
    this.current = status;
    for (const listener of this.listeners) listener(status);
  }
}

let bridge: Bridge;
let store: MemorySettingsStore;
let updates: StandInUpdates;
let web: WebUi;
let browser: Browser;
let page: Page;

async function settingsPage(language: 'en' | 'zh-CN', theme: 'light' | 'dark') {
  await bridge.api.updatePreferences({ ui: { language, theme } });
  await page.evaluate(() => (window.location.hash = '#/overview'));
  await page.reload();
  await page.evaluate(() => (window.location.hash = '#/settings'));
  await page.getByRole('heading', { name: language === 'en' ? 'Updates' : '更新' }).waitFor();
}

describe.skipIf(!haveChromium)('the updater in the window', () => {
  beforeAll(async () => {
    store = new MemorySettingsStore(SettingsSchema.parse({ ui: { language: 'en', theme: 'light' } }));
    updates = new StandInUpdates();
    const logBook = new LogBook();
    bridge = new Bridge({
      store,
      logBook,
      version: '0.1.0',
      host: { info: () => ({ carrier: 'electron', platform: 'linux', secretStorage: 'encrypted', launchAtLogin: false }), updates },
    });
    web = await startWebUi({ api: bridge.api, rendererDir: path.join(ROOT, 'out', 'renderer'), log: logBook.logger('web') });
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1180, height: 900 } });
    await page.goto(web.url);
    // No endpoint yet: the first-run guide.
    await page.getByRole('heading', { name: 'Welcome to Xiaozhi Tray' }).waitFor();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await web?.close();
    await bridge?.stop();
  });

  it('checks for updates when asked and says the outcome', async () => {
    await settingsPage('en', 'light');
    await page.getByText('Not checked yet.').waitFor();
    await page.getByRole('button', { name: 'Check for updates' }).click();
    await page.getByText(/Xiaozhi Tray 0\.1\.0 is up to date\. Last checked/).waitFor();
    expect(updates.checks).toBe(1);
  });

  it('keeps the mirror and the off switch in the settings, refusing a plain-http mirror', async () => {
    const mirror = page.getByLabel('Update mirror');
    await mirror.fill('http://mirror.example.cn/xiaozhi-tray/');
    await page.getByText('Must be an https:// URL.').waitFor();
    await mirror.fill('https://mirror.example.cn/xiaozhi-tray/');
    await page.locator('.update-status').getByRole('button', { name: 'Save' }).click();
    await page.getByText('Settings saved.').waitFor();
    expect(store.load().updates).toEqual({ enabled: true, mirrorUrl: 'https://mirror.example.cn/xiaozhi-tray/' });
    const auto = page.getByRole('switch', { name: 'Check for updates automatically' });
    await auto.click({ force: true });
    await expect.poll(() => store.load().updates.enabled, { timeout: scaled(10_000) }).toBe(false);
    // Click again once the window shows the saved state (as a person would), not before.
    await page.getByRole('switch', { name: 'Check for updates automatically', checked: false }).waitFor();
    await auto.click({ force: true });
    await expect.poll(() => store.load().updates.enabled, { timeout: scaled(10_000) }).toBe(true);
    await mirror.fill('');
    await page.locator('.update-status').getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => store.load().updates, { timeout: scaled(10_000) }).toEqual({ enabled: true });
  });

  it('toasts a problem once, not at every check', async () => {
    const offline = 'Could not reach the update server. Check your network, or set an update mirror.';
    // A check that finds the machine offline; only the first of a run is announced.
    const offlineCheck = (announce: boolean) =>
      updates.set({
        state: 'error',
        currentVersion: '0.1.0',
        checkedAt: Date.now(),
        error: { code: 'offline', message: 'net::ERR_INTERNET_DISCONNECTED', announce },
      });
    offlineCheck(true);
    await page.getByRole('alert').filter({ hasText: offline }).waitFor();
    offlineCheck(false);
    // The status line says it; the toast is not repeated.
    await page.getByRole('status').filter({ hasText: offline }).waitFor();
    expect(await page.locator('.toast').filter({ hasText: offline }).count()).toBe(1);
    await page.locator('.update-status').scrollIntoViewIfNeeded();
    await screenshot(page, 'en-updates-error');
  });

  it('offers "Restart to update" when a version is downloaded, in both languages and themes', async () => {
    updates.set({ state: 'ready', currentVersion: '0.1.0', version: '0.2.0' });
    await page.getByText('Version 0.2.0 is ready to install.').first().waitFor();
    for (const [language, theme] of LOOKS) {
      await settingsPage(language, theme);
      await page
        .getByRole('button', { name: language === 'en' ? 'Restart to update to 0.2.0' : '重启以更新到 0.2.0' })
        .first()
        .waitFor();
      await page.locator('.update-status').scrollIntoViewIfNeeded();
      await screenshot(page, `${language}-updates-${theme}`);
    }
    await settingsPage('en', 'light');
    await page.getByRole('button', { name: 'Restart to update to 0.2.0' }).first().click();
    await expect.poll(() => updates.installs, { timeout: scaled(10_000) }).toBe(1);
    // A .deb is told where to get the package instead.
    updates.set({
      state: 'manual',
      currentVersion: '0.1.0',
      version: '0.2.0',
      downloadUrl: 'https://github.com/xiaozhi-tray/xiaozhi-tray/releases/tag/v0.2.0',
    });
    const link = page.getByRole('link', { name: 'Download version 0.2.0…' });
    await link.waitFor();
    expect(await link.getAttribute('href')).toBe('https://github.com/xiaozhi-tray/xiaozhi-tray/releases/tag/v0.2.0');
    await screenshot(page, 'en-updates-deb');
  });

  it('says so where the app cannot update itself (a development run, an unpacked folder)', async () => {
    updates.set({ state: 'unsupported', currentVersion: '0.1.0' });
    await page.getByText('This copy does not update itself (a development run or an unpacked folder).').waitFor();
    expect(await page.getByRole('button', { name: 'Check for updates' }).isDisabled()).toBe(true);
  });
});
