import { execFileSync } from 'node:child_process';
import path from 'node:path';

import { buildSync } from 'esbuild';

/**
 * The CLI, end-to-end and packaging tests use the real bundles: build them once, before any test
 * file runs (building inside tests would race when files run in parallel).
 */
export default function setup(): void {
  execFileSync(process.execPath, [path.join(__dirname, '..', 'scripts', 'build.mjs')], {
    cwd: path.join(__dirname, '..'),
    stdio: 'inherit',
  });
  // The fixture server's SDK in one file: spawned hundreds of times a run, it saves ~0.14 s of CPU per start.
  buildSync({
    entryPoints: [path.join(__dirname, 'fixtures', 'fixture-sdk.mjs')],
    outfile: path.join(__dirname, 'fixtures', '.built', 'fixture-sdk.mjs'),
    bundle: true,
    platform: 'node',
    format: 'esm',
    logLevel: 'warning',
  });
  // V8's code cache for the CLI bundle, read by every CLI start of the run (test/fixtures/cli-launcher.cjs).
  execFileSync(process.execPath, [path.join(__dirname, 'fixtures', 'cli-launcher.cjs'), '--version'], {
    env: { ...process.env, XT_WRITE_CODE_CACHE: '1' },
    stdio: 'ignore',
  });
}
