import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { catalogServer } from '../helpers/catalogs';
import { type FakeSession, FakeXiaozhi } from '../helpers/fake-xiaozhi';
import { closeAll, haveChromium, openWindow, startWindowBridge, type WindowBridge } from '../helpers/headless-window';
import { waitFor } from '../helpers/wait';
import { goTo, LOOKS, screenshot, setLook } from '../helpers/window-pages';

/**
 * Router mode and the tool budget in the real window (Chromium, headless bridge, real servers):
 * one endpoint over budget with every tool, one in router mode, in both languages and themes.
 */

let xiaozhi: FakeXiaozhi;
let bridge: WindowBridge;
let browser: Browser;
let page: Page;
let home: FakeSession;
let work = '';

describe.skipIf(!haveChromium)('router mode and the tool budget in the window', () => {
  beforeAll(async () => {
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'xt-e2e-router-'));
    xiaozhi = await FakeXiaozhi.start();
    const config = path.join(work, 'xiaozhi-tray.json');
    fs.writeFileSync(
      config,
      JSON.stringify({
        endpoints: [
          { id: 'home', name: '家里', url: xiaozhi.url('home.token.sig'), toolMode: 'all' },
          { id: 'office', name: 'office', url: xiaozhi.url('office.token.sig'), toolMode: 'router', pinned: ['get_current_weather'] },
        ],
        servers: ['github', 'weather', 'home-assistant', 'netease-music'].map((name) => catalogServer(name)),
        ui: { language: 'en' },
      }),
    );
    bridge = await startWindowBridge(config);
    await xiaozhi.connection(1);
    for (const session of xiaozhi.sessions) await session.initialize();
    ({ browser, page } = await openWindow(bridge.url, 860));
    // The four servers' 142 tools and the bridge's own two (task_status, cancel_task), said on the overview's card.
    await waitFor(async () => (await page.getByText(/sees all 142 of your tools/).count()) > 0, 20_000, 'all four servers served');
  }, 120_000);

  afterAll(() => closeAll({ browser, bridge, xiaozhi, work }));

  it('shows each endpoint’s mode and what it is served, and warns past the budget', async () => {
    await goTo(page, 'endpoints');
    const homeRow = page.getByRole('listitem').filter({ hasText: '家里' });
    await homeRow.getByText('Over budget').waitFor();
    await homeRow.getByRole('button', { name: 'Choose automatically' }).waitFor();
    const officeRow = page.getByRole('listitem').filter({ hasText: 'office' });
    // find_tools, call_tool, the pinned get_current_weather and the bridge's own task_status and cancel_task.
    await officeRow.getByText(/^xiaozhi gets 5 helper tools \(search, confirm…\) to find your \d+ tools$/).waitFor();
    expect(await officeRow.getByRole('radio', { name: 'Search first' }).getAttribute('aria-checked')).toBe('true');
    // Pinned tools wait under Advanced.
    await officeRow.getByText('Advanced', { exact: true }).click();
    await officeRow.getByText('get_current_weather').waitFor();
  });

  it('switching an endpoint to automatic in the window sends it list_changed and the small list (it searches past the budget)', async () => {
    // Which fake session is 家里: the one whose tools/list has all 144 tools.
    let homeSession: FakeSession | undefined;
    for (const session of xiaozhi.sessions)
      if ((await session.listAllTools(100 + xiaozhi.sessions.indexOf(session) * 100)).tools.length === 144) homeSession = session;
    home = homeSession as FakeSession;
    const mark = home.mark();
    await goTo(page, 'endpoints');
    await page.getByRole('listitem').filter({ hasText: '家里' }).getByRole('button', { name: 'Choose automatically' }).click();
    await home.waitForNotification('notifications/tools/list_changed', mark);
    // With the bridge's own task tools beside them.
    expect((await home.listAllTools(5000)).tools.map((t) => t.name)).toEqual(['call_tool', 'cancel_task', 'find_tools', 'task_status']);
    const homeRow = page.getByRole('listitem').filter({ hasText: '家里' });
    await homeRow.getByText('You have many tools, so xiaozhi searches for the right one first, then calls it.').waitFor();
    await homeRow.getByText('Details', { exact: true }).click();
    await homeRow.getByText(/^xiaozhi gets 4 helper tools \(search, confirm…\) to find your 142 tools$/).waitFor();
    // And back, so the screenshots show both modes.
    await homeRow.getByRole('radio', { name: 'Every tool' }).click();
    await page.getByRole('listitem').filter({ hasText: '家里' }).getByText('Over budget').waitFor();
  });

  it('speaks each language on the router pages: the preview finds by meaning, the description editor, the budget, the schema check', async () => {
    for (const look of LOOKS) {
      const [language, theme] = look;
      const en = language === 'en';
      await setLook(page, look);
      const shot = (name: string) => screenshot(page, `router-${language}-${theme}-${name}`);
      await goTo(page, 'endpoints');
      expect(await page.getByRole('radiogroup').count()).toBe(2);
      await shot('endpoints');
      const office = page.getByRole('listitem').filter({ hasText: 'office' });
      // Advanced may be open already (the window keeps a details' state while the page stays).
      const advanced = office.locator('details.serving-advanced');
      if ((await advanced.getAttribute('open')) === null) await advanced.locator(':scope > summary').click();
      await office.getByRole('button', { name: en ? 'What xiaozhi sees' : '小智看到的内容' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByText('find_tools', { exact: true }).waitFor();
      await dialog.getByRole('searchbox').fill(en ? 'turn off the living room lights' : '明天北京天气怎么样');
      const hits = dialog.getByRole('list', { name: en ? 'Try a search' : '试试搜索' });
      await hits.waitFor();
      expect(await hits.textContent()).toMatch(en ? /HassTurnOff|HassLightSet/ : /get_daily_forecast/);
      await shot('preview');
      await page.keyboard.press('Escape');
      await goTo(page, 'tools');
      await page.getByRole('button', { name: en ? 'Edit the description of get_sun_moon' : '编辑 get_sun_moon 的描述' }).click();
      await page.getByRole('dialog').waitFor();
      await shot('describe');
      await page.keyboard.press('Escape');
      await goTo(page, 'settings');
      // The budget is a technical setting, folded under Settings' Advanced (closed until the person opens it).
      const folded = page.locator('details.advanced-settings');
      if ((await folded.getAttribute('open')) === null) await folded.locator(':scope > summary').click();
      await page.getByRole('heading', { name: en ? 'Tool budget per endpoint' : '每个接入点的工具预算' }).scrollIntoViewIfNeeded();
      await shot('settings');
      await goTo(page, 'servers');
      await page
        .getByRole('button', { name: en ? 'Edit' : '编辑' })
        .first()
        .click();
      await page
        .getByRole('switch', { name: en ? 'Check each call against what the tool asks for' : '调用前检查小智给的内容是否符合工具的要求' })
        .waitFor();
      await shot('server-editor');
      await page.keyboard.press('Escape');
      await goTo(page, 'overview');
      await shot('overview');
    }
  }, 180_000);
});
