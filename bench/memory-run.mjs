// Bundles a memory measurement (bench/NAME.ts) and runs it with --expose-gc: `runMeasurement('registry-memory')`.
import { spawnSync } from 'node:child_process';

import { build } from 'esbuild';

export async function runMeasurement(name) {
  await build({
    entryPoints: [`bench/${name}.ts`],
    outfile: `out/bench/${name}.js`,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    logLevel: 'warning',
  });
  const result = spawnSync(process.execPath, ['--expose-gc', `out/bench/${name}.js`, ...process.argv.slice(2)], { stdio: 'inherit' });
  process.exit(result.status ?? 1);
}
