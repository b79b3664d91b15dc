// npm run bench: bundles bench/bench.ts and runs it (not part of npm test).
import { spawnSync } from 'node:child_process';

import { build } from 'esbuild';

await build({
  entryPoints: ['bench/bench.ts'],
  outfile: 'out/bench/bench.js',
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  mainFields: ['module', 'main'],
  external: ['electron'],
  logLevel: 'warning',
});
const result = spawnSync(process.execPath, ['out/bench/bench.js', ...process.argv.slice(2)], { stdio: 'inherit' });
process.exit(result.status ?? 1);
