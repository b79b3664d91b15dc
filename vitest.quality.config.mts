import { defineConfig } from 'vitest/config';

import { scaled, TIME_SCALE } from './vitest.config.mts';

/**
 * Quality runs: long or broad checks of how well something works, not whether it works (that is
 * `npm test`, which keeps a small slice of each). `npm run quality` (router query set, long fuzz),
 * `npm run quality:router`, `npm run quality:fuzz`, `npm run screenshots` (every page, and the end-to-end
 * tests again, taking their screenshots in both languages and both themes).
 */
export default defineConfig({
  test: {
    globalSetup: ['test/global-setup.ts'],
    include: ['test/quality/**/*.test.ts', 'test/e2e/**/*.test.ts'],
    testTimeout: scaled(60_000),
    hookTimeout: scaled(60_000),
    // Each run starts many processes of its own: one at a time.
    maxWorkers: 1,
    env: { TEST_TIME_SCALE: String(TIME_SCALE), XT_SCREENSHOTS: '1' },
  },
});
