import fs from 'node:fs';
import path from 'node:path';

import type { Page } from 'playwright-core';

/* What a test does on the pages of the window in Chromium (headless-window.ts starts it). */

/** Where screenshots go, for a person to look at. */
export const SHOTS = process.env.SCREENSHOTS_DIR ?? path.resolve(__dirname, '../../test-results/screenshots');
/**
 * Screenshots are taken by `npm run screenshots` only (XT_SCREENSHOTS=1): `npm test` checks what the
 * window shows, it does not photograph it.
 */
export const takingScreenshots = process.env.XT_SCREENSHOTS === '1';
export type Look = readonly ['en' | 'zh-CN', 'light' | 'dark'];
/** The languages and themes a test walks through: each language and each theme once; all four for screenshots. */
export const LOOKS: readonly Look[] = takingScreenshots
  ? [
      ['en', 'light'],
      ['en', 'dark'],
      ['zh-CN', 'light'],
      ['zh-CN', 'dark'],
    ]
  : [
      ['en', 'light'],
      ['zh-CN', 'dark'],
    ];

/** `test-results/screenshots/<name>.png`, when screenshots are being taken (see `takingScreenshots`). */
export async function screenshot(page: Page, name: string, options: { fullPage?: boolean } = {}): Promise<void> {
  if (!takingScreenshots) return;
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), animations: 'disabled', ...options });
}

/** Opens a page of the window (`#/<name>`) and waits for its heading. */
export async function goTo(page: Page, name: string): Promise<void> {
  await page.evaluate((n) => (window.location.hash = `#/${n}`), name);
  await page.locator('h1').first().waitFor();
}

/** The language as a person picks it in Settings; the theme as the system's (the window follows it). */
export async function setLook(page: Page, [language, theme]: Look): Promise<void> {
  await page.emulateMedia({ colorScheme: theme });
  await goTo(page, 'settings');
  await page.locator('select').nth(0).selectOption(language);
  await page.waitForFunction(([l, th]) => document.documentElement.lang === l && document.documentElement.dataset.theme === th, [
    language,
    theme,
  ] as const);
}

/**
 * On Settings, opens the Advanced fold (serving limits, tool budgets, the local MCP server: issue 33
 * put them there) by clicking its title as a person would; left open if it is already.
 */
export async function openAdvancedSettings(page: Page): Promise<void> {
  const fold = page.locator('details.advanced-settings');
  await fold.waitFor();
  if ((await fold.getAttribute('open')) === null) await fold.locator(':scope > summary').click();
  await page.waitForFunction(() => document.querySelector('details.advanced-settings')?.hasAttribute('open') === true);
}
