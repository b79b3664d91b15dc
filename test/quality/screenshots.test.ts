import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { FakeXiaozhi } from '../helpers/fake-xiaozhi';
import { FIXTURE } from '../helpers/bridge-harness';
import { startRegistryStandIn, type RegistryStandIn } from '../helpers/registry-standin';
import { waitFor } from '../helpers/wait';
import { stopChild } from '../helpers/stop-child';

/**
 * The screenshot matrix (`npm run screenshots`, a quality run, not part of `npm test`): every page and
 * the main dialogs, in both languages and both themes, at 1100×720 and 800×600, into
 * test-results/screenshots, for a person to look at.
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ROOT = path.resolve(__dirname, '../..');
const SHOTS = path.join(ROOT, 'test-results', 'screenshots');
const PAGES = ['overview', 'endpoints', 'servers', 'tools', 'toolSets', 'logs', 'history', 'settings'];

let xiaozhi: FakeXiaozhi;
let registry: RegistryStandIn;
let bridge: ChildProcess;
let browser: Browser;
let page: Page;
let work = '';
let importFile = '';

describe.skipIf(!fs.existsSync(CHROMIUM))('screenshots of every page', () => {
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
    bridge = spawn(process.execPath, [path.join(ROOT, 'bin/xiaozhi-tray.js'), 'run', '--config', config, '--ui', '--port', '0'], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        MCP_ENDPOINT: '',
        HOME: work,
        XDG_CACHE_HOME: path.join(work, 'cache'),
        XIAOZHI_TRAY_REGISTRY_URL: registry.url,
      },
    });
    let out = '';
    bridge.stdout?.on('data', (d: Buffer) => (out += d.toString()));
    await waitFor(() => /http:\/\/127\.0\.0\.1:\d+\/#\/overview\?token=\S+/.test(out), 15_000, 'the web UI URL');
    const url = (out.match(/http:\/\/127\.0\.0\.1:\d+\/#\/overview\?token=\S+/) as RegExpMatchArray)[0];
    const session = await xiaozhi.connection(0);
    await session.initialize();
    await session.listAllTools();
    for (const [i, text] of ['上海', '北京'].entries())
      await session.request(`w${i}`, 'tools/call', { name: 'weather_get', arguments: { city: text } });
    await session.request('f', 'tools/call', { name: 'fail', arguments: {} });
    const { chromium } = await import('playwright-core');
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'] });
    page = await browser.newPage({ viewport: { width: 1100, height: 720 } });
    await page.goto(url);
    await page.locator('h1').first().waitFor();
    fs.mkdirSync(SHOTS, { recursive: true });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await stopChild(bridge);
    await xiaozhi?.close();
    await registry?.close();
    if (work) fs.rmSync(work, { recursive: true, force: true });
  });

  const go = async (name: string) => {
    await page.evaluate((n) => (window.location.hash = `#/${n}`), name);
    await page.locator('h1').first().waitFor();
    await page.waitForTimeout(150);
  };
  const shot = (name: string) => page.screenshot({ path: path.join(SHOTS, `${name}.png`) });

  it('takes them all', async () => {
    for (const language of ['en', 'zh-CN'] as const) {
      for (const theme of ['light', 'dark'] as const) {
        // The theme follows the system here (emulated): one preference at a time is all the UI sends.
        await page.emulateMedia({ colorScheme: theme });
        await go('settings');
        await page.locator('select').nth(0).selectOption(language);
        await page.getByRole('heading', { name: language === 'en' ? 'Settings' : '设置' }).waitFor();
        for (const [width, height] of [
          [1100, 720],
          [800, 600],
        ] as const) {
          await page.setViewportSize({ width, height });
          const tag = `${language}-${theme}-${width}`;
          for (const name of PAGES) {
            await go(name);
            await shot(`${tag}-${name}`);
          }
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
