import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { haveChromium } from '../helpers/headless-window';
import { type PageBridge, startPageBridge } from '../helpers/page-bridge';
import { pinsOf, type RuntimeMirror, startRuntimeMirror, uvStandIn } from '../helpers/runtime-mirror';
import { scaled } from '../helpers/time-scale';
import { type Look, LOOKS, screenshot, takingScreenshots } from '../helpers/window-pages';

/**
 * Adding and starting servers in Chromium, as a headless run's web page shows it (issue 33): the
 * catalogue's one step, a card waiting for its next try (Try again), and Download uv where uv is missing.
 */
/** Both widths for the screenshots; the tests alone look at one. */
const WIDTHS = takingScreenshots ? [1280, 800] : [1280];

let work: string;
let mirror: RuntimeMirror;
let window: PageBridge | undefined;
let page: Page;

const open = (look: Look, width: number, hash: string) => window!.open(look, width, hash);

describe.skipIf(!haveChromium || process.platform === 'win32' || fs.existsSync('/usr/bin/uvx'))(
  'adding and starting servers in the window',
  () => {
    beforeAll(async () => {
      work = fs.mkdtempSync(path.join(os.tmpdir(), 'xt-add-ui-'));
      const uv = uvStandIn();
      mirror = await startRuntimeMirror({ uv });
      window = await startPageBridge(
        {
          mirrors: { preset: 'custom', uvDownload: mirror.urls.uvDownload },
          servers: [
            { name: 'time', transport: 'stdio', command: 'uvx', args: ['mcp-server-time'] },
            // Fails at each start; its next try is ten minutes away.
            {
              name: 'flaky',
              transport: 'stdio',
              command: process.execPath,
              args: ['-e', "console.error('no key given'); process.exit(1)"],
            },
          ],
        },
        {
          env: { ...process.env, PATH: `${fs.mkdtempSync(path.join(work, 'path-'))}:/usr/bin:/bin` },
          runtimesDir: fs.mkdtempSync(path.join(work, 'runtimes-')),
          runtimesFetch: 'onRequest',
          runtimePins: pinsOf(uv),
          supervision: { restartBaseMs: 600_000, restartMaxMs: 600_000 },
        },
      );
      page = window.page;
    }, 60_000);

    afterAll(async () => {
      await window?.close();
      await mirror?.close();
      fs.rmSync(work, { recursive: true, force: true });
    });

    it('adds an entry that needs nothing in one plain step, the developer form a click away', async () => {
      for (const look of LOOKS)
        for (const width of WIDTHS) {
          await open(look, width, '#/servers?add=catalogue');
          const en = look[0] === 'en';
          await page.getByRole('button', { name: en ? 'Add Open-Meteo weather' : '添加 Open-Meteo 天气' }).click();
          const step = page.getByRole('dialog', { name: en ? 'Add Open-Meteo weather' : '添加“Open-Meteo 天气”' });
          await step.getByRole('button', { name: en ? 'Advanced settings' : '查看详细设置' }).waitFor();
          expect(await step.textContent()).not.toMatch(/npx|stdio|JSON/);
          await screenshot(page, `${look[0]}-add-confirm-${look[1]}-${width}`);
          await page.getByRole('button', { name: en ? 'Back' : '返回' }).click();
          await page.getByRole('button', { name: en ? 'Add Memory (knowledge graph)' : '添加 记忆（知识图谱）' }).click();
          await page
            .getByRole('dialog')
            .getByRole('button', { name: en ? 'Add' : '添加', exact: true })
            .waitFor();
          await screenshot(page, `${look[0]}-add-values-${look[1]}-${width}`);
        }
    }, 120_000);

    it('says in the catalogue that uv comes with the server; the step downloads it, then adds', async () => {
      for (const look of LOOKS)
        for (const width of WIDTHS) {
          await open(look, width, '#/servers?add=catalogue');
          const en = look[0] === 'en';
          const entry = page.locator('.catalogue-entry', { hasText: en ? 'Time and time zones' : '时间与时区' });
          await entry
            .getByText(
              en
                ? 'It needs a program to run it first (uv): downloaded by itself when you add this'
                : '需要先下载运行它的程序（uv），添加时会自动下载',
            )
            .waitFor();
          await entry.scrollIntoViewIfNeeded();
          await screenshot(page, `${look[0]}-add-catalogue-download-${look[1]}-${width}`);
          await entry.getByRole('button', { name: en ? 'Add Time and time zones' : '添加 时间与时区' }).click();
          await page
            .getByRole('dialog')
            .getByRole('button', { name: en ? 'Download uv and add' : '下载 uv 并添加' })
            .waitFor();
          await screenshot(page, `${look[0]}-add-values-download-${look[1]}-${width}`);
        }
    }, 120_000);

    it('shows Try again on a card waiting for its next try, and Download uv on one waiting for uv', async () => {
      for (const look of LOOKS)
        for (const width of WIDTHS) {
          await open(look, width, '#/servers');
          const en = look[0] === 'en';
          await page
            .locator('#server-flaky')
            .getByRole('button', { name: en ? 'Try again' : '重试' })
            .waitFor({ timeout: scaled(30_000) });
          await page
            .locator('#server-time')
            .getByRole('button', { name: en ? 'Download uv' : '下载 uv' })
            .waitFor({ timeout: scaled(30_000) });
          await screenshot(page, `${look[0]}-add-cards-${look[1]}-${width}`, { fullPage: true });
        }
    }, 120_000);

    it('downloads uv from the page, with progress, and the server waiting for it starts', async () => {
      const release = mirror.hold('uv');
      const look = LOOKS[LOOKS.length - 1]!;
      await open(look, 1280, '#/servers');
      const en = look[0] === 'en';
      const card = page.locator('#server-time');
      await card.getByRole('button', { name: en ? 'Download uv' : '下载 uv' }).click();
      await card.locator('progress').waitFor();
      await screenshot(page, `${look[0]}-add-download-progress-${look[1]}-1280`);
      release();
      await card.getByText(en ? 'Running' : '运行中').waitFor({ timeout: scaled(30_000) });
      await screenshot(page, `${look[0]}-add-download-done-${look[1]}-1280`);
    }, 120_000);
  },
);
