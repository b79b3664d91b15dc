import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { FIXTURE } from '../helpers/bridge-harness';
import { FakeXiaozhi } from '../helpers/fake-xiaozhi';
import { closeAll, haveChromium, openWindow, startHomeWindowBridge, type WindowBridge } from '../helpers/headless-window';
import { scaled } from '../helpers/time-scale';

/** The window in Chromium: its layout at the sizes the screenshots check (1100×720, 800×600), and the keyboard. */
let xiaozhi: FakeXiaozhi;
let bridge: WindowBridge;
let browser: Browser;
let page: Page;
let work = '';

describe.skipIf(!haveChromium)('the window layout and keyboard, in Chromium', () => {
  beforeAll(async () => {
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'xt-layout-'));
    xiaozhi = await FakeXiaozhi.start();
    bridge = await startHomeWindowBridge(work, xiaozhi.url(), [
      { name: 'fixture', transport: 'stdio', command: process.execPath, args: [FIXTURE] },
      {
        name: 'crashy',
        transport: 'stdio',
        command: process.execPath,
        args: ['-e', "process.stderr.write('Traceback (most recent call last):\\nValueError: missing API key\\n'); process.exit(1)"],
      },
    ]);
    ({ browser, page } = await openWindow(bridge.url, 720, { width: 1100 }));
  }, 60_000);

  afterAll(async () => {
    await closeAll({ browser, bridge, xiaozhi, work });
  });

  it('logs: a long line opens whole from the keyboard too (Tab to it, Enter)', async () => {
    await page.setViewportSize({ width: 800, height: 600 });
    await page.evaluate(() => (window.location.hash = '#/logs'));
    const filter = page.getByLabel('Filter text');
    await filter.fill('giving up');
    const row = page.locator('.log-row', { hasText: 'giving up' }).first();
    await row.waitFor({ timeout: scaled(20_000) });
    const closed = (await row.boundingBox()) as { height: number };
    await filter.focus();
    for (let i = 0; i < 12 && !(await row.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('Tab');
    expect(await row.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await row.getAttribute('aria-expanded')).toBe('false');
    await page.keyboard.press('Enter');
    await expect.poll(() => row.getAttribute('aria-expanded')).toBe('true');
    expect(((await row.boundingBox()) as { height: number }).height).toBeGreaterThan(closed.height * 1.5);
    // The focus ring shows where the keyboard is.
    expect(await row.evaluate((el) => getComputedStyle(el).outlineStyle)).not.toBe('none');
  });

  for (const [width, height] of [
    [1100, 720],
    [800, 600],
  ] as const) {
    it(`an endpoint's serving section takes the card's width, not what the buttons leave (${width}×${height})`, async () => {
      await page.setViewportSize({ width, height });
      await page.evaluate(() => (window.location.hash = '#/endpoints'));
      const card = page.getByRole('listitem').filter({ hasText: 'Tools served' });
      // The numbers and the mode are behind "Details" in the default (automatic) mode.
      if (!(await card.locator('details.serving-details').evaluate((d) => (d as HTMLDetailsElement).open)))
        await card.getByText('Details', { exact: true }).click();
      await card.getByText(/^xiaozhi gets your \d+ tools directly$/).waitFor();
      const cardBox = (await card.boundingBox()) as { width: number };
      const serving = (await card.locator('.serving').boundingBox()) as { width: number };
      expect(serving.width / cardBox.width).toBeGreaterThan(0.85);
      // The mode's label and its switch share one row.
      const centre = async (box: Promise<{ y: number; height: number } | null>) => {
        const { y, height } = (await box) as { y: number; height: number };
        return y + height / 2;
      };
      const label = await centre(card.getByText('Tools served', { exact: true }).boundingBox());
      const mode = await centre(card.getByRole('radio', { name: 'Every tool' }).boundingBox());
      expect(Math.abs(label - mode)).toBeLessThan(8);
      // "What xiaozhi sees" waits under Advanced (opened as a person would); it and its plain line share one row.
      const advanced = card.locator('details.serving-advanced');
      if ((await advanced.getAttribute('open')) === null) await advanced.locator(':scope > summary').click();
      const preview = await centre(card.getByRole('button', { name: 'What xiaozhi sees' }).boundingBox());
      const line = await centre(card.getByText('See the tool list xiaozhi gets, word for word.').boundingBox());
      expect(Math.abs(preview - line)).toBeLessThan(8);
    });

    it(`a server's command, error and last output take the card's width (${width}×${height})`, async () => {
      await page.setViewportSize({ width, height });
      await page.evaluate(() => (window.location.hash = '#/servers'));
      const card = page.getByRole('listitem').filter({ hasText: 'crashy' });
      const output = card.locator('.stderr pre');
      // The error line is shown above the output, which is then folded: open it, as a user would.
      await card
        .getByText(/ValueError: missing API key/)
        .first()
        .waitFor({ timeout: scaled(15_000) });
      const stderr = card.locator('details.stderr');
      if ((await stderr.getAttribute('open')) === null) await stderr.locator('summary').click();
      await output.getByText('ValueError: missing API key').waitFor({ timeout: scaled(15_000) });
      const cardBox = (await card.boundingBox()) as { width: number };
      expect(((await output.boundingBox()) as { width: number }).width / cardBox.width).toBeGreaterThan(0.85);
      // The name, its state and its restarts stay on one row beside the buttons.
      const name = (await card.getByText('crashy', { exact: true }).boundingBox()) as { y: number };
      const restarts = (await card.getByText(/^tried again \d+×$/).boundingBox()) as { y: number };
      expect(Math.abs(name.y - restarts.y)).toBeLessThan(8);
    });
  }
});
