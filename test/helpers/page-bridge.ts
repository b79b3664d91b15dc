import path from 'node:path';

import type { Browser, Page } from 'playwright-core';

import { Bridge, type BridgeOptions } from '../../src/main/core/bridge/bridge';
import { MemorySettingsStore } from '../../src/main/core/config/settings-store';
import { LogBook } from '../../src/main/core/logs/log-book';
import { startWebUi, type WebUi } from '../../src/main/core/web/web-ui-server';
import { type SettingsInput, SettingsSchema } from '../../src/shared/settings';
import { launchChromium } from './headless-window';
import type { Look } from './window-pages';

const ROOT = path.resolve(__dirname, '../..');

export interface PageBridge {
  bridge: Bridge;
  web: WebUi;
  browser: Browser;
  page: Page;
  /** The window in this look and width, at `hash` (its token taken first). */
  open(look: Look, width: number, hash: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * A started bridge in this process (settings in memory, the headless web page's host, the built
 * window from out/renderer) and Chromium on one page of it: the window as `run --ui` serves it,
 * with the bridge at hand to set up and look at.
 */
export async function startPageBridge(settings: SettingsInput, options: Partial<BridgeOptions> = {}): Promise<PageBridge> {
  const logBook = new LogBook();
  const bridge = new Bridge({
    store: new MemorySettingsStore(SettingsSchema.parse(settings)),
    logBook,
    version: '0.1.0',
    stateDir: null,
    registryUrl: 'http://127.0.0.1:9/',
    host: { info: () => ({ carrier: 'web', platform: 'linux', secretStorage: 'config-file', launchAtLogin: null }) },
    ...options,
  });
  bridge.start();
  const web = await startWebUi({ api: bridge.api, rendererDir: path.join(ROOT, 'out', 'renderer'), log: logBook.logger('web') });
  const browser = await launchChromium();
  const page = await browser.newPage();
  return {
    bridge,
    web,
    browser,
    page,
    open: async ([language, theme], width, hash) => {
      await bridge.api.updatePreferences({ ui: { language, theme } });
      await page.setViewportSize({ width, height: 820 });
      await page.goto(web.url);
      // The page drops its token from the address bar first (a navigation of its own).
      await page.locator('h1').first().waitFor();
      await page.evaluate((h) => (window.location.hash = h), hash);
    },
    close: async () => {
      await browser.close();
      await web.close();
      await bridge.stop();
    },
  };
}
