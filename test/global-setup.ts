import { execFileSync } from 'node:child_process';
import path from 'node:path';

import { buildSync } from 'esbuild';
import type { TestProject } from 'vitest/node';

import { CHROMIUM_LAUNCH, haveChromium } from './helpers/chromium';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The run's Chromium (launchChromium in test/helpers/headless-window.ts connects to it). */
    chromiumEndpoint?: string;
  }
}

const FIXTURES = path.join(__dirname, 'fixtures');
const BUILT = path.join(FIXTURES, '.built');

/**
 * The CLI, end-to-end and packaging tests use the real bundles: build them once, before any test
 * file runs (building inside tests would race when files run in parallel).
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  execFileSync(process.execPath, [path.join(__dirname, '..', 'scripts', 'build.mjs')], {
    cwd: path.join(__dirname, '..'),
    stdio: 'inherit',
  });
  // The fixture servers' SDK in one file each (test/fixtures/load-sdk.mjs): spawned hundreds of times a run,
  // a start then loads one file, not the SDK's and zod's hundred (~0.1 s of CPU less), precompiled (~0.05 s).
  buildSync({
    entryPoints: ['fixture-sdk.mjs', 'fixture-mcp-sdk.mjs'].map((file) => path.join(FIXTURES, file)),
    outdir: BUILT,
    outExtension: { '.js': '.cjs' },
    bundle: true,
    platform: 'node',
    format: 'cjs',
    logLevel: 'warning',
  });
  // V8's code cache of each bundle the tests start again and again (test/fixtures/cached-load.cjs), written by
  // a plain `node` as the processes that read it are.
  const writeCache = (args: string[]) =>
    execFileSync(process.execPath, args, { env: { ...process.env, XT_WRITE_CODE_CACHE: '1' }, stdio: 'ignore' });
  writeCache([path.join(FIXTURES, 'cli-launcher.cjs'), '--version']);
  for (const name of ['fixture-sdk', 'fixture-mcp-sdk']) {
    const bundle = path.join(BUILT, `${name}.cjs`);
    writeCache([
      '-e',
      `require(${JSON.stringify(path.join(FIXTURES, 'cached-load.cjs'))}).loadCached(...${JSON.stringify([bundle, `${bundle}.code-cache`])})`,
    ]);
  }
  // One Chromium for the run's window tests, each file in contexts of its own: a start is ~0.9 s of CPU.
  if (!haveChromium) return async () => {};
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launchServer(CHROMIUM_LAUNCH);
  project.provide('chromiumEndpoint', browser.wsEndpoint());
  return () => browser.close();
}
