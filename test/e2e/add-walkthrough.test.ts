import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type FakeNpx, fakeNpx } from '../helpers/fake-npx';
import { haveChromium } from '../helpers/headless-window';
import { type PageBridge, startPageBridge } from '../helpers/page-bridge';
import { scaled } from '../helpers/time-scale';
import { type Look, LOOKS, screenshot, takingScreenshots } from '../helpers/window-pages';

/**
 * Issue 33's walk, as a person who is not a developer takes it in the headless web page: an empty
 * config, the catalogue, two servers added (a folder for one, a file for the other), both cards
 * running. Each look and width once for screenshots (`npm run screenshots`).
 */
const WIDTHS = takingScreenshots ? [1280, 800] : [1280];

let work: string;
let npx: FakeNpx;
let window: PageBridge | undefined;

describe.skipIf(!haveChromium || process.platform === 'win32')('adding two catalogue servers to an empty config', () => {
  beforeAll(async () => {
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'xt-add-walk-'));
    npx = fakeNpx();
    window = await startPageBridge(
      {},
      {
        env: { ...process.env, ...npx.env({ FAKE_NPX_SECONDS: '1' }) },
        // As `run --ui` has it: a runtime is downloaded when the page asks.
        runtimesDir: fs.mkdtempSync(path.join(work, 'runtimes-')),
        runtimesFetch: 'onRequest',
      },
    );
  }, 60_000);

  afterAll(async () => {
    await window?.close();
    npx?.remove();
    fs.rmSync(work, { recursive: true, force: true });
  });

  it('goes from an empty page to two running cards that say what they are', async () => {
    const { bridge, page } = window!;
    const add = async (en: boolean, card: string, fill: { label: string; value: string }) => {
      await page.getByRole('button', { name: en ? `Add ${card}` : `添加 ${card}` }).click();
      const step = page.getByRole('dialog');
      await step.getByLabel(fill.label).fill(fill.value);
      return step;
    };
    for (const look of LOOKS as Look[])
      for (const width of WIDTHS) {
        const [language, theme] = look;
        const en = language === 'en';
        const name = (step: string) => `${language}-walk-${step}-${theme}-${width}`;
        for (const server of (await bridge.api.getSettings()).servers) await bridge.api.removeServer({ name: server.name });
        await window!.open(look, width, '#/servers');
        const openCatalogue = page.getByRole('button', { name: en ? 'Open the catalogue' : '打开服务目录' });
        await openCatalogue.waitFor();
        await screenshot(page, name('1-empty'));
        await openCatalogue.click();
        await page.getByRole('button', { name: en ? 'Add Files on this computer' : '添加 本机文件' }).waitFor();
        await screenshot(page, name('2-catalogue'));

        const files = await add(en, en ? 'Files on this computer' : '本机文件', {
          label: en ? 'Folder it may use *' : '允许访问的文件夹 *',
          value: fs.mkdtempSync(path.join(work, 'docs-')),
        });
        await screenshot(page, name('3-files-step'));
        await files.getByRole('button', { name: en ? 'Add' : '添加', exact: true }).click();
        await page.locator('#server-filesystem').waitFor();

        await page.getByRole('button', { name: en ? '+ Add from the catalogue' : '+ 从目录添加服务' }).click();
        const memory = await add(en, en ? 'Memory (knowledge graph)' : '记忆（知识图谱）', {
          label: en ? 'Memory file (optional)' : '记忆文件（可选）',
          value: 'memory.json',
        });
        await memory.getByText(en ? 'Will use: ' : '将使用：', { exact: false }).waitFor();
        await screenshot(page, name('4-memory-step'));
        await memory.getByRole('button', { name: en ? 'Add' : '添加', exact: true }).click();

        await page.waitForFunction(() => document.querySelectorAll('.list-item .badge-ok').length === 2, undefined, {
          timeout: scaled(30_000),
        });
        // What the cards show (their details closed) reads as what they are, not as a command line.
        const cards = page.locator('#server-filesystem, #server-memory');
        expect(await cards.evaluateAll((els) => els.map((e) => (e as HTMLElement).innerText).join('\n'))).not.toMatch(
          /npx|stdio|@modelcontextprotocol/,
        );
        await screenshot(page, name('5-cards-running'), { fullPage: true });
      }
  }, 240_000);
});
