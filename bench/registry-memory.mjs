// node bench/registry-memory.mjs [MB]: bundles bench/registry-memory.ts and runs it (not part of npm test).
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';

await build({
  entryPoints: ['bench/registry-memory.ts'],
  outfile: 'out/bench/registry-memory.js',
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  logLevel: 'warning',
});
const result = spawnSync(process.execPath, ['--expose-gc', 'out/bench/registry-memory.js', ...process.argv.slice(2)], { stdio: 'inherit' });
process.exit(result.status ?? 1);
