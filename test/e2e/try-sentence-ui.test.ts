import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { FIXTURE } from '../helpers/bridge-harness';
import { FakeXiaozhi } from '../helpers/fake-xiaozhi';
import { closeAll, haveChromium, openWindow, startWindowBridge, type WindowBridge } from '../helpers/headless-window';
import { MODEL_KEY, ModelStandIn } from '../helpers/model-stand-in';
import { goTo, LOOKS, screenshot, setLook } from '../helpers/window-pages';

/**
 * "试一句话 / Try a sentence" in the real window (Chromium, headless bridge, a real fixture server, the
 * stand-in provider as the model): the pick, its arguments and our check, in both languages; a model
 * set up from the page; with no model, the one line that says how to add one.
 */

let provider: ModelStandIn;
let xiaozhi: FakeXiaozhi;
let bridge: WindowBridge;
let browser: Browser;
let page: Page;
let work = '';

describe.skipIf(!haveChromium)('Try a sentence in the window', () => {
  beforeAll(async () => {
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'xt-e2e-try-'));
    provider = await ModelStandIn.start();
    xiaozhi = await FakeXiaozhi.start();
    // The model picks weather.get (served as weather_get) for a sentence about the weather, with the city it heard.
    provider.reply = (body) => {
      const sentence = ModelStandIn.sentence(body);
      if (/天气|weather/i.test(sentence))
        return { call: 'weather_get', arguments: { city: /北京|Beijing/.test(sentence) ? '北京' : '上海' } };
      return { text: sentence.includes('你') ? '你好！' : 'Hello!' };
    };
    const config = path.join(work, 'xiaozhi-tray.json');
    fs.writeFileSync(
      config,
      JSON.stringify({
        endpoints: [{ id: 'home', name: '家里', url: xiaozhi.url() }],
        servers: [{ name: 'fx', transport: 'stdio', command: process.execPath, args: [FIXTURE], env: { FIXTURE_NAME: 'fx' } }],
        ui: { language: 'en' },
      }),
    );
    bridge = await startWindowBridge(config);
    ({ browser, page } = await openWindow(bridge.url, 900));
  }, 120_000);

  afterAll(async () => {
    await closeAll({ browser, bridge, xiaozhi, work });
    await provider.close();
  });

  it('with no model, says in one line how to add one, and cannot ask', async () => {
    await goTo(page, 'trySentence');
    await page.getByText(/^No model yet: choose one under Model below/).waitFor();
    expect(await page.getByRole('button', { name: 'Ask', exact: true }).isDisabled()).toBe(true);
    // The model form is below every tool's sentences: the notice takes the user there.
    await page.getByRole('button', { name: 'Set up a model' }).click();
    await page.waitForFunction(() => document.activeElement?.tagName === 'SELECT');
    expect(await page.getByLabel('Provider').evaluate((el) => el === document.activeElement)).toBe(true);
  });

  it('sets up a model on the page, its key kept masked', async () => {
    await goTo(page, 'trySentence');
    await page.getByLabel('Provider').selectOption('custom');
    await page.getByLabel('API address').fill(provider.baseUrl);
    // Saved without a model name (no preset to fill it in): the form says what is still missing.
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Still missing: Model. Fill it in and press Save.').waitFor();
    await page.getByRole('textbox', { name: 'Model', exact: true }).fill('stand-in-chat');
    await page.getByLabel('API key').fill(MODEL_KEY);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText(/^Set \(sk-S.*\)\. Type a new one to replace it\./).waitFor();
    expect(await page.content()).not.toContain(MODEL_KEY);
    await page.getByRole('button', { name: 'Test' }).click();
    await page.getByText(/^The model answered in \d+ ms\./).waitFor();
  });

  for (const look of LOOKS) {
    it(`shows the tool the model picks, its arguments and our check (${look.join(', ')})`, async () => {
      await setLook(page, look);
      await goTo(page, 'trySentence');
      const zh = look[0] === 'zh-CN';
      await page.locator('textarea').fill(zh ? '明天北京天气怎么样？' : 'What is the weather in Beijing tomorrow?');
      await page.getByRole('button', { name: zh ? '问一问' : 'Ask', exact: true }).click();
      await page.locator('.try-pick code', { hasText: 'weather_get' }).waitFor();
      await page
        .getByText(zh ? '参数检查通过。' : 'Our argument check accepts them.')
        .first()
        .waitFor();
      expect(await page.locator('.try-arguments').first().textContent()).toContain('北京');
      await screenshot(page, `try-sentence-${look.join('-')}`, { fullPage: true });
    });
  }

  it('when the model picks no tool, says what to do next', async () => {
    await setLook(page, ['zh-CN', 'light']);
    await goTo(page, 'trySentence');
    await page.locator('textarea').fill('你好');
    await page.getByRole('button', { name: '问一问', exact: true }).click();
    await page.getByText('你好！').waitFor();
    await page.getByText(/^如果它该选某个工具：在下方“示例句子”里/).waitFor();
  });

  it('finds a tool the model passes over with Check all, and a suggested description accepted makes it pass', async () => {
    await setLook(page, ['en', 'light']);
    // Now the model picks weather_get only when its description speaks of a forecast; asked for one, it writes one.
    provider.reply = (body) => {
      if (!body.tools) return { text: 'Weather forecast for a city: will it rain, how warm tomorrow.' };
      const weather = body.tools.find((tool) => tool.function.name === 'weather_get');
      return /forecast/.test(weather?.function.description ?? '')
        ? { call: 'weather_get', arguments: { city: '北京' } }
        : { text: 'Not sure.' };
    };
    await goTo(page, 'trySentence');
    const row = page.locator('.try-sets li').filter({ has: page.locator('code', { hasText: /^weather_get$/ }) });
    await row.getByRole('button', { name: 'Sentences' }).click();
    await row.locator('textarea').fill('Will it rain in Beijing tomorrow?\n明天北京热不热');
    await row.getByRole('button', { name: 'Save' }).click();
    await row.getByText('2 sentences').waitFor();
    await page.getByRole('button', { name: 'Check all' }).click();
    await row.getByText('0/2 picked').waitFor();
    await row.getByRole('button', { name: 'Suggest a description' }).click();
    await row.getByText('Weather forecast for a city: will it rain, how warm tomorrow.').waitFor();
    await row.getByText(/: (saves|adds) /).waitFor();
    await screenshot(page, 'try-sentence-suggestion-en-light', { fullPage: true });
    await row.getByRole('button', { name: 'Use it' }).click();
    await row.getByText('2/2 picked').waitFor();
  });
});
