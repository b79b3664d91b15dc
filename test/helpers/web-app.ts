import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { waitFor } from './wait';

const ROOT = path.resolve(__dirname, '../..');
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export interface WebApp {
  child: ChildProcess;
  /** The window's URL, access token included. */
  url: string;
  output(): string;
  stop(): Promise<void>;
}

/** The headless bridge with its window as a web page (`run --ui --port 0`), once it prints its URL. */
export async function startWebApp(config: string, env: NodeJS.ProcessEnv, extraArgs: string[] = []): Promise<WebApp> {
  const child = spawn(process.execPath, [path.join(ROOT, 'bin/xiaozhi-tray.js'), 'run', '--config', config, '--ui', '--port', '0', ...extraArgs], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, MCP_ENDPOINT: '', ...env },
  });
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  const pattern = /http:\/\/127\.0\.0\.1:\d+\/#\/overview\?token=\S+/;
  await waitFor(() => pattern.test(out), 20_000, 'the web UI URL');
  return {
    child,
    url: (out.match(pattern) as RegExpMatchArray)[0],
    output: () => out,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Debian's Chromium, headless, showing the window at `url` (the Overview page loaded). */
export async function openWindow(url: string, viewport: { width: number; height: number }, permissions: string[] = []): Promise<{ browser: Browser; page: Page }> {
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync'],
  });
  const context = await browser.newContext({ viewport });
  if (permissions.length > 0) await context.grantPermissions(permissions);
  const page = await context.newPage();
  await page.goto(url);
  await page.getByRole('heading', { name: 'Overview' }).waitFor();
  return { browser, page };
}
