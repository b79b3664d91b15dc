import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { haveChromium } from '../helpers/headless-window';
import { type PageBridge, startPageBridge } from '../helpers/page-bridge';
import { type Look, LOOKS, screenshot, takingScreenshots } from '../helpers/window-pages';

/**
 * Editing a server added from the catalogue, in Chromium as the web page shows it: the values step
 * it was added with, and a folder that is not there refused under its field.
 */
const WIDTHS = takingScreenshots ? [1280, 800] : [1280];

let work: string;
let window: PageBridge | undefined;
let page: Page;

const open = (look: Look, width: number) => window!.open(look, width, '#/servers');

describe.skipIf(!haveChromium || process.platform === 'win32')('editing a catalogue server in the window', () => {
  beforeAll(async () => {
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'xt-values-ui-'));
    fs.mkdirSync(path.join(work, 'Documents'));
    window = await startPageBridge(
      {
        servers: [
          {
            name: 'files',
            transport: 'stdio',
            command: 'npx',
            args: ['-y', '@modelcontextprotocol/server-filesystem', path.join(work, 'Documents')],
            enabled: false,
            catalogue: 'filesystem',
          },
        ],
      },
      { env: { ...process.env, PATH: `${fs.mkdtempSync(path.join(work, 'path-'))}:/usr/bin:/bin` } },
    );
    page = window.page;
  }, 60_000);

  afterAll(async () => {
    await window?.close();
    fs.rmSync(work, { recursive: true, force: true });
  });

  it('Edit shows the plain values step; a folder that is not there is refused under its field', async () => {
    for (const look of LOOKS)
      for (const width of WIDTHS) {
        await open(look, width);
        const en = look[0] === 'en';
        await page
          .locator('#server-files')
          .getByRole('button', { name: en ? 'Edit' : '编辑' })
          .click();
        const step = page.getByRole('dialog');
        const field = step.getByLabel(en ? 'Folder it may use *' : '允许访问的文件夹 *');
        expect(await field.inputValue()).toBe(path.join(work, 'Documents'));
        expect(await step.textContent()).not.toMatch(/npx|stdio/);
        await screenshot(page, `${look[0]}-values-edit-${look[1]}-${width}`);
        await field.fill(en ? 'My documents' : '我的文档');
        await step.getByRole('button', { name: en ? 'Save' : '保存', exact: true }).click();
        const missing = path.join(os.homedir(), en ? 'My documents' : '我的文档');
        await step.getByText(en ? `There is no such folder: ${missing}` : `找不到这个文件夹：${missing}`).waitFor();
        await screenshot(page, `${look[0]}-values-folder-error-${look[1]}-${width}`);
        // A relative name, before it is saved: the full path it stands for, under the field.
        await field.fill('Documents');
        await step.getByText(`${en ? 'Will use: ' : '将使用：'}${path.join(os.homedir(), 'Documents')}`).waitFor();
        await screenshot(page, `${look[0]}-values-resolved-${look[1]}-${width}`);
        await page.keyboard.press('Escape');
        await step.waitFor({ state: 'detached' });
      }
  }, 120_000);
});
