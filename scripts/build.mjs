// Builds the Node-side bundles (Electron main, preload, headless CLI) with esbuild.
// The renderer is built by Vite (vite.config.ts) when it exists.
import { build } from 'esbuild';
import { existsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: true,
  logLevel: 'warning',
  // Electron is provided by the runtime; never bundle it.
  external: ['electron'],
  // Prefer ESM builds: some packages' UMD builds use dynamic requires esbuild cannot follow.
  mainFields: ['module', 'main'],
};

await Promise.all([
  build({ ...common, entryPoints: ['src/cli/index.ts'], outfile: 'out/cli/index.js' }),
  existsSync('src/main/index.ts') && build({ ...common, entryPoints: ['src/main/index.ts'], outfile: 'out/main/index.js' }),
  existsSync('src/preload/index.ts') &&
    build({ ...common, entryPoints: ['src/preload/index.ts'], outfile: 'out/preload/index.js', platform: 'node', target: 'chrome130' }),
]);

if (existsSync('vite.config.mts') && process.argv[2] !== '--node-only') {
  execFileSync(process.execPath, ['node_modules/vite/bin/vite.js', 'build', '--logLevel', 'warn'], { stdio: 'inherit' });
}
