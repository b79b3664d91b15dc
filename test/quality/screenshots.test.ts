import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, it } from 'vitest';

import { FIXTURE } from '../helpers/bridge-harness';
import { FakeXiaozhi } from '../helpers/fake-xiaozhi';
import { closeAll, haveChromium, openWindow, startWindowBridge, type WindowBridge } from '../helpers/headless-window';
import { type RegistryStandIn, startRegistryStandIn } from '../helpers/registry-standin';
import { goTo, screenshot, setLook } from '../helpers/window-pages';

/**
 * The screenshot matrix (`npm run screenshots`, a quality run, not part of `npm test`): every page and
 * the main dialogs, in both languages and both themes, at 1100×720 and 800×600, into
 * test-results/screenshots, for a person to look at.
 */
// SCREENSHOTS_PAGES=overview,servers takes only those pages, without the dialogs (a quicker look).
const ONLY = process.env.SCREENSHOTS_PAGES?.split(',').filter(Boolean);
const PAGES = ONLY ?? ['overview', 'endpoints', 'servers', 'tools', 'toolSets', 'trySentence', 'activity', 'logs', 'history', 'settings'];
// SCREENSHOTS_WIDTHS=1280,800 takes them at those widths instead (each at 720 high, 600 from 800 down).
const SIZES = (
  process.env.SCREENSHOTS_WIDTHS?.split(',')
    .map(Number)
    .filter((w) => w >= 320) ?? [1100, 800]
).map((width) => [width, width > 800 ? 720 : 600] as const);

let xiaozhi: FakeXiaozhi;
let registry: RegistryStandIn;
let bridge: WindowBridge;
let browser: Browser;
let page: Page;
let work = '';
let importFile = '';

