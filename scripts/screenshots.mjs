// The screenshot matrix: every page and the main dialogs, both languages, both themes, 1100×720 and 800×600.
// Writes test-results/screenshots/*.png (gitignored). Not part of `npm test`: it is slow.
import { spawnSync } from 'node:child_process';

const result = spawnSync(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', 'test/e2e/screenshots.test.ts'], {
  stdio: 'inherit',
  env: { ...process.env, SCREENSHOTS: '1' },
});
process.exit(result.status ?? 1);
