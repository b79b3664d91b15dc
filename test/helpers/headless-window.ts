import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

import type { Browser, Page } from 'playwright-core';

import { CLI_SCRIPT } from './cli-env';
import { stopChild } from './stop-child';
import { waitFor } from './wait';

/** The real window in Debian's Chromium, served by the real headless bridge (`run --ui`). */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const haveChromium = fs.existsSync(CHROMIUM);
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

export async function launchChromium(): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-sync',
    ],
  });
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
