// Builds the Node-side bundles (Electron main, preload, headless CLI) with esbuild.
// The renderer is built by Vite (vite.config.ts) when it exists.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

import { build } from 'esbuild';

import { nodeBundle as common } from './bundle-options.mjs';

// A build for users who cannot reach GitHub can carry an update mirror (https, serving the same
// latest*.yml files and installers as the GitHub releases): XIAOZHI_TRAY_UPDATE_MIRROR=https://… npm run dist
const mirror = process.env.XIAOZHI_TRAY_UPDATE_MIRROR ?? '';
if (mirror && !/^https:\/\/[^/\s]+/.test(mirror)) throw new Error(`XIAOZHI_TRAY_UPDATE_MIRROR must be an https:// URL, not "${mirror}"`);

await Promise.all([
  // openai stays out of the app's bundles (8 MB of idle memory for everyone): its own file beside each, loaded on first use.
  // Without its spaces and comments (names kept, for stack traces and profiles): V8 holds a script's whole
  // source for as long as it runs, and 2.9 MB became 2.1 (an idle bridge's RSS, 1.2 MB less).
  build({
    ...common,
    minifyWhitespace: true,
    minifySyntax: true,
    external: [...common.external, 'openai'],
    entryPoints: ['src/cli/index.ts'],
    outfile: 'out/cli/index.js',
  }),
  build({ ...common, entryPoints: ['src/main/core/models/openai-library.ts'], outfile: 'out/cli/openai.js' }),
  // The watchdog the headless bridge starts with `node`: a few KB, not the CLI's 2 MB.
  build({ ...common, entryPoints: ['src/cli/watchdog.ts'], outfile: 'out/cli/watchdog.js' }),
  // Electron 45 runs the main process on its own Node 22 (electron-store 12 and conf need it).
  existsSync('src/main/index.ts') &&
    build({
      ...common,
      external: [...common.external, 'openai'],
      entryPoints: ['src/main/index.ts'],
      outfile: 'out/main/index.js',
      target: 'node22',
      define: { 'process.env.XIAOZHI_TRAY_UPDATE_MIRROR': JSON.stringify(mirror) },
    }),
  existsSync('src/main/index.ts') &&
    build({ ...common, entryPoints: ['src/main/core/models/openai-library.ts'], outfile: 'out/main/openai.js', target: 'node22' }),
  existsSync('src/preload/index.ts') &&
    build({ ...common, entryPoints: ['src/preload/index.ts'], outfile: 'out/preload/index.js', platform: 'node', target: 'chrome130' }),
]);

// V8 keeps a script with any character past U+00FF as two bytes per character: one "—" in a kept
// comment or "小" in a regex doubled the CLI's 2 MB of source in memory. esbuild escapes strings
// but not regex literals or comments; the same \u escapes mean the same there (String.raw aside,
// which the bundles use only on ASCII text).
for (const bundle of ['out/cli/index.js', 'out/cli/watchdog.js', 'out/main/index.js']) {
  if (!existsSync(bundle)) continue;
  const code = readFileSync(bundle, 'utf8');
  const ascii = code.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  if (ascii !== code) writeFileSync(bundle, ascii);
}

if (existsSync('vite.config.mts') && process.argv[2] !== '--node-only') {
  execFileSync(process.execPath, ['node_modules/vite/bin/vite.js', 'build', '--logLevel', 'warn'], { stdio: 'inherit' });
}
