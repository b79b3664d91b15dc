import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { FIXTURE } from '../helpers/bridge-harness';
import { type FakeSession, FakeXiaozhi } from '../helpers/fake-xiaozhi';
import { CHROMIUM, closeAll, haveChromium, openWindow, startWindowBridge, type WindowBridge } from '../helpers/headless-window';
import { type RegistryStandIn, startRegistryStandIn } from '../helpers/registry-standin';
import { scaled } from '../helpers/time-scale';
import { waitFor } from '../helpers/wait';
import { goTo, screenshot, SHOTS } from '../helpers/window-pages';

/**
 * End to end: Debian's Chromium drives the real window served by the real headless bridge, which
 * serves a fake xiaozhi endpoint and runs real child servers.
 */
if (!haveChromium && process.env.CI) throw new Error(`${CHROMIUM} is missing; .ci/run installs Debian's chromium`);

let xiaozhi: FakeXiaozhi;
let registry: RegistryStandIn;
let bridge: WindowBridge;
let browser: Browser;
let page: Page;
let session: FakeSession;
let url = '';
let work = '';

describe.skipIf(!haveChromium)('the window, end to end in Chromium', () => {
  beforeAll(async () => {
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'xt-e2e-'));
    xiaozhi = await FakeXiaozhi.start();
    registry = await startRegistryStandIn();
    const config = path.join(work, 'xiaozhi-tray.json');
    fs.writeFileSync(
      config,
      JSON.stringify({ endpoints: [{ id: 'home', name: '家里', url: xiaozhi.url() }], servers: [], ui: { language: 'en' } }, null, 2),
    );
    // A home folder where Cursor keeps a config, for "Import existing setup…".
    const home = path.join(work, 'home');
    fs.mkdirSync(path.join(home, '.cursor'), { recursive: true });
    fs.writeFileSync(
      path.join(home, '.cursor', 'mcp.json'),
      JSON.stringify({ mcpServers: { 'cursor-remote': { url: 'https://mcp.example.com/mcp' } } }),
    );
    bridge = await startWindowBridge(config, {
      HOME: home,
      XDG_CONFIG_HOME: path.join(home, '.config'),
      XDG_CACHE_HOME: path.join(home, '.cache'),
      XIAOZHI_TRAY_REGISTRY_URL: registry.url,
    });
    url = bridge.url;
    session = await xiaozhi.connection(0);
    await session.initialize();
    ({ browser, page } = await openWindow(url));
  }, 120_000);

  afterAll(async () => {
    await closeAll({ browser, bridge, xiaozhi, work });
    await registry?.close();
  });

  it('keeps the token out of the address bar and refuses the API without it', async () => {
    expect(page.url()).not.toContain('token=');
    const port = new URL(url).port;
    const refused = await page.evaluate(
      (p) =>
        new Promise<boolean>((resolve) => {
          const ws = new WebSocket(`ws://127.0.0.1:${p}/api?token=wrong`);
          ws.onopen = () => resolve(false);
          ws.onerror = () => resolve(true);
        }),
      port,
    );
    expect(refused).toBe(true);
  });

  it('adds a server through the form and shows its tools', async () => {
    await goTo(page, 'servers');
    await page.getByRole('button', { name: '+ Add from the catalogue' }).click();
    await page.getByRole('dialog', { name: 'Add a server' }).getByRole('button', { name: 'Custom server…' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog.getByRole('alert').first().textContent()).resolves.toBe('Required.');
    await dialog.getByLabel('Name').fill('fixture');
    await dialog.getByLabel('Command').fill(process.execPath);
    await dialog.getByLabel('Arguments').fill(FIXTURE);
    await dialog.getByRole('button', { name: 'Add' }).click();
    await dialog.getByLabel('Name 1').fill('FIXTURE_NAME');
    await dialog.getByLabel('Value 1').fill('e2e');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await page
      .getByText('Running')
      .first()
      .waitFor({ timeout: scaled(15_000) });
    await goTo(page, 'tools');
    await page.getByText('weather_get').waitFor();
    expect(await page.getByRole('switch').count()).toBeGreaterThan(5);
  });

  it('switching a tool off removes it from the endpoint’s tools/list', async () => {
    await goTo(page, 'tools');
    const mark = session.mark();
    await page.getByRole('switch', { name: 'Serve echo' }).click({ force: true });
    await session.waitForNotification('notifications/tools/list_changed', mark);
    const { tools } = await session.listAllTools(9000);
    expect(tools.map((t) => t.name)).not.toContain('echo');
    expect(tools.map((t) => t.name)).toContain('weather_get');
    await page.getByRole('switch', { name: 'Serve echo' }).click({ force: true });
  });

  it('runs a tool from "Try" and shows exactly what xiaozhi would receive', async () => {
    await goTo(page, 'tools');
    await page.getByRole('button', { name: 'Try weather_get' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('city').fill('上海');
    await dialog.getByRole('button', { name: 'Run' }).click();
    await expect(dialog.getByTestId('tool-result').textContent({ timeout: scaled(10_000) })).resolves.toBe('上海：晴，25°C');
    await screenshot(page, 'en-try-tool');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
  });

  it('shows a log line live as the server prints it', async () => {
    await goTo(page, 'logs');
    const marker = `live-line-${Date.now()}`;
    await session.request('log-1', 'tools/call', { name: 'stderr', arguments: { text: marker } });
    await page.getByText(marker).waitFor({ timeout: scaled(10_000) });
  });

  it('keeps 10,000 log lines smooth: only the visible rows are in the page', async () => {
    await goTo(page, 'logs');
    // A server's stderr reaches the log at a bounded rate; junk frames from the endpoint are each logged.
    for (let i = 1; i <= 10_000; i++) session.sendRaw(`flood ${i}`);
    await page.getByText(/: flood 10000$/).waitFor({ timeout: scaled(15_000) });
    expect(await page.locator('.log-row').count()).toBeLessThan(100);
    await page.getByLabel('Filter text').fill('flood 500');
    await page.getByText(/: flood 5000$/).waitFor();
    expect(await page.getByText(/^\d+ of \d+ lines$/).textContent()).toBe('11 of 10000 lines');
    await page.getByLabel('Filter text').fill('');
  });

  it('imports a dropped Claude Desktop config', async () => {
    const config = JSON.stringify({
      mcpServers: { second: { command: process.execPath, args: [FIXTURE], env: { FIXTURE_NAME: 'second' } } },
    });
    await page.evaluate((text) => {
      const transfer = new DataTransfer();
      transfer.items.add(new File([text], 'claude_desktop_config.json', { type: 'application/json' }));
      for (const type of ['dragenter', 'dragover', 'drop'])
        window.dispatchEvent(new DragEvent(type, { dataTransfer: transfer, bubbles: true, cancelable: true }));
    }, config);
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Detected: Claude Desktop').waitFor();
    // It runs the same program as "fixture", so the preview proposes to skip it; the user adds it anyway.
    await dialog.getByText('Runs the same command as "fixture".').waitFor();
    await screenshot(page, 'en-import');
    await dialog.getByLabel('second', { exact: true }).selectOption('rename');
    await dialog.getByRole('button', { name: 'Import' }).click();
    await goTo(page, 'servers');
    await page.getByText('second').first().waitFor();
    await waitFor(async () => (await page.getByText('Running', { exact: true }).count()) === 2, 15_000, 'both servers running');
  });

  it('offers the MCP clients found on this machine under "Import existing setup…"', async () => {
    await goTo(page, 'servers');
    await page.getByRole('button', { name: 'Import existing setup…' }).click();
    await page.getByRole('menuitem', { name: 'Cursor' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Detected: Cursor').waitFor();
    await dialog.getByText('cursor-remote').waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
  });

  it('history lists the calls xiaozhi made', async () => {
    // Two servers now both have "echo": each is served under its server's prefix.
    const call = await session.request('h-1', 'tools/call', { name: 'second_echo', arguments: { text: 'from xiaozhi' } });
    expect(call.result?.content?.[0]?.text).toBe('second: from xiaozhi');
    await goTo(page, 'history');
    const row = page.getByRole('row', { name: /家里.*second_echo/ });
    await row.waitFor();
    await row.click();
    // The arguments as a person reads them (field, then value), the JSON as sent folded under Details.
    const details = page.locator('.details-row .argument-list');
    await details.locator('dt', { hasText: /^text$/ }).waitFor();
    expect(await details.locator('dd').first().textContent()).toBe('from xiaozhi');
    await details.getByText('Details (as sent)').click();
    expect(JSON.parse((await details.locator('pre').textContent()) ?? '')).toEqual({ text: 'from xiaozhi' });
  });

  it('walks through with the keyboard only: add a server from the catalogue, try a tool, import a file', async () => {
    await goTo(page, 'servers');
    const focused = () => page.evaluate(() => (document.activeElement as HTMLElement | null)?.innerText ?? '');
    const tabTo = async (text: string) => {
      for (let i = 0; i < 60 && (await focused()) !== text; i++) await page.keyboard.press('Tab');
      expect(await focused()).toBe(text);
    };
    // Add a server from the catalogue.
    await tabTo('+ Add from the catalogue');
    await page.keyboard.press('Enter');
    const catalogue = page.getByRole('dialog', { name: 'Add a server' });
    await catalogue.getByText('Everything (test server)').waitFor();
    await page.keyboard.type('everything');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    expect(await focused()).toMatch(/^Everything \(test server\)/);
    // Focus stays inside the dialog however far one tabs.
    for (let i = 0; i < 12; i++) await page.keyboard.press('Tab');
    expect(await page.evaluate(() => Boolean(document.activeElement?.closest('dialog[open]')))).toBe(true);
    await page.keyboard.press('Shift+Tab');
    for (let i = 0; i < 40 && !/^Everything \(test server\)/.test(await focused()); i++) await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Enter');
    // One step: what it is, in plain words, with Add focused (the developer form is behind "Advanced settings").
    const step = page.getByRole('dialog', { name: 'Add Everything (test server)' });
    await step.getByRole('button', { name: 'Advanced settings' }).waitFor();
    expect(await focused()).toBe('Add');
    await page.keyboard.press('Enter');
    await page.getByText('Added "Everything (test server)": starting…').waitFor({ timeout: scaled(10_000) });
    await page
      .locator('.list-item', { hasText: 'everything' })
      .getByText('Running')
      .waitFor({ timeout: scaled(60_000) });

    // Try one of its tools.
    await goTo(page, 'tools');
    await page.getByRole('searchbox', { name: 'Search tools' }).focus();
    await page.keyboard.type('echo');
    await tabTo('Try');
    await page.keyboard.press('Enter');
    const trying = page.getByRole('dialog');
    await page.keyboard.type('hello from the keyboard');
    await page.keyboard.press('Enter');
    await expect(trying.getByTestId('tool-result').textContent({ timeout: scaled(10_000) })).resolves.toMatch(/hello from the keyboard/);
    await page.keyboard.press('Escape');
    await trying.waitFor({ state: 'detached' });

    // Import a file: the menu by arrow keys (the config file Cursor keeps), Enter applies.
    await goTo(page, 'servers');
    await tabTo('Import existing setup… ▾');
    await page.keyboard.press('ArrowDown');
    await page.getByRole('menuitem', { name: 'Cursor' }).waitFor();
    await page.keyboard.press('End');
    expect(await focused()).toBe('Choose a file…');
    await page.keyboard.press('Home');
    expect(await focused()).toBe('Cursor');
    await page.keyboard.press('Enter');
    const importing = page.getByRole('dialog', { name: 'Import mcp.json' });
    await importing.getByText('Detected: Cursor').waitFor();
    // The dialog opens on its first field (the server's choice); Tab reaches Import, Enter applies.
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('cursor-remote');
    await tabTo('Import');
    await page.keyboard.press('Enter');
    await page.getByText('Imported 1 server and 0 endpoints.').waitFor();
    await page.locator('.list-item', { hasText: 'cursor-remote' }).waitFor();
  }, 120_000);

  it('logs: a long line opens whole on a click, wraps on request, and Clear empties the view', async () => {
    await goTo(page, 'logs');
    const long = `long-line-${'x'.repeat(600)}-end`;
    await session.request('long-1', 'tools/call', { name: 'fixture_stderr', arguments: { text: long } });
    await page.getByLabel('Filter text').fill('long-line-');
    const row = page.locator('.log-row', { hasText: 'long-line-' }).last();
    await row.waitFor({ timeout: scaled(10_000) }).catch(async (error: Error) => {
      // What the page showed instead, always (a failure is when a person needs to look).
      fs.mkdirSync(SHOTS, { recursive: true });
      await page.screenshot({ path: path.join(SHOTS, 'failed-logs.png') });
      throw error;
    });
    const closed = await row.boundingBox();
    await row.click();
    const open = await row.boundingBox();
    expect(open!.height).toBeGreaterThan(closed!.height * 2);
    await page.getByLabel('Filter text').fill('');
    await page.getByRole('button', { name: 'Clear' }).click();
    // New lines may arrive at any moment after Clear; what was there before must be gone.
    await page.locator('.log-row', { hasText: 'long-line-' }).first().waitFor({ state: 'detached' });
    expect(await page.locator('.log-row', { hasText: 'long-line-' }).count()).toBe(0);
  });
});
