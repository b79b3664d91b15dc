// @vitest-environment jsdom
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { logLine, LogsPage } from '../../src/renderer/pages/logs-page';
import { fixtureServer, type Harness, makeBridge } from '../helpers/bridge-harness';
import { renderWithBridge } from '../helpers/render-app';
import { waitFor } from '../helpers/wait';

let harness: Harness | undefined;
// jsdom lays nothing out: the page's virtual list is given a height to fill, as a window would.
beforeEach(() => {
  vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(2000);
  vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(1000);
});
afterEach(async () => {
  vi.restoreAllMocks();
  cleanup();
  await harness?.bridge.stop();
  harness = undefined;
});

/** A Python-like server that fails at start, twice, then is given up on. */
async function crashLoop(): Promise<Harness> {
  const script = "process.stderr.write('Traceback (most recent call last):\\nValueError: missing API key\\n'); process.exit(1)";
  harness = makeBridge(
    { servers: [{ name: 'py', transport: 'stdio', command: process.execPath, args: ['-e', script] }] },
    { restartBaseMs: 50, restartMaxMs: 100, crashWindowMs: 30_000, maxCrashes: 2, startTimeoutMs: 15_000, stopGraceMs: 500 },
  );
  harness.bridge.start();
  await waitFor(() => harness!.bridge.state().servers[0]!.state === 'failed', 20_000, 'the crash loop');
  return harness;
}

/** Issue 33: a server's own English stderr stood beside the app's Chinese lines with nothing telling them apart. */
describe("a server's own output on the Logs page", () => {
  for (const [language, tag, restart] of [
    ['zh-CN', '服务输出', /秒后重启/],
    ['en', 'server output', /Restarting in/],
  ] as const)
    it(`is marked as the server's, kept verbatim; the app's lines are not marked (${language})`, async () => {
      await renderWithBridge(await crashLoop(), <LogsPage />, language);
      const own = (await screen.findAllByText('ValueError: missing API key'))[0]!;
      expect(own.parentElement?.querySelector('.log-output')?.textContent).toBe(tag);
      const apps = await screen.findAllByText(restart);
      expect(apps[0]!.parentElement?.querySelector('.log-output')).toBeNull();
    });
});

describe("the logs page words a server's state changes in the UI's language", () => {
  it('in Chinese: the restart and the giving up, with the error they report', async () => {
    const { store } = await renderWithBridge(await crashLoop(), <LogsPage />, 'zh-CN');
    // The cause its line names, in the person's words (the program's own line is the server output above it).
    const restart = await screen.findByText(/^0(\.\d)? 秒后重启。原因：它需要的密钥（API Key）没有填：/);
    expect(restart.className).toBe('log-message');
    // Its level in Chinese too (警告), as every level label of the page.
    expect(restart.parentElement?.querySelector('.log-level')?.textContent).toBe('警告');
    expect(
      [...document.querySelectorAll('.log-level')]
        .map((e) => e.textContent)
        .every((l) => ['调试', '信息', '警告', '错误'].includes(l ?? '')),
    ).toBe(true);
    await screen.findByText(/^30 秒内失败 2 次，不再重试，直到重新启动它。最后的错误：它需要的密钥（API Key）没有填：/);
    // The filter finds a line by what it shows, and by the English the log file keeps.
    const filter = screen.getByLabelText('筛选文字');
    fireEvent.change(filter, { target: { value: '不再重试' } });
    await screen.findByText(/^显示 1\/\d+ 行$/);
    fireEvent.change(filter, { target: { value: 'giving up' } });
    await screen.findByText(/^显示 1\/\d+ 行$/);
    expect(document.querySelector('.log-message')?.textContent).toMatch(/^30 秒内失败 2 次/);
    // The log file and a copy keep the engine's English.
    expect(store.snapshot.logs.some((e) => /giving up until restarted/.test(e.message))).toBe(true);
  });

  it("in English, the app's own start-up line included", async () => {
    await renderWithBridge(await crashLoop(), <LogsPage />, 'en');
    await screen.findByText(
      /^Failed 2 times within 30 s; giving up until it is started again\. Last error: It needs a key \(API key\) it was not given/,
    );
    const started = await screen.findByText('Starting: 1 server, 0 endpoints');
    expect(started.parentElement?.querySelector('.log-level')?.textContent).toBe('info');
  });
});

describe('the logs page names where a line came from in words', () => {
  for (const [language, app, server] of [
    ['zh-CN', '应用', '服务 py'],
    ['en', 'App', 'Server py'],
  ] as const) {
    it(`the app and a server, in the list and the filter (${language})`, async () => {
      const h = await crashLoop();
      h.logBook.logger('app').info('hello');
      await renderWithBridge(h, <LogsPage />, language);
      await waitFor(() => document.querySelectorAll('.log-source').length > 1, 10_000, 'the lines');
      const shown = new Set([...document.querySelectorAll('.log-source')].map((e) => e.textContent));
      // Before: "app" and "server:py", the engine's own keys.
      expect(shown).toEqual(new Set([app, server]));
      const options = [...document.querySelectorAll('select option')].map((o) => o.textContent);
      expect(options).toContain(server);
      expect(options).not.toContain('server:py');
    });
  }
});

/** A server's line copied or saved from the page must not forge the app's own lines in the file (nor drive a terminal). */
describe('the logs the page copies and saves', () => {
  it("escapes a line's control characters as the app's own log file does", () => {
    const forged = `ok\r2026-12-07T14:00:00.000Z INFO  [app] endpoint home connected\n2026-12-07T14:00:01.000Z INFO  [app] all good\u001b[2K`;
    const line = logLine({ seq: 1, time: 0, level: 'info', source: 'server:fs', message: forged, output: true });
    expect(line).not.toMatch(/[\r\n\u001b]/);
    expect(line).toContain('ok\\r2026-12-07T14:00:00.000Z INFO  [app] endpoint home connected\\n2026');
  });
});

// Issue 33 (t-names8): the Logs page's source column and its filter said 服务 memory beside 记忆（知识图谱） everywhere else.
describe('a catalogue server on the Logs page', () => {
  it('is called by its title in the source column and the filter, the internal name in a tooltip', async () => {
    harness = makeBridge({ servers: [fixtureServer('memory', {}, { catalogue: 'memory' })] });
    harness.bridge.start();
    await harness.bridge.whenServersSettled();
    await renderWithBridge(harness, <LogsPage />, 'zh-CN');
    const filter = screen.getByRole('combobox', { name: '来源' });
    await waitFor(
      () => within(filter).queryByRole('option', { name: '服务 记忆（知识图谱）' }) !== null,
      5000,
      () => filter.textContent ?? '',
    );
    expect(within(filter).queryByRole('option', { name: '服务 memory' })).toBeNull();
    const cells = () => [...document.querySelectorAll('.log-source')];
    await waitFor(
      () => cells().some((c) => c.textContent === '服务 记忆（知识图谱）'),
      5000,
      () =>
        cells()
          .map((c) => c.textContent)
          .join(', '),
    );
    const cell = cells().find((c) => c.textContent === '服务 记忆（知识图谱）');
    expect(cell?.getAttribute('title')).toBe('服务 记忆（知识图谱）\n内部名称：memory');
    expect(cells().some((c) => c.textContent === '服务 memory')).toBe(false);
  });
});
