// @vitest-environment jsdom
import { render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';

import { App } from '../../src/renderer/app';
import { BridgeStore } from '../../src/renderer/store/bridge-store';
import { fixtureServer, slowRestarts } from '../helpers/bridge-harness';
import { bridgeEachTest } from '../helpers/render-app';
import { scaled } from '../helpers/time-scale';

const newBridge = bridgeEachTest();
afterEach(() => {
  window.location.hash = '';
});

/** What the filesystem server says when its folder is gone (modelcontextprotocol/servers, src/filesystem/index.ts). */
const FOLDER_GONE = 'Error: None of the specified directories are accessible';

async function openWindow(language: 'zh-CN' | 'en', hash: string) {
  const endpoints = [{ id: 'e', name: 'home', url: 'ws://127.0.0.1:9/mcp', enabled: false }];
  const servers = [
    // Crashes at each start saying its folder is gone: tried again in 30 s (slowRestarts), meanwhile it waits.
    { ...fixtureServer('files'), args: ['-e', `console.error(${JSON.stringify(FOLDER_GONE)}); process.exit(1)`] },
    // A program that is not there: no retry can fix it, it has given up.
    { ...fixtureServer('gone'), command: '/nonexistent/xt-no-such-program' },
  ];
  const harness = newBridge({ servers, endpoints, ui: { language } } as never, slowRestarts);
  harness.bridge.start();
  window.location.hash = hash;
  const store = new BridgeStore(harness.bridge.api);
  await store.load();
  render(<App store={store} />);
  await waitFor(
    async () => {
      const state = await harness.bridge.api.getState();
      expect(state.servers.find((s) => s.name === 'files')?.retryAt).toBeDefined();
      expect(state.servers.find((s) => s.name === 'gone')?.state).toBe('failed');
    },
    { timeout: scaled(20_000) },
  );
}

/** Issue 33: one server that failed and tried again was named three ways at once (停止了, 已失败, 重启中). */
describe.skipIf(process.platform === 'win32')('one name for a server’s state, everywhere', () => {
  for (const [language, retrying, failed, nextTry, cause, said, counts] of [
    ['zh-CN', '正在重试', '失败', /秒后再试一次/, /它启动时找不到给它的文件夹/, '服务返回的原文', ['1 个服务失败', '1 个服务正在重试']],
    [
      'en',
      'Retrying',
      'Failed',
      /Next try in \d+ s/,
      /The folder it was given was not there when it started/,
      'The server said',
      ['1 server failed', '1 server is retrying'],
    ],
  ] as const) {
    it(`the card says retrying (and when) until it gives up, and the cause before the server’s own words (${language})`, async () => {
      await openWindow(language, '#/servers');
      const files = await waitFor(() => {
        const card = document.getElementById('server-files');
        expect(card).not.toBeNull();
        return card!;
      });
      await within(files).findByText(retrying, undefined, { timeout: scaled(10_000) });
      expect(within(files).getByText(nextTry)).toBeTruthy();
      // How many times it tried again, in the badge's word (before: 已重启 1 次 beside 重启中).
      expect(within(files).getByText(language === 'zh-CN' ? /^已重试 \d+ 次$/ : /^tried again \d+×$/)).toBeTruthy();
      // The cause in the person's words is the headline; the server's English below, folded.
      expect(within(files).getByText(cause).className).toContain('error-text');
      const own = within(files).getByText(said);
      expect(own.tagName).toBe('SUMMARY');
      expect((own.closest('details') as HTMLDetailsElement).open).toBe(false);
      expect(own.closest('details')!.textContent).toContain(FOLDER_GONE);
      expect(within(files).queryByText(new RegExp(`：${FOLDER_GONE}|: ${FOLDER_GONE}`))).toBeNull();
      const gone = document.getElementById('server-gone')!;
      expect(within(gone).getByText(failed)).toBeTruthy();
    });

    it(`the sidebar and the overview count them by the same names (${language})`, async () => {
      await openWindow(language, '#/');
      for (const count of counts) await screen.findAllByText(new RegExp(count), undefined, { timeout: scaled(10_000) });
      const text = document.body.textContent ?? '';
      expect(text).not.toMatch(/重启中|出错后正在重启|停止了|已失败|restarting after a failure|Restarting/);
    });
  }
});
