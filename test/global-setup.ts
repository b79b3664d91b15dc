import { build } from 'esbuild';

/** The CLI tests run the real bundle, so build it once before any test file runs. */
export default async function setup(): Promise<void> {
  await build({
    entryPoints: ['src/cli/index.ts'],
    outfile: 'out/cli/index.js',
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    mainFields: ['module', 'main'],
    external: ['electron'],
    logLevel: 'warning',
  });
}
