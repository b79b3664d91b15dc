import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    globalSetup: ['test/global-setup.ts'],
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Tests spawn real child processes; two cores, so keep parallelism modest.
    maxWorkers: 2,
    // So that vi.mock('electron') also reaches electron-store's own import of it.
    server: { deps: { inline: ['electron-store', 'conf'] } },
  },
});
