import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterAll, describe, expect, it, vi } from 'vitest';

import { LogBook, rotatingFileSink } from '../../../src/main/core/logs/log-book';
import { APP_ORIGIN, appProtocolHandler, PAGE_URL } from '../../../src/main/electron/app-protocol';
import { type CrashChoice, installCrashGuard } from '../../../src/main/electron/crash-guard';
import { lockPermissions, permitted } from '../../../src/main/electron/permissions';
import { waitFor } from '../../helpers/wait';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'xt-lockdown-'));
const renderer = path.join(root, 'renderer');
fs.mkdirSync(path.join(renderer, 'assets'), { recursive: true });
fs.writeFileSync(path.join(renderer, 'index.html'), '<!doctype html><div id="root"></div>');
fs.writeFileSync(path.join(renderer, 'assets', 'index-abc.js'), 'console.log(1)');
fs.writeFileSync(path.join(root, 'secret.txt'), 'not for the page');
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe('the app:// protocol', () => {
  const serve = appProtocolHandler(renderer);

  it('serves the built page and its assets with their types and the CSP', async () => {
    const page = await serve(new Request(PAGE_URL));
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await page.text()).toContain('id="root"');
    const script = await serve(new Request(`${APP_ORIGIN}/assets/index-abc.js`));
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(await script.text()).toBe('console.log(1)');
    const head = await serve(new Request(PAGE_URL, { method: 'HEAD' }));
    expect(head.status).toBe(200);
  });

  it('refuses paths outside the renderer, other hosts, other methods and missing files', async () => {
    for (const url of [
      `${APP_ORIGIN}/../secret.txt`,
      `${APP_ORIGIN}/%2e%2e/secret.txt`,
      `${APP_ORIGIN}/assets/..%2f..%2fsecret.txt`,
      `${APP_ORIGIN}/%E0%A4%A`,
      `${APP_ORIGIN}/nothing.js`,
      `${APP_ORIGIN}/assets`,
    ]) {
      const response = await serve(new Request(url));
      expect(response.status, url).toBe(404);
      expect(await response.text()).not.toContain('not for the page');
    }
    expect((await serve(new Request('app://elsewhere/index.html'))).status).toBe(404);
    expect((await serve(new Request(PAGE_URL, { method: 'POST', body: 'x' }))).status).toBe(405);
  });
});

describe('permissions', () => {
  it('grants only the clipboard write, only to our own page', () => {
    expect(permitted('clipboard-sanitized-write', 'app://xiaozhi-tray', APP_ORIGIN)).toBe(true);
    expect(permitted('clipboard-sanitized-write', `${PAGE_URL}#/logs`, APP_ORIGIN)).toBe(true);
    expect(permitted('clipboard-sanitized-write', 'https://evil.example', APP_ORIGIN)).toBe(false);
    expect(permitted('clipboard-sanitized-write', 'file:///', APP_ORIGIN)).toBe(false);
    expect(permitted('clipboard-sanitized-write', undefined, APP_ORIGIN)).toBe(false);
    for (const permission of ['media', 'notifications', 'geolocation', 'clipboard-read', 'openExternal', 'hid', 'fullscreen']) {
      expect(permitted(permission, APP_ORIGIN, APP_ORIGIN), permission).toBe(false);
    }
  });

  it('answers every request and check through the session handlers', () => {
    const handlers: { request?: (...args: never[]) => void; check?: (...args: never[]) => boolean } = {};
    lockPermissions(
      {
        setPermissionRequestHandler: (handler) => void (handlers.request = handler as never),
        setPermissionCheckHandler: (handler) => void (handlers.check = handler as never),
      },
      APP_ORIGIN,
    );
    const answers: boolean[] = [];
    const request = handlers.request as unknown as (c: unknown, p: string, cb: (g: boolean) => void, d: { requestingUrl: string }) => void;
    request(null, 'media', (granted) => answers.push(granted), { requestingUrl: PAGE_URL });
    request(null, 'clipboard-sanitized-write', (granted) => answers.push(granted), { requestingUrl: PAGE_URL });
    expect(answers).toEqual([false, true]);
    const check = handlers.check as unknown as (c: unknown, p: string, origin: string) => boolean;
    expect(check(null, 'notifications', APP_ORIGIN)).toBe(false);
  });
});

