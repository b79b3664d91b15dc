// @vitest-environment jsdom
import fs from 'node:fs';
import path from 'node:path';

import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { ServersPage } from '../../src/renderer/pages/servers-page';
import { slowRestarts } from '../helpers/bridge-harness';
import { bridgeEachTest, renderWithBridge } from '../helpers/render-app';
import { tempDirs } from '../helpers/temp-dirs';
import { scaled } from '../helpers/time-scale';

const tempDir = tempDirs('xt-retry-now-');
const newBridge = bridgeEachTest();

/**
 * Issue 33: a card waiting for its next try (half a minute here) offered no way to try now. Its button
 * reads as the failure advice names it (换好后点“重试”, press Try again): it read 立即重试 beside it.
 */
describe('the card of a server waiting to restart', () => {
  for (const [language, label] of [
    ['en', 'Try again'],
    ['zh-CN', '重试'],
  ] as const) {
    it(`has a ${label} button that starts the next attempt at once (${language})`, async () => {
      const starts = path.join(tempDir(), 'starts');
      // Each start leaves a line, then the program fails: the next try is 30 s away.
      const script = `require('fs').appendFileSync(${JSON.stringify(starts)}, 'x\\n'); process.exit(1)`;
      const harness = newBridge(
        { servers: [{ name: 'flaky', transport: 'stdio', command: process.execPath, args: ['-e', script] }] },
        slowRestarts,
      );
      harness.bridge.start();
      const { store } = await renderWithBridge(harness, <ServersPage />, language);
      await waitFor(() => expect(store.snapshot.state.servers[0]?.state).toBe('restarting'), { timeout: scaled(10_000) });
      const count = () => (fs.existsSync(starts) ? fs.readFileSync(starts, 'utf8').split('\n').length - 1 : 0);
      expect(count()).toBe(1);
      fireEvent.click(await screen.findByRole('button', { name: label }));
      // Well before the 30 s the restart would have waited.
      await waitFor(() => expect(count()).toBe(2), { timeout: scaled(10_000) });
    });
  }
});
