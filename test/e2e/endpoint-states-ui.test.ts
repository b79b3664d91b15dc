import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { FIXTURE } from '../helpers/bridge-harness';
import { FakeXiaozhi } from '../helpers/fake-xiaozhi';
import { closeAll, haveChromium, openWindow, startWindowBridge, type WindowBridge } from '../helpers/headless-window';
import { RelayStandIn } from '../helpers/relay-stand-in';
import { scaled } from '../helpers/time-scale';
import { waitFor } from '../helpers/wait';
import { goTo, LOOKS, screenshot, setLook } from '../helpers/window-pages';

/**
 * The endpoint states of issue 31 in the real window, against the self-hosted relay's stand-in:
 * another copy of ours holding the endpoint (named), the same endpoint pasted again (refused, with
 * the one it is), and each verdict of "Test connection" (a refused token, tools read through the
 * relay, a self-hosted endpoint that lists only when a device talks, another program holding it).
 * `npm run screenshots` photographs each, in both languages.
 */
let relay: RelayStandIn;
let quiet: FakeXiaozhi;
let first: WindowBridge;
let second: WindowBridge;
let browser: Browser;
let page: Page;
let work = '';

describe.skipIf(!haveChromium)('endpoint states in the window', () => {
  beforeAll(async () => {
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'xt-endpoint-states-'));
    relay = await RelayStandIn.start();
    quiet = await FakeXiaozhi.start();
    const config = (name: string) => {
      const file = path.join(work, `${name}.json`);
      fs.writeFileSync(
        file,
        JSON.stringify({
          endpoints: [{ id: 'home', name: 'home', url: relay.toolUrl() }],
          servers: [{ name: 'fixture', transport: 'stdio', command: process.execPath, args: [FIXTURE], env: { FIXTURE_NAME: 'fixture' } }],
          connection: { relayCheckMs: 1000 },
          ui: { language: 'en' },
        }),
        { mode: 0o600 },
      );
      return file;
    };
    // Two copies of the app with one state folder, on one endpoint: one holds it, the other waits and says who.
    const env = { XIAOZHI_TRAY_STATE_DIR: path.join(work, 'state'), HOME: work };
    first = await startWindowBridge(config('first'), env);
    await relay.whenRegistered(true, undefined, 15_000);
    second = await startWindowBridge(config('second'), env);
    // They settle: one holds the endpoint (xiaozhi's call answered), the other waits.
    await waitFor(
      () =>
        first.output().includes('another copy of Xiaozhi Tray is using this endpoint') ||
        second.output().includes('another copy of Xiaozhi Tray is using this endpoint'),
      20_000,
      'one copy to wait for the other',
    );
    // The one whose log last said it waits (rather than that it connected) is the one waiting.
    const waits = (copy: WindowBridge) => copy.output().lastIndexOf('waiting for it to let go') > copy.output().lastIndexOf('] connected');
    // Settled: the same copy waiting for 3 s in a row.
    let since = Date.now();
    let last: boolean | undefined;
    await waitFor(
      () => {
        const now = waits(first) !== waits(second) ? waits(second) : undefined;
        if (now !== last) [last, since] = [now, Date.now()];
        return last !== undefined && Date.now() - since > 3000;
      },
      30_000,
      'one copy holding the endpoint and the other waiting',
    );
    const waiting = waits(second) ? second : first;
    ({ browser, page } = await openWindow(waiting.url, 900));
  }, 120_000);

  afterAll(async () => {
    await closeAll({ browser, bridge: second, xiaozhi: relay, work });
    await first?.stop();
    await quiet?.close();
  });

  for (const look of LOOKS) {
    const [language, theme] = look;
    const zh = language === 'zh-CN';
    it(`${language} ${theme}: another copy holding the endpoint, a pasted duplicate, and each test verdict`, async () => {
      await setLook(page, look);
      // Another copy holds the endpoint: said in the sidebar, the overview and on the card, with who it is.
      await goTo(page, 'overview');
      const held = zh ? '另一个程序正在使用接入点' : 'Another program is using the endpoint';
      await page
        .getByText(held)
        .first()
        .waitFor({ timeout: scaled(20_000) });
      await page
        .getByText(zh ? '另一个小智托盘正在使用这个接入点' : 'Another copy of Xiaozhi Tray is using this endpoint', { exact: false })
        .first()
        .waitFor();
      expect(await page.getByText(zh ? '正在连接小智…' : 'Connecting to xiaozhi…').count()).toBe(0);
      await screenshot(page, `endpoint-replaced-${language}-${theme}`);

      await goTo(page, 'endpoints');
      // The same endpoint pasted again, as a JSON value with its quotes: refused, naming the one it is.
      const url = page.locator('.add-endpoint input').first();
      await url.fill(`"${relay.toolUrl().replace('/mcp/', '/mcp')}",`);
      await page
        .getByText(zh ? '已去掉粘贴内容中的引号、后面的标点。' : 'Took quotes, punctuation after it off the pasted address.')
        .waitFor();
      await page.getByRole('button', { name: zh ? '添加接入点' : 'Add endpoint' }).click();
      await page.getByText(zh ? '这已经是接入点“home”了' : 'This is already the endpoint “home”', { exact: false }).waitFor();
      await screenshot(page, `endpoint-duplicate-${language}-${theme}`);

      // Test connection: a token the relay refuses.
      const testButton = page.locator('.add-endpoint').getByRole('button', { name: zh ? '测试连接' : 'Test connection' });
      const result = page.locator('.add-endpoint .test-result');
      await url.fill(relay.toolUrl().replace(/token=.*/, 'token=bm90LWEtdG9rZW4%3D'));
      await testButton.click();
      await result.getByText(zh ? '接入点地址无效' : 'Endpoint address not accepted').waitFor({ timeout: scaled(15_000) });
      expect(await result.getByText(zh ? '接入点地址有效' : 'Endpoint address accepted').count()).toBe(0);
      await screenshot(page, `endpoint-test-refused-${language}-${theme}`);

      // Another agent of the relay that nobody serves: the tools are read through the relay, as a device reads them.
      await url.fill(relay.toolUrl(`agent-${language}-${theme}`));
      await testButton.click();
      await result
        .getByText(zh ? '和真正对话时一样读取' : 'Read as in a real conversation', { exact: false })
        .waitFor({ timeout: scaled(20_000) });
      await screenshot(page, `endpoint-test-relay-${language}-${theme}`);

      // A self-hosted endpoint that did not ask for the tools: a success, and why that is normal.
      await url.fill(quiet.url());
      await testButton.click();
      await result
        .getByText(zh ? '只在有设备说话时才读取工具列表' : 'lists the tools only when a device talks', { exact: false })
        .waitFor({ timeout: scaled(30_000) });
      await screenshot(page, `endpoint-test-quiet-${language}-${theme}`);

      // The saved endpoint, held by the other copy: the test says so rather than take it.
      await page
        .locator('.list-item')
        .first()
        .getByRole('button', { name: zh ? '测试连接' : 'Test connection' })
        .click();
      await page
        .locator('.list-item .test-result')
        .getByText(
          zh ? '另一个程序正在使用这个接入点，测试没有去抢它' : 'Another program is using this endpoint; the test did not take it over',
        )
        .waitFor({ timeout: scaled(20_000) });
      await screenshot(page, `endpoint-test-held-${language}-${theme}`, { fullPage: true });
    }, 180_000);
  }
});
