// node bench/openapi-memory.mjs [FILE] [TAG]: bundles bench/openapi-memory.ts and runs it (not part of npm test).
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';

await build({
  entryPoints: ['bench/openapi-memory.ts'],
  outfile: 'out/bench/openapi-memory.js',
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  logLevel: 'warning',
});
const result = spawnSync(process.execPath, ['--expose-gc', 'out/bench/openapi-memory.js', ...process.argv.slice(2)], { stdio: 'inherit' });
process.exit(result.status ?? 1);