describe('the crash guard', () => {
  function setup(choice: CrashChoice = 'keep-running', options: { stormLimit?: number } = {}) {
    const logsDir = path.join(root, `logs-${Math.random().toString(36).slice(2)}`);
    const logBook = new LogBook({ sinks: [rotatingFileSink(logsDir)] });
    logBook.setSecrets(['tok-SECRET-123']);
    const proc = new EventEmitter();
    const shown: { text: string; fatal: boolean }[] = [];
    const quit = vi.fn(async () => undefined);
    let quitting = false;
    const guard = installCrashGuard({
      log: (message) => logBook.add('error', 'app', message).message,
      show: async (text, fatal) => {
        shown.push({ text, fatal });
        return choice;
      },
      quit,
      isQuitting: () => quitting,
      process: proc as unknown as Pick<NodeJS.Process, 'on'>,
      ...options,
    });
    const logFile = () => fs.readFileSync(path.join(logsDir, 'xiaozhi-tray.log'), 'utf8');
    return { guard, proc, shown, quit, logFile, setQuitting: () => (quitting = true) };
  }

  it('logs every uncaught exception and unhandled rejection to the file, shows the first once, and keeps running', async () => {
    const { proc, shown, quit, logFile } = setup('keep-running');
    proc.emit('uncaughtException', new Error('boom with wss://api.xiaozhi.me/mcp/?token=tok-SECRET-123'));
    proc.emit('unhandledRejection', new Error('second'));
    proc.emit('unhandledRejection', 'a plain reason');
    await waitFor(() => shown.length === 1, 2000, 'the dialog');
    expect(shown[0]!.fatal).toBe(false);
    expect(shown[0]!.text).toContain('uncaught exception: Error: boom');
    // No secret reaches the dialog or the file.
    expect(shown[0]!.text).not.toContain('tok-SECRET-123');
    const text = logFile();
    expect(text).toContain('uncaught exception: Error: boom');
    expect(text).not.toContain('tok-SECRET-123');
    expect(text).toContain('unhandled rejection: Error: second');
    expect(text).toContain('unhandled rejection: a plain reason');
    expect(shown).toHaveLength(1);
    expect(quit).not.toHaveBeenCalled();
  });

  it('quits cleanly when the user chooses to', async () => {
    const { proc, quit } = setup('quit');
    proc.emit('uncaughtException', new Error('boom'));
    await waitFor(() => quit.mock.calls.length === 1, 2000, 'the clean quit');
  });

  it('quits on its own after a storm of errors, and a failed start-up says so and quits', async () => {
    const storm = setup('keep-running', { stormLimit: 3 });
    for (let i = 0; i < 4; i++) storm.proc.emit('unhandledRejection', new Error(`again ${i}`));
    await waitFor(() => storm.quit.mock.calls.length === 1, 2000, 'the quit after the storm');
    expect(storm.logFile()).toMatch(/4 errors within 60 s: quitting/);
    expect(storm.shown).toHaveLength(1);

    const start = setup('keep-running');
    start.guard.report('start-up failed', new Error('no settings'), true);
    await waitFor(() => start.quit.mock.calls.length === 1, 2000, 'the quit after a failed start');
    expect(start.shown).toEqual([{ text: expect.stringContaining('start-up failed: Error: no settings'), fatal: true }]);
  });

  it('only logs while the app is quitting', async () => {
    const { proc, shown, quit, logFile, setQuitting } = setup('quit');
    setQuitting();
    proc.emit('uncaughtException', new Error('during quit'));
    expect(logFile()).toContain('during quit');
    expect(shown).toHaveLength(0);
    expect(quit).not.toHaveBeenCalled();
  });
});
