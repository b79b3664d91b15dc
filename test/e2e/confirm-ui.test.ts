import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { FakeXiaozhi, type FakeSession } from '../helpers/fake-xiaozhi';
import { FIXTURE } from '../helpers/bridge-harness';
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

  it('shows the held call (tool, server, arguments, who asked, time left); Allow runs it as a task whose result the model reads', async () => {
    const asked = await say('delete_file', { path: '/home/me/notes.txt' });
    expect(asked).toMatch(/^This needs the user's confirmation first: Delete a file \(path: \/home\/me\/notes\.txt\)\./);
    const card = page.getByRole('region', { name: 'Waiting for your OK' });
    await card.getByText('Delete a file').waitFor();
    const text = await card.innerText();
    expect(text).toContain('kitchen asks to run');
    expect(text).toContain('delete_file');
    expect(text).toContain('server files');
    expect(text).toContain('/home/me/notes.txt');
    expect(text).toMatch(/\b(5\d|60) s left/);
    await screenshot(page, 'confirm-pending');
    await card.getByRole('button', { name: 'Allow' }).click();
    await page.getByText(/^Allowed: it runs as task [2-9][A-Z]\.$/).waitFor();
    await card.waitFor({ state: 'detached' });
    // The task list on the overview: done, with the result.
    const tasks = page.getByRole('region', { name: 'Long calls' });
    await tasks.getByText('deleted /home/me/notes.txt').waitFor();
    const id = (await tasks.locator('li').first().getAttribute('data-task')) as string;
    expect(await say('task_status', { task: id })).toBe(`Task ${id} (delete file) is done: deleted /home/me/notes.txt`);
    await goTo(page, 'history');
    await page.getByText('kitchen (allowed in the web UI)').first().waitFor();
  }, 60_000);

  it('in Chinese: 拒绝 refuses it, and the model hears the user declined', async () => {
    await setLook(page, ['zh-CN', 'light']);
    const asked = await say('delete_file', { path: '/tmp/a' });
    expect(asked).toContain('这个操作需要先经用户确认：Delete a file (path: /tmp/a)');
    const code = /code 为 "(\d{4})"/.exec(asked)?.[1] as string;
    const card = page.getByRole('region', { name: '等待你确认' });
    await card.getByText('kitchen 请求运行').waitFor();
    expect(await card.innerText()).toMatch(/还剩 \d+ 秒/);
    await card.getByRole('button', { name: '拒绝' }).click();
    await page.getByText('已拒绝。').waitFor();
    await card.waitFor({ state: 'detached' });
    expect(await say('confirm_action', { code })).toBe('用户拒绝了：Delete a file (path: /tmp/a)。');
  }, 60_000);
});
