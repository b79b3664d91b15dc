import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { Bridge } from '../../src/main/core/bridge/bridge';
import { MemorySettingsStore } from '../../src/main/core/config/settings-store';
import { LogBook } from '../../src/main/core/logs/log-book';
import { startWebUi, type WebUi } from '../../src/main/core/web/web-ui-server';
import { mirrorUrls } from '../../src/shared/mirrors';
import { installCommand } from '../../src/shared/runtime-need';
import { SettingsSchema } from '../../src/shared/settings';
import { haveChromium, launchChromium } from '../helpers/headless-window';
import { pinsOf, type RuntimeMirror, startRuntimeMirror, uvStandIn } from '../helpers/runtime-mirror';
import { scaled } from '../helpers/time-scale';
import { LOOKS, screenshot } from '../helpers/window-pages';

/**
 * The runtime card and its advice in Chromium, in both languages: the desktop app refusing a uv a
 * download source forged (its own build, with its own checksum file), and the headless web page
 * telling a user in mainland China how to install uv and Node.js, and what --fetch-runtimes does.
 */
const ROOT = path.resolve(__dirname, '../..');

interface Shown {
  bridge: Bridge;
  web: WebUi;
}

let work: string;
let mirror: RuntimeMirror;
let desktop: Shown;
let headless: Shown;
let browser: Browser;
let page: Page;

async function openWindow(settings: unknown, carrier: 'electron' | 'web', runtimes: boolean): Promise<Shown> {
  const logBook = new LogBook();
  const bridge = new Bridge({
    store: new MemorySettingsStore(SettingsSchema.parse(settings)),
    logBook,
    version: '0.1.0',
    env: { ...process.env, PATH: fs.mkdtempSync(path.join(work, 'path-')) },
    stateDir: null,
    host: { info: () => ({ carrier, platform: 'linux', secretStorage: 'encrypted', launchAtLogin: false }) },
    ...(runtimes ? { runtimesDir: fs.mkdtempSync(path.join(work, 'runtimes-')), runtimePins: pinsOf(uvStandIn()) } : {}),
    supervision: { restartBaseMs: 600_000, restartMaxMs: 600_000 },
  });
  bridge.start();
  const web = await startWebUi({ api: bridge.api, rendererDir: path.join(ROOT, 'out', 'renderer'), log: logBook.logger('web') });
  return { bridge, web };
}

async function serversPage(shown: Shown, language: 'en' | 'zh-CN', theme: 'light' | 'dark') {
  await shown.bridge.api.updatePreferences({ ui: { language, theme } });
  await page.goto(shown.web.url);
  // The page drops its token from the address bar first (a navigation of its own).
  await page.locator('h1').first().waitFor();
  await page.evaluate(() => (window.location.hash = '#/servers'));
  await page.locator('#server-time').waitFor();
}

describe.skipIf(!haveChromium || process.platform === 'win32')('the runtime card in the window', () => {
  beforeAll(async () => {
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'xt-runtime-ui-'));
    // A download source serving its own uv, with a matching .sha256 beside it.
    mirror = await startRuntimeMirror({ uv: uvStandIn() });
    const uvx = { name: 'time', transport: 'stdio' as const, command: 'uvx', args: ['mcp-server-time'] };
    desktop = await openWindow({ mirrors: { preset: 'custom', uvDownload: mirror.urls.uvDownload! }, servers: [uvx] }, 'electron', true);
    headless = await openWindow(
      {
        mirrors: { preset: 'china' },
        servers: [uvx, { name: 'fs', transport: 'stdio', command: 'npx', args: ['-y', 'server-filesystem'] }],
      },
      'web',
      false,
    );
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1180, height: 820 } });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    for (const shown of [desktop, headless]) {
      await shown?.web.close();
      await shown?.bridge.stop();
    }
    await mirror?.close();
    fs.rmSync(work, { recursive: true, force: true });
  });

  it('says a forged uv is not the genuine one, was deleted, and where to change the source', async () => {
    for (const [language, theme] of LOOKS) {
      await serversPage(desktop, language, theme);
      const card = page.locator('#server-time');
      await card
        .getByText(
          language === 'en'
            ? 'The uv 0.12.0 that 127.0.0.1 sent is not the genuine one: its SHA-256 differs from the one the app carries. It was deleted and never run.'
            : '127.0.0.1 发送的 uv 0.12.0 不是正版：它的 SHA-256 与应用自带的不一致。该文件已删除，从未运行。',
        )
        .waitFor({ timeout: scaled(30_000) });
      await card.getByRole('link', { name: language === 'en' ? 'Open Download sources' : '打开下载源设置' }).waitFor();
      await screenshot(page, `${language}-runtime-forged-${theme}`);
    }
  }, 120_000);

  it('headless in mainland China: install commands from the mirrors, and what --fetch-runtimes does', async () => {
    const uv = installCommand('uv', 'linux', mirrorUrls({ preset: 'china' }, 'default'));
    for (const [language, theme] of LOOKS) {
      await serversPage(headless, language, theme);
      const card = page.locator('#server-time');
      const hint = card.getByText(uv, { exact: false });
      await hint.waitFor({ timeout: scaled(30_000) });
      const text = await hint.textContent();
      expect(text).toContain('xiaozhi-tray run --fetch-runtimes');
      expect(text).not.toMatch(/astral\.sh|github/);
      const fs = await page.locator('#server-fs').textContent();
      expect(fs).toContain('https://registry.npmmirror.com/-/binary/node/v22.12.0/');
      await screenshot(page, `${language}-runtime-missing-china-${theme}`);
    }
  }, 120_000);

  it('offers the PyPI index for uv among the custom download sources', async () => {
    for (const [language, theme] of LOOKS) {
      await serversPage(desktop, language, theme);
      await page.evaluate(() => (window.location.hash = '#/settings?section=mirrors'));
      await page
        .getByLabel(
          language === 'en'
            ? 'uv from a PyPI index (its wheel; used instead of uv downloads)'
            : 'uv 的 PyPI 索引（下载 uv 的 wheel，优先于 uv 下载地址）',
        )
        .waitFor();
      await screenshot(page, `${language}-runtime-sources-${theme}`);
    }
  }, 120_000);
});
