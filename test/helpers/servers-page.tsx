import { afterEach } from 'vitest';

import type { BridgeOptions } from '../../src/main/core/bridge/bridge';
import { ServersPage } from '../../src/renderer/pages/servers-page';
import { type FakeNpx, fakeNpx } from './fake-npx';
import { bridgeEachTest, renderWithBridge } from './render-app';

/**
 * For a test file (call at its top level): opens the servers page on a started bridge whose `npx`
 * runs the fixture server at once, so a catalogue entry added there really starts. Each test's
 * bridge, fake npx and hash are cleaned up after it.
 */
export function serversPageWithFakeNpx() {
  let npx: FakeNpx | undefined;
  afterEach(() => {
    npx?.remove();
    npx = undefined;
    window.location.hash = '';
  });
  const newBridge = bridgeEachTest();
  /**
   * `npxEnv`: more for the fake npx (FAKE_NPX_SERVER: another program in the fixture's place);
   * `options`: more for the bridge (a desktop host, a runtimes folder…).
   */
  return async (
    language: 'en' | 'zh-CN',
    servers: unknown[] = [],
    hash = '#/servers',
    npxEnv: Record<string, string> = {},
    options: Partial<BridgeOptions> = {},
  ) => {
    npx = fakeNpx();
    const harness = newBridge({ servers } as never, undefined, {
      registryUrl: 'http://127.0.0.1:9/',
      env: { ...process.env, ...npx.env({ FAKE_NPX_SECONDS: '0', ...npxEnv }) },
      ...options,
    });
    harness.bridge.start();
    window.location.hash = hash;
    const rendered = await renderWithBridge(harness, <ServersPage />, language);
    return { harness, ...rendered };
  };
}
