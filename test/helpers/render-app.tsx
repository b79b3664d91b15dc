import { cleanup, configure, render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach } from 'vitest';

import { AppContext } from '../../src/renderer/app-context';
import { BridgeStore } from '../../src/renderer/store/bridge-store';
import { translator } from '../../src/shared/i18n/translate';
import { type Harness, makeBridge } from './bridge-harness';
import { scaled } from './time-scale';

/** Renders a piece of the window against a real in-process Bridge (its api is what the UI talks to). */
export async function renderWithBridge(harness: Harness, ui: ReactNode, language: 'en' | 'zh-CN' = 'en') {
  const store = new BridgeStore(harness.bridge.api);
  await store.load();
  const toasts: { message: string; kind: string }[] = [];
  const imports: unknown[] = [];
  const value = {
    store,
    t: translator(language),
    language,
    toast: (message: string, kind: 'info' | 'error' = 'info') => void toasts.push({ message, kind }),
    showImport: (preview: unknown) => void imports.push(preview),
  };
  const result = render(<AppContext.Provider value={value}>{ui}</AppContext.Provider>);
  return { ...result, store, toasts, imports };
}

// React's act() warnings are errors here: tests wait for what they expect instead.
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
// findBy… and waitFor give up after 1 s by default: the window's answers come from real servers.
configure({ asyncUtilTimeout: scaled(5000) });

/**
 * Each test's bridge: `const harness = newBridge({...})` takes makeBridge's arguments; after each
 * test the window is unmounted and that bridge stopped.
 */
export function bridgeEachTest(): typeof makeBridge {
  let current: Harness | undefined;
  afterEach(async () => {
    cleanup();
    await current?.bridge.stop();
    current = undefined;
  });
  return (...args) => (current = makeBridge(...args));
}
