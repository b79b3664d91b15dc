import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { clientToken } from '../../src/main/core/local-server/client-tokens';
import { FIXTURE } from '../helpers/bridge-harness';
import { FakeXiaozhi } from '../helpers/fake-xiaozhi';
import { haveChromium, openWindow, startWindowBridge, type WindowBridge } from '../helpers/headless-window';
import { waitFor } from '../helpers/wait';
import { goTo, LOOKS, openAdvancedSettings, screenshot, setLook } from '../helpers/window-pages';

/**
 * The tool-set UI end to end: Chromium drives the window of the real headless bridge; the checks
 * look at what the endpoints and the local clients then get, and screenshots are taken in both
 * languages, light and dark.
 */
const TOKEN = 'ui-local-token-0123456789abcdefgh';

let xiaozhi: FakeXiaozhi;
let bridge: WindowBridge | undefined;
let browser: Browser;
let page: Page;
let work = '';
let home = '';

const fixture = (name: string) => ({ name, transport: 'stdio', command: process.execPath, args: [FIXTURE], env: { FIXTURE_NAME: name } });

describe.skipIf(!haveChromium)('the tool-set UI, end to end in Chromium', () => {
  beforeAll(async () => {
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'xt-sets-e2e-'));
    home = path.join(work, 'home');
    fs.mkdirSync(path.join(home, '.cursor'), { recursive: true });
    fs.writeFileSync(
      path.join(home, '.cursor', 'mcp.json'),
      `{\n  // Cursor's own file\n  "mcpServers": {\n    "github": { "command": "npx", "args": ["-y", "gh"] }\n  }\n}\n`,
    );
    xiaozhi = await FakeXiaozhi.start();
    const config = path.join(work, 'xiaozhi-tray.json');
    fs.writeFileSync(
      config,
      JSON.stringify(
        {
          endpoints: [
            { id: 'kitchen', name: '厨房音箱', url: xiaozhi.url('kitchen-token-0123456789'), toolSet: '厨房' },
            { id: 'desk', name: '书房', url: xiaozhi.url('desk-token-0123456789') },
          ],
          servers: [fixture('weather'), fixture('notes')],
          toolSets: [
            {
              name: '厨房',
              servers: ['weather'],
              tools: {
                weather: { big: { enabled: false }, crash: { enabled: false }, echo: { enabled: true, description: '重复你说的话' } },
              },
            },
          ],
          localServer: { enabled: true, port: 0, token: TOKEN, clients: { cursor: { toolSet: '厨房' } } },
          ui: { language: 'en', theme: 'system' },
        },
        null,
        2,
      ),
    );
    const app = await startWindowBridge(config, { HOME: home, XDG_CONFIG_HOME: path.join(home, '.config'), XIAOZHI_TRAY_STATE_DIR: work });
    bridge = app;
    await waitFor(() => (app.output().match(/\] running \(pid/g) ?? []).length >= 2, 20_000, 'both servers');
    ({ browser, page } = await openWindow(app.url, 860, { width: 1240, permissions: ['clipboard-read', 'clipboard-write'] }));
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await bridge?.stop();
    await xiaozhi?.close();
    if (work) fs.rmSync(work, { recursive: true, force: true });
  });

  it('creates a set, fills it, and an endpoint moved onto it serves exactly that', async () => {
    await goTo(page, 'toolSets');
    await page.getByRole('button', { name: /^厨房/ }).waitFor();
    await page.getByRole('button', { name: '+ New set' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Name').fill('Study desk');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await dialog.waitFor({ state: 'detached' });
    const detail = page.getByRole('region', { name: 'Study desk' });
    await detail.getByRole('heading', { name: 'Study desk' }).waitFor();
    // A new set holds no server's tools yet, only the bridge's own (task_status, cancel_task), always there.
    await detail.getByRole('region', { name: 'Built into this app' }).getByRole('switch', { name: 'Serve task_status' }).waitFor();
    expect(await detail.getByRole('switch', { name: 'Serve weather_get' }).count()).toBe(0);
    // The box follows the saved settings: it turns on once the change is made.
    await detail.getByRole('checkbox', { name: 'notes' }).click();
    await waitFor(() => detail.getByRole('checkbox', { name: 'notes' }).isChecked(), 5000, 'notes to be chosen');
    await detail.getByRole('switch', { name: 'Serve weather_get' }).waitFor();
    await detail.getByRole('switch', { name: 'Serve stderr' }).click({ force: true });
    await waitFor(async () => !(await detail.getByRole('switch', { name: 'Serve stderr' }).isChecked()), 5000, 'the switch to turn off');

    await goTo(page, 'endpoints');
    const before = xiaozhi.sessions.length;
    await page
      .getByRole('listitem')
      .filter({ hasText: '书房' })
      .getByRole('combobox', { name: 'Tool set' })
      .selectOption({ label: 'Study desk' });
    const session = await xiaozhi.connection(before, 15_000);
    await session.initialize();
    const names = (await session.listAllTools(100)).tools.map((t) => t.name);
    expect(names).toContain('echo');
    expect(names).not.toContain('stderr');
    expect(names).toContain('task_status');
    expect((await session.request(5, 'tools/call', { name: 'echo', arguments: { text: 'hi' } })).result?.content?.[0]?.text).toBe(
      'notes: hi',
    );
  });

  it('shows the local server with its address and token, and adds it to Cursor keeping the rest of its file', async () => {
    await goTo(page, 'settings');
    // The local server is under Settings' Advanced fold (issue 33): opened as a person would.
    await openAdvancedSettings(page);
    const section = page.getByRole('region', { name: 'Local MCP server' });
    await section.getByText('Listening').waitFor();
    const address = await section.getByLabel('Address').inputValue();
    expect(address).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    expect(await section.getByLabel('Token').inputValue()).not.toContain(TOKEN);
    await section.getByRole('button', { name: 'Show' }).click();
    await waitFor(async () => (await section.getByLabel('Token').inputValue()) === TOKEN, 5000, 'the token to show');
    await section.getByRole('button', { name: 'Hide' }).click();

    await section.getByRole('button', { name: 'Add to Cursor' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText(path.join(home, '.cursor', 'mcp.json')).waitFor();
    await dialog.getByText('The other server in the file stays as it is.', { exact: false }).waitFor();
    expect(await dialog.locator('pre').textContent()).not.toContain(TOKEN);
    await screenshot(page, 'toolsets-en-light-add-to-cursor');
    await dialog.getByRole('button', { name: 'Add', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    const written = fs.readFileSync(path.join(home, '.cursor', 'mcp.json'), 'utf8');
    expect(written).toContain("// Cursor's own file");
    expect(written).toContain('"github": { "command": "npx", "args": ["-y", "gh"] }');
    expect(written).toContain(`"url": "${address}/cursor"`);
    // Cursor's own token, which opens /mcp/cursor only; the file (644 here) was made the user's alone, as the dialog offered.
    expect(written).toContain(`"Authorization": "Bearer ${clientToken(TOKEN, 'cursor')}"`);
    if (process.platform !== 'win32') expect(fs.statSync(path.join(home, '.cursor', 'mcp.json')).mode & 0o077).toBe(0);
  });

  it('renders the tool-set UI in both languages, light and dark', async () => {
    for (const look of LOOKS) {
      const [language, theme] = look;
      await setLook(page, look);
      const shot = (name: string) =>
        screenshot(page, `toolsets-${language}-${theme}-${name}`, { fullPage: name !== 'add-to' && name !== 'new-set' });
      // A dialog, once it shows `text`: its picture, then Esc closes it.
      const dialogShot = async (text: string, name: string) => {
        await page.getByRole('dialog').getByText(text).waitFor();
        await shot(name);
        await page.keyboard.press('Escape');
        await page.getByRole('dialog').waitFor({ state: 'detached' });
      };
      await goTo(page, 'toolSets');
      await page.getByRole('heading', { name: language === 'en' ? 'Tool sets' : '工具集' }).waitFor();
      await page.getByRole('button', { name: /^厨房/ }).click();
      await page.getByRole('region', { name: '厨房' }).getByRole('switch').first().waitFor();
      expect(await page.getByText(language === 'en' ? 'Used by 厨房音箱, Cursor' : '使用者：厨房音箱、Cursor').count()).toBe(1);
      await shot('sets');
      await page.getByRole('button', { name: language === 'en' ? '+ New set' : '+ 新建工具集' }).click();
      await page
        .getByRole('dialog')
        .getByRole('button', { name: language === 'en' ? 'Create' : '创建' })
        .click();
      await dialogShot(language === 'en' ? 'Give the set a name.' : '请为工具集命名。', 'new-set');
      await page.getByRole('button', { name: language === 'en' ? /^All tools/ : /^全部工具/ }).click();
      await page.getByText(language === 'en' ? 'The default set: every tool' : '默认工具集：所有服务的全部工具').waitFor();
      await goTo(page, 'endpoints');
      await shot('endpoints');
      await goTo(page, 'settings');
      await openAdvancedSettings(page);
      const section = page.getByRole('region', { name: language === 'en' ? 'Local MCP server' : '本机 MCP 服务' });
      await section.scrollIntoViewIfNeeded();
      await shot('settings');
      await section.getByRole('button', { name: language === 'en' ? 'Add to Claude Desktop' : '添加到 Claude Desktop' }).click();
      await dialogShot(language === 'en' ? 'The file does not exist yet' : '该文件尚不存在', 'add-to');
    }
    await setLook(page, ['en', 'light']);
  }, 180_000);
});
