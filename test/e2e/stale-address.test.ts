import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import type { Browser } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';

import { CHROMIUM, haveChromium, launchChromium, startWindowBridge, type WindowBridge } from '../helpers/headless-window';
import { scaled } from '../helpers/time-scale';

/**
 * `run` restarted keeps its address (port and token, kept in its state folder) so a bookmark works;
 * one that could not keep it (another state folder) prints a new token. The tab that still holds
 * the old one must say so, in its language, instead of "Reconnecting… / Loading…" for ever.
 */
if (!haveChromium && process.env.CI) throw new Error(`${CHROMIUM} is missing; .ci/run installs Debian's chromium`);

let browser: Browser | undefined;
let bridge: WindowBridge | undefined;
let work = '';
afterEach(async () => {
  await browser?.close();
  await bridge?.stop();
  if (work) fs.rmSync(work, { recursive: true, force: true });
  browser = undefined;
  bridge = undefined;
});

describe.skipIf(!haveChromium)('a tab left open across a restart of run', () => {
  it('says its address expired, in Chinese, and opens the new address pasted into it', async () => {
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'xt-stale-'));
    const config = path.join(work, 'xiaozhi-tray.json');
    fs.writeFileSync(config, JSON.stringify({ ui: { language: 'zh-CN' } }));
    bridge = await startWindowBridge(config, { XIAOZHI_TRAY_STATE_DIR: path.join(work, 'state-a') });
    const port = new URL(bridge.url).port;
    browser = await launchChromium();
    // Headless Chromium says en-US: Chinese can only come from the setting this page has seen.
    const page = await (await browser.newContext({ locale: 'en-US' })).newPage();
    await page.goto(bridge.url);
    await page.getByRole('heading', { name: '欢迎使用小智托盘' }).waitFor();

    await bridge.stop();
    // Another state folder: the token of the first run is not known to this one.
    bridge = await startWindowBridge(config, { XIAOZHI_TRAY_STATE_DIR: path.join(work, 'state-b') }, ['--port', port]);
    const fresh = bridge.url;
    expect(new URL(fresh).port).toBe(port);
    await page.reload();
    // Before: "The connection to the bridge was lost. Reconnecting…" and "Loading…", in English, for ever.
    await page.getByText('此页面的访问地址已过期').waitFor({ timeout: scaled(15_000) });
    expect(await page.getByText('Reconnecting').count()).toBe(0);
    expect(await page.getByText('正在加载').count()).toBe(0);
    expect(await page.getByText('已停止').count()).toBe(0);

    // The new address pasted into the same tab is a same-document hash change.
    await page.goto(fresh);
    await page.getByRole('heading', { name: '欢迎使用小智托盘' }).waitFor({ timeout: scaled(15_000) });
    expect(await page.getByText('此页面的访问地址已过期').count()).toBe(0);
  }, 90_000);
});

describe.skipIf(!haveChromium)('a bookmark of the window', () => {
  it('opens it after a restart: the same port and token, kept in a file only the owner reads, in a new tab', async () => {
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'xt-bookmark-'));
    const config = path.join(work, 'xiaozhi-tray.json');
    fs.writeFileSync(config, JSON.stringify({ ui: { language: 'zh-CN' } }));
    const env = { XIAOZHI_TRAY_STATE_DIR: path.join(work, 'state') };
    // The first start takes a free port; the next, given none, the same.
    bridge = await startWindowBridge(config, env, ['--port', '0']);
    const first = bridge.url;
    browser = await launchChromium();
    const context = await browser.newContext({ locale: 'en-US' });
    const page = await context.newPage();
    await page.goto(first);
    await page.getByRole('heading', { name: '欢迎使用小智托盘' }).waitFor();
    // What a bookmark holds: the address bar without the token.
    const bookmark = page.url();
    expect(bookmark).not.toContain('token=');
    await bridge.stop();

    bridge = await startWindowBridge(config, env, [], { keptPort: true });
    expect(bridge.url).toBe(first);
    const kept = fs.readdirSync(path.join(work, 'state', 'web-ui')).map((f) => path.join(work, 'state', 'web-ui', f));
    expect(kept).toHaveLength(1);
    if (process.platform !== 'win32') expect(fs.statSync(kept[0] as string).mode & 0o777).toBe(0o600);
    const later = await context.newPage();
    await later.goto(bookmark);
    await later.getByRole('heading', { name: '欢迎使用小智托盘' }).waitFor({ timeout: scaled(15_000) });
    expect(await later.getByText('此页面的访问地址已过期').count()).toBe(0);
  }, 90_000);
});
