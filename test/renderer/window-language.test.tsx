// @vitest-environment jsdom
import { cleanup, render, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';

import { App } from '../../src/renderer/app';
import { BridgeStore } from '../../src/renderer/store/bridge-store';
import { bridgeEachTest } from '../helpers/render-app';

const newBridge = bridgeEachTest();
afterEach(() => localStorage.clear());

/** The browser that opens the headless web page: English (jsdom's navigator.language is en-US). */
async function openWindow(language: 'system' | 'en' | 'zh-CN', env: NodeJS.ProcessEnv) {
  const harness = newBridge({ ui: { language } }, undefined, { env });
  const store = new BridgeStore(harness.bridge.api);
  await store.load();
  render(<App store={store} />);
}

const run = (lang: string) => ({ ...process.env, LANG: lang, LC_ALL: '', LC_MESSAGES: '' });

/** Issue 33: `LANG=zh_CN xiaozhi-tray run --ui` opened in an English browser showed English. */
describe("the window's language", () => {
  it("follows the run's LANG when the settings say 'system', not the browser's", async () => {
    expect(navigator.language).toMatch(/^en/);
    await openWindow('system', run('zh_CN.UTF-8'));
    await waitFor(() => expect(document.documentElement.lang).toBe('zh-CN'));
    expect(document.title).toBe('小智托盘');
  });

  it("follows the app's own setting over the run's LANG", async () => {
    await openWindow('en', run('zh_CN.UTF-8'));
    await waitFor(() => expect(document.documentElement.lang).toBe('en'));
  });

  it('is English for an English run in an English browser', async () => {
    await openWindow('system', run('en_US.UTF-8'));
    await waitFor(() => expect(document.documentElement.lang).toBe('en'));
  });

  it("follows the browser's when the run's LANG names no language (C.UTF-8, POSIX, unset: a container, a service unit)", async () => {
    const browser = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(navigator), 'language')!;
    Object.defineProperty(navigator, 'language', { value: 'zh-CN', configurable: true });
    try {
      for (const lang of ['C.UTF-8', 'POSIX', '']) {
        await openWindow('system', run(lang));
        await waitFor(() => expect(document.documentElement.lang, lang).toBe('zh-CN'));
        cleanup();
      }
    } finally {
      delete (navigator as { language?: string }).language;
      expect(Object.getOwnPropertyDescriptor(Object.getPrototypeOf(navigator), 'language')).toEqual(browser);
    }
  });
});