describe.skipIf(!haveChromium)('screenshots of every page', () => {
  beforeAll(async () => {
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'xt-shots-'));
    xiaozhi = await FakeXiaozhi.start();
    registry = await startRegistryStandIn();
    const crashing =
      'process.stderr.write(\'Traceback (most recent call last):\\n  File "server.py", line 3\\nValueError: missing API key\\n\'); process.exit(1)';
    importFile = path.join(work, 'xiaozhi.config.json');
    fs.writeFileSync(
      importFile,
      JSON.stringify({
        mcpEndpoint: 'wss://api.xiaozhi.me/mcp/?token=eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ5In0.c2ln',
        mcpServers: {
          fixture: { command: 'npx', args: ['-y', 'fixture-mcp'] },
          'amap-maps': { command: 'npx', args: ['-y', '@amap/amap-maps-mcp-server'], env: { AMAP_MAPS_API_KEY: 'amap-0123456789abcdef' } },
        },
      }),
    );
    const config = path.join(work, 'xiaozhi-tray.json');
    fs.writeFileSync(
      config,
      JSON.stringify({
        endpoints: [
          { id: 'home', name: '家里', url: xiaozhi.url() },
          { id: 'office', name: 'office', url: 'ws://127.0.0.1:39998/mcp/?token=eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln' },
        ],
        servers: [
          {
            name: 'fixture',
            transport: 'stdio',
            command: process.execPath,
            args: [FIXTURE],
            env: { FIXTURE_NAME: 'fixture', API_TOKEN: 'tok-1234567890' },
          },
          { name: 'weather-py', transport: 'stdio', command: process.execPath, args: ['-e', crashing] },
          { name: 'remote', transport: 'streamable-http', url: 'http://127.0.0.1:39999/mcp' },
        ],
        tools: { fixture: { big: { enabled: false }, echo: { enabled: true, description: '复读一句话（说明已修改）' } } },
        ui: { language: 'en' },
      }),
    );
    bridge = await startWindowBridge(config, {
      HOME: work,
      XDG_CACHE_HOME: path.join(work, 'cache'),
      XIAOZHI_TRAY_REGISTRY_URL: registry.url,
    });
    const session = await xiaozhi.connection(0);
    await session.initialize();
    await session.listAllTools();
    for (const [i, text] of ['上海', '北京'].entries())
      await session.request(`w${i}`, 'tools/call', { name: 'weather_get', arguments: { city: text } });
    await session.request('f', 'tools/call', { name: 'fail', arguments: {} });
    ({ browser, page } = await openWindow(bridge.url, 720, { width: 1100 }));
  }, 120_000);

  afterAll(async () => {
    await closeAll({ browser, bridge, xiaozhi, work });
    await registry?.close();
  });

  // A page that reads its data first (activity) is photographed once it has, not while it says "Loading…".
  const go = async (name: string) => {
    await goTo(page, name);
    await page.waitForFunction(
      () => ![...document.querySelectorAll('main p')].some((p) => /^(Loading…|正在加载…)$/.test(p.textContent ?? '')),
    );
    if (name === 'activity') await page.locator('.activity-chart .u-legend, .empty').first().waitFor();
  };
  const shot = (name: string) => screenshot(page, name);

  it('takes them all', async () => {
    for (const language of ['en', 'zh-CN'] as const) {
      for (const theme of ['light', 'dark'] as const) {
        await setLook(page, [language, theme]);
        for (const [width, height] of SIZES) {
          await page.setViewportSize({ width, height });
          const tag = `${language}-${theme}-${width}`;
          for (const name of PAGES) {
            await go(name);
            await shot(`${tag}-${name}`);
          }
          // Settings' local server, below the fold (the page scrolls inside the window, not the document).
          if (PAGES.includes('settings')) {
            await go('settings');
            await page.locator('.local-server').scrollIntoViewIfNeeded();
            await shot(`${tag}-settings-local-server`);
          }
          if (ONLY) continue;
          await go('servers');
          await page.locator('.page-header').getByRole('button').last().click();
          await page.locator('dialog .catalogue-entry').first().waitFor();
          await shot(`${tag}-catalogue`);
          await page.locator('dialog .catalogue-pick').first().click();
          await page.waitForTimeout(150);
          await shot(`${tag}-catalogue-values`);
          await page.keyboard.press('Escape');
          // The filesystem entry: its value has a hint with a Windows path in it.
          await page.locator('.page-header').getByRole('button').last().click();
          await page.locator('dialog .catalogue-entry').first().waitFor();
          await page
            .locator('dialog .catalogue-entry', { has: page.locator('#filesystem-desc') })
            .locator('.catalogue-pick')
            .click();
          await page.waitForTimeout(150);
          await shot(`${tag}-catalogue-filesystem`);
          await page.keyboard.press('Escape');
          // An import with a conflicting server (rename, replace), a new one and an endpoint.
          await page.locator('input[type=file]').setInputFiles(importFile);
          await page.locator('dialog .import-list').first().waitFor();
          await shot(`${tag}-import`);
          await page.keyboard.press('Escape');
          const zh = language === 'zh-CN';
          // "Add to Cursor" while the local server is off: the warning and its button.
          await go('settings');
          await page.getByRole('button', { name: zh ? '添加到 Cursor' : 'Add to Cursor' }).click();
          await page.locator('dialog .notice-warn').waitFor();
          await shot(`${tag}-add-to-cursor-off`);
          await page.keyboard.press('Escape');
          // Router mode's "try a search" with words no tool says.
          await go('endpoints');
          const card = page.locator('main .list > li').first();
          await card.getByText(zh ? '详情' : 'Details', { exact: true }).click();
          await card.getByRole('radio', { name: zh ? '先搜索' : 'Search first' }).click();
          // Advanced may be open already (the window keeps a details' state while the page stays).
          const advanced = card.locator('details.serving-advanced');
          if ((await advanced.getAttribute('open')) === null) await advanced.locator(':scope > summary').click();
          await card.getByRole('button', { name: zh ? '小智看到的内容' : 'What xiaozhi sees' }).click();
          await page.getByRole('searchbox').fill('帮我做个蛋糕');
          await page.getByText(zh ? '没有匹配的工具。' : 'No tool matches.').waitFor();
          await shot(`${tag}-router-search-none`);
          // Escape in a search field empties it first; the second closes the dialog.
          await page.keyboard.press('Escape');
          await page.keyboard.press('Escape');
          await page.locator('dialog').waitFor({ state: 'detached' });
          await card.getByRole('radio', { name: zh ? '自动' : 'Automatic' }).click();
          await go('tools');
          await page.locator('.tool').first().getByRole('button').last().click();
          await page.locator('dialog').waitFor();
          await shot(`${tag}-try`);
          await page.keyboard.press('Escape');
        }
      }
    }
  }, 600_000);
});
