// @vitest-environment jsdom
import path from 'node:path';

import { cleanup, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';

import { ServersPage } from '../../src/renderer/pages/servers-page';
import { type Harness, makeBridge } from '../helpers/bridge-harness';
import { renderWithBridge } from '../helpers/render-app';
import { tempDirs } from '../helpers/temp-dirs';
import { scaled } from '../helpers/time-scale';

const dirs = tempDirs('card-retries-');
let harness: Harness | undefined;
afterEach(async () => {
  cleanup();
  await harness?.bridge.stop();
  harness = undefined;
});

const fixture = path.resolve(__dirname, '../fixtures/fixture-server.mjs');

/** Exits at its first start (leaving a mark), runs the fixture server from the second on. */
function failsOnce(): string {
  const mark = path.join(dirs(), 'started-once');
  return (
    `const fs = require('node:fs'); const mark = ${JSON.stringify(mark)};` +
    `if (!fs.existsSync(mark)) { fs.writeFileSync(mark, ''); process.stderr.write('Error: first start fails\\n'); process.exit(1); }` +
    `import(${JSON.stringify(fixture)});`
  );
}

describe('the card of a server that runs after a retry', () => {
  for (const [language, retried] of [
    ['zh-CN', /已重试/],
    ['en', /tried again/],
  ] as const)
    it(`says it runs, not how many times it was retried before (${language})`, async () => {
      harness = makeBridge(
        { servers: [{ name: 'flaky', transport: 'stdio', command: process.execPath, args: ['-e', failsOnce()] }] },
        { restartBaseMs: 50, restartMaxMs: 100, crashWindowMs: 30_000, maxCrashes: 5, startTimeoutMs: scaled(15_000), stopGraceMs: 500 },
      );
      harness.bridge.start();
      const { store } = await renderWithBridge(harness, <ServersPage />, language);
      await waitFor(
        () => {
          const s = store.snapshot.state.servers[0];
          expect(s?.state).toBe('running');
          expect(s?.restarts).toBeGreaterThan(0);
        },
        { timeout: scaled(20_000) },
      );
      await screen.findByText(language === 'zh-CN' ? /^1 个工具$|个工具/ : /tools?$/);
      expect(screen.queryByText(retried)).toBeNull();
    });
});
