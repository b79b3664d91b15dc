import { execFileSync } from 'node:child_process';
import path from 'node:path';

/**
 * The CLI, end-to-end and packaging tests use the real bundles: build them once, before any test
 * file runs (building inside tests would race when files run in parallel).
 */
export default function setup(): void {
  execFileSync(process.execPath, [path.join(__dirname, '..', 'scripts', 'build.mjs')], {
    cwd: path.join(__dirname, '..'),
    stdio: 'inherit',
  });
}
