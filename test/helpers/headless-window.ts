import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

import type { Browser, Page } from 'playwright-core';
import { inject } from 'vitest';

import { CHROMIUM_LAUNCH } from './chromium';
import { CLI_SCRIPT } from './cli-env';
import { stopChild } from './stop-child';
import { waitFor } from './wait';

export { CHROMIUM, haveChromium } from './chromium';

const URL_PATTERN = /http:\/\/127\.0\.0\.1:\d+\/#\/overview\?token=\S+/;

export interface WindowBridge {
  child: ChildProcess;
  /** The window's address, access token included. */
  url: string;
  /** Everything it printed so far. */
  output(): string;
  stop(): Promise<void>;
}

/** Runs the headless bridge with its window on a free port; resolves once it printed the window's URL. */
export async function startWindowBridge(
  config: string,
  env: NodeJS.ProcessEnv = {},
  extraArgs: string[] = [],
  options: { keptPort?: boolean } = {},
): Promise<WindowBridge> {
  // A free port, unless the test names one (a restart on the same port) or wants the one the last run kept.
  const port = extraArgs.includes('--port') || options.keptPort ? [] : ['--port', '0'];
  const child = spawn(process.execPath, [CLI_SCRIPT, 'run', '--config', config, '--ui', ...port, ...extraArgs], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, MCP_ENDPOINT: '', ...env },
  });
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  await waitFor(() => URL_PATTERN.test(out), 15_000, 'the web UI URL');
  return {
    child,
    url: (out.match(URL_PATTERN) as RegExpMatchArray)[0],
    output: () => out,
    stop: () => stopChild(child),
  };
}

/**
 * A window bridge serving `url` as the endpoint "home" with `servers`, in English, from a config in
 * `work` that is also its home (its config and cache folders inside), the online catalogue unreachable.
 */
export async function startHomeWindowBridge(work: string, url: string, servers: Record<string, unknown>[]): Promise<WindowBridge> {
  const config = path.join(work, 'xiaozhi-tray.json');
  fs.writeFileSync(config, JSON.stringify({ endpoints: [{ id: 'home', name: 'home', url }], servers, ui: { language: 'en' } }));
  return startWindowBridge(config, {
    HOME: work,
    XDG_CONFIG_HOME: path.join(work, '.config'),
    XDG_CACHE_HOME: path.join(work, '.cache'),
    XIAOZHI_TRAY_REGISTRY_URL: 'http://127.0.0.1:9/',
  });
}

/**
 * Chromium for one test file: the run's browser (test/global-setup.ts starts one for every file, ~0.9 s of
 * CPU a start saved), else one of its own. Each file's pages live in contexts of their own (cookies,
 * storage, locale); close() closes them and leaves the run's browser to the run.
 */
export async function launchChromium(): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  const endpoint = inject('chromiumEndpoint');
  const browser = await (endpoint ? chromium.connect(endpoint) : chromium.launch(CHROMIUM_LAUNCH));
  openBrowsers.add(browser);
  browser.once('disconnected', () => openBrowsers.delete(browser));
  return browser;
}

/** The browsers this worker's test files have open: what their pages showed is printed when a test fails. */
const openBrowsers = new Set<Browser>();

/** What each open page shows (address and visible text, shortened), for a failed test's output. */
export async function openPagesText(limit = 1500): Promise<string[]> {
  const shown: string[] = [];
  for (const page of [...openBrowsers].flatMap((browser) => browser.contexts().flatMap((context) => context.pages()))) {
    const text = await page.evaluate(() => document.body?.innerText ?? '').catch((error: unknown) => `(unreadable: ${String(error)})`);
    shown.push(`${page.url().replace(/token=[^&#]+/, 'token=…')}\n${text.replace(/\n{2,}/g, '\n').slice(0, limit)}`);
  }
  return shown;
}

/** Chromium on the window's overview page, token taken (the page drops it from the address bar). */
export async function openWindow(
  url: string,
  height = 800,
  options: { width?: number; permissions?: string[] } = {},
): Promise<{ browser: Browser; page: Page }> {
  const browser = await launchChromium();
  const context = await browser.newContext({ viewport: { width: options.width ?? 1180, height } });
  if (options.permissions?.length) await context.grantPermissions(options.permissions);
  const page = await context.newPage();
  await page.goto(url);
  await page.getByRole('heading', { name: 'Overview' }).waitFor();
  return { browser, page };
}

/** Closes whatever of an end-to-end setup was started, in order: browser, bridge, fake endpoint, files. */
export async function closeAll(parts: {
  browser?: Browser;
  bridge?: WindowBridge;
  xiaozhi?: { close(): Promise<void> };
  work?: string;
}): Promise<void> {
  await parts.browser?.close();
  await parts.bridge?.stop();
  await parts.xiaozhi?.close();
  if (parts.work) fs.rmSync(parts.work, { recursive: true, force: true });
}
