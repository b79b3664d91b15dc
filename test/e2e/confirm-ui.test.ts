import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { FIXTURE } from '../helpers/bridge-harness';
import { type FakeSession, FakeXiaozhi } from '../helpers/fake-xiaozhi';
import { CHROMIUM, closeAll, haveChromium, openWindow, startWindowBridge, type WindowBridge } from '../helpers/headless-window';
import { goTo, screenshot, setLook } from '../helpers/window-pages';

/**
 * Allow and Deny for a call by voice held for the user's OK, end to end: Debian's Chromium drives the
 * web UI of the real headless bridge, a fake xiaozhi asks for a destructive tool of a real child server.
 */
if (!haveChromium && process.env.CI) throw new Error(`${CHROMIUM} is missing; .ci/run installs Debian's chromium`);

let xiaozhi: FakeXiaozhi;
let bridge: WindowBridge;
let browser: Browser;
let page: Page;
let session: FakeSession;
let work = '';
let nextId = 10;

/** What xiaozhi's model receives for a call. */
async function say(name: string, args: Record<string, unknown>): Promise<string> {
  const response = await session.request(nextId++, 'tools/call', { name, arguments: args });
  return response.result?.content?.[0]?.text ?? '';
}

describe.skipIf(!haveChromium)('Allow / Deny in the window, in Chromium', () => {
  beforeAll(async () => {
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'xt-confirm-'));
    xiaozhi = await FakeXiaozhi.start();
    const config = path.join(work, 'xiaozhi-tray.json');
    const files = { name: 'files', transport: 'stdio', command: process.execPath, args: [FIXTURE], env: { FIXTURE_DESTRUCTIVE: '1' } };
    fs.writeFileSync(
      config,
      JSON.stringify({ endpoints: [{ id: 'home', name: 'kitchen', url: xiaozhi.url() }], servers: [files], ui: { language: 'en' } }),
    );
    bridge = await startWindowBridge(config, { HOME: work, XDG_CONFIG_HOME: path.join(work, '.config') });
    session = await xiaozhi.connection(0);
    await session.initialize();
    ({ browser, page } = await openWindow(bridge.url));
  }, 120_000);

  afterAll(async () => {
    await closeAll({ browser, bridge, xiaozhi, work });
  });

  it('shows the held call (tool, server, arguments, who asked, time left) and the PIN on request; Allow runs it as a task whose result the model reads', async () => {
    const asked = await say('delete_file', { path: '/home/me/notes.txt' });
    expect(asked).toBe(
      "This needs the person's OK first: Delete a file (path: /home/me/notes.txt). Ask them for their confirmation PIN, then call confirm_action with what they say, within a minute. If they say no, do not. They have not seen a PIN yet: they can simply press Allow at the top of Xiaozhi Tray's web page, where Show my PIN also shows it.",
    );
    const card = page.getByRole('region', { name: 'Waiting for your OK' });
    await card.getByText('Delete a file').waitFor();
    const text = await card.innerText();
    expect(text).toContain('kitchen asks to run');
    expect(text).toContain('delete_file');
    expect(text).toContain('delete_file · from files');
    expect(text).toContain('/home/me/notes.txt');
    expect(text).toContain('Or say your confirmation PIN to xiaozhi.');
    expect(text).toMatch(/\b(5\d|60) s left/);
    // The PIN the app made is not on the page until the person asks for it.
    expect(text).not.toMatch(/\d{6}/);
    await card.getByRole('button', { name: 'Show my PIN' }).click();
    await card.getByText(/^\d{6}$/).waitFor();
    const pin = (await card.getByText(/^\d{6}$/).innerText()).trim();
    await screenshot(page, 'confirm-pending');
    // Shown to the person now: the model is no longer told where to find it.
    expect(await say('delete_file', { path: '/b' })).toMatch(/If they say no, do not\.$/);
    await card.getByRole('button', { name: 'Allow' }).first().click();
    await page.getByText('Allowed: it is running in the background.').waitFor();
    // The task list on the overview: done, with the result.
    const tasks = page.getByRole('region', { name: 'Calls running in the background' });
    await tasks.getByText('deleted /home/me/notes.txt').waitFor();
    const id = (await tasks.locator('li').first().getAttribute('data-task')) as string;
    expect(await say('task_status', { task: id })).toBe(`Task ${id} (delete file) is done: deleted /home/me/notes.txt`);
    // The other one, by the PIN the person read there.
    expect(await say('confirm_action', { pin })).toBe('deleted /b');
    await card.waitFor({ state: 'detached' });
    await goTo(page, 'history');
    // One row per call, its outcome in the window's words (issue 33).
    await page.getByText('allowed in the web page').first().waitFor();
    await page.getByText('confirmed by voice with the PIN').first().waitFor();
    expect(await page.locator('body').innerText()).not.toContain('(allowed in the web UI)');
    expect(await page.locator('body').innerText()).not.toContain(pin);
  }, 60_000);

  it('Settings → Voice confirmation: hidden until shown, a new one made and shown at once, your own kept; in both languages', async () => {
    await goTo(page, 'settings');
    const section = page.getByRole('region', { name: 'Voice confirmation' });
    await section.scrollIntoViewIfNeeded();
    expect(await section.locator('output').innerText()).toBe('••••••');
    await section.getByRole('button', { name: 'Show' }).click();
    await section.locator('output[data-pin-shown="true"]').waitFor();
    const before = await section.locator('output').innerText();
    expect(before).toMatch(/^\d{6}$/);
    await screenshot(page, 'settings-pin');
    await section.getByRole('button', { name: 'Make a new one' }).click();
    await page.getByText('A new PIN was made.').waitFor();
    await page.waitForFunction((old) => document.querySelector('output.pin-shown')?.textContent !== old, before);
    const input = section.getByLabel('Set your own PIN');
    await input.fill('yes');
    await section.getByText('4 to 8 digits, or one word', { exact: false }).first().waitFor();
    expect(await section.getByRole('button', { name: 'Save' }).isDisabled()).toBe(true);
    await input.fill('橘子汽水');
    await section.getByRole('button', { name: 'Save' }).click();
    await page.getByText('PIN saved.').waitFor();
    await section.getByRole('button', { name: 'Show' }).click();
    await section.getByText('橘子汽水').waitFor();
    await setLook(page, ['zh-CN', 'light']);
    const zh = page.getByRole('region', { name: '语音确认' });
    await zh.scrollIntoViewIfNeeded();
    await zh.getByText('橘子汽水').waitFor();
    expect(await zh.getByRole('button', { name: '隐藏' }).isVisible()).toBe(true);
    await screenshot(page, 'settings-pin-zh');
  }, 60_000);

  it('in Chinese: 拒绝 refuses it, and the model hears the user declined', async () => {
    await setLook(page, ['zh-CN', 'light']);
    const asked = await say('delete_file', { path: '/tmp/a' });
    expect(asked).toBe(
      '这个操作要先经用户同意：“删除文件”（path: /tmp/a）。请向用户要确认口令，再在一分钟内把用户说的内容传给 confirm_action。用户不同意就不要调用。',
    );
    const card = page.getByRole('region', { name: '等待你确认' });
    await card.getByText('kitchen 请求运行').waitFor();
    expect(await card.innerText()).toMatch(/还剩 \d+ 秒/);
    expect(await card.innerText()).toContain('也可以对小智说出你的确认口令。');
    await card.getByRole('button', { name: '显示我的口令' }).click();
    await card.getByText('橘子汽水').waitFor();
    await screenshot(page, 'confirm-pending-zh');
    await card.getByRole('button', { name: '拒绝' }).click();
    await page.getByText('已拒绝。').waitFor();
    await card.waitFor({ state: 'detached' });
    expect(await say('confirm_action', { pin: '橘子，汽水' })).toBe('用户拒绝了：“删除文件”（path: /tmp/a）。');
  }, 60_000);
});
