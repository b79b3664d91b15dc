import os from 'node:os';

import { defineConfig } from 'vitest/config';

import EnvironmentSequencer from './test/sequencer';

/**
 * The factor every test timing is multiplied by (test/helpers/time-scale.ts): TEST_TIME_SCALE when
 * given, else from the load at the start (runnable processes per core: 1 when idle, at most 4).
 */
/** Runnable processes per core when the run starts. */
const BUSY = (os.loadavg()[0] ?? 0) / os.availableParallelism();
export const TIME_SCALE =
  Number(process.env.TEST_TIME_SCALE) > 0 ? Number(process.env.TEST_TIME_SCALE) : Math.min(4, Math.max(1, Math.round(BUSY * 10) / 10));
export const scaled = (ms: number): number => Math.round(ms * TIME_SCALE);

/**
 * `npm test` runs two projects, one after the other:
 * - `unit`: in-process tests (pure functions, the window in jsdom, the Electron main process against a
 *   mocked Electron). They start no process and wait on no timer of any length.
 * - `processes`: everything that starts real processes or waits on real I/O (child servers, the CLI,
 *   Chromium, npm pack, electron-builder); every test file not listed in UNIT lands here.
 * Quality runs (the router's query set over real servers, the long fuzz, the screenshot matrix) are
 * not part of it: `npm run quality`, `npm run screenshots` (vitest.quality.config.mts).
 */
const UNIT = [
  'test/layering.test.ts',
  'test/bench/**/*.test.ts',
  'test/shared/**/*.test.ts',
  'test/preload/**/*.test.ts',
  'test/cli/args.test.ts',
  'test/cli/service-platforms.test.ts',
  'test/main/core/config/{hostile-config,load-config,saved-names,settings-store,tool-set-settings}.test.ts',
  'test/main/core/hub/{argument-check,result-shaping,tool-names}.test.ts',
  'test/main/core/import/{import-formats,own-entry,placeholders}.test.ts',
  'test/main/core/io/**/*.test.ts',
  'test/main/core/logs/**/*.test.ts',
  'test/main/core/router/{tool-router,tool-search}.test.ts',
  'test/main/core/servers/{call-relay-memory,registry-failure,restart-policy,server-problems,supervisor,tool-list}.test.ts',
  'test/main/core/runtimes/{runtime-sources,path-first}.test.ts',
  'test/main/core/bridge-commands.types.test.ts',
  'test/main/core/catalogue/cache-dir.test.ts',
  'test/main/core/local-server/{add-to-client,secret-files}.test.ts',
  'test/main/core/{login-shell-path,preferences}.test.ts',
  'test/main/electron/{app-main,login-item,runtime-lockdown,tray,wake-watch}.test.ts',
  'test/packaging/{engines,workflows}.test.ts',
  'test/renderer/{activity-chart,bridge-store,dialog-footer,local-server-tokens,masked-values,server-editor}.test.{ts,tsx}',
];
const ALL = ['test/**/*.test.ts', 'test/**/*.test.tsx'];
const QUALITY = ['test/quality/**'];

// So that vi.mock('electron') also reaches electron-store's own import of it.
const server = { deps: { inline: ['electron-store', 'conf'] } };
// One factor for every worker (see test/helpers/time-scale.ts): read once, here.
const env = { TEST_TIME_SCALE: String(TIME_SCALE) };
// Run before every file (the files share their worker): fails a file that leaves process.env changed.
const setupFiles = ['test/setup/env-guard.ts'];

export default defineConfig({
  test: {
    globalSetup: ['test/global-setup.ts'],
    // Each project's files of one environment together, so that a worker serves them all (test/sequencer.ts).
    sequence: { sequencer: EnvironmentSequencer },
    projects: [
      {
        test: {
          name: 'unit',
          include: UNIT,
          exclude: QUALITY,
          testTimeout: scaled(10_000),
          hookTimeout: scaled(10_000),
          // Pure CPU work: one worker a core. The files share their workers' module cache (a third
          // of the CPU time of importing the app's modules again for each file).
          maxWorkers: 2,
          isolate: false,
          sequence: { groupOrder: 0 },
          server,
          env,
          setupFiles,
        },
      },
      {
        test: {
          name: 'processes',
          include: ALL,
          exclude: [...UNIT, ...QUALITY],
          testTimeout: scaled(30_000),
          hookTimeout: scaled(30_000),
          // A process test spends most of its time waiting on children and sockets: on an idle
          // machine four files at a time keep the cores busy; on a busy one (or told so) two.
          maxWorkers:
            Number(process.env.TEST_PROCESS_WORKERS) > 0
              ? Number(process.env.TEST_PROCESS_WORKERS)
              : BUSY < 0.75
                ? 2 * os.availableParallelism()
                : 2,
          // Files share their worker's module cache, as in `unit`: importing the app's modules again
          // for every file was half the suite's CPU time (123 s of 240 s). Each file cleans up after itself.
          isolate: false,
          sequence: { groupOrder: 1 },
          server,
          env,
          // A failed window test also prints what its pages showed (test/setup/pages-on-failure.ts).
          setupFiles: [...setupFiles, 'test/setup/pages-on-failure.ts'],
        },
      },
    ],
  },
});
