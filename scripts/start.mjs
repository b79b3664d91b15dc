// `npm start`: build, then run the desktop app in the project's Electron. Without the Electron
// binary it says so in one line (and how to run the headless app) instead of a stack trace.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

import { findElectron, ROOT, startWords } from './electron-binary.mjs';

const words = startWords();

let electron = findElectron();
// Electron fetches its binary on first use, not at install: fetch it now (unless told not to).
if (
  !electron.binary &&
  !process.env.ELECTRON_SKIP_BINARY_DOWNLOAD &&
  fs.existsSync(path.join(ROOT, 'node_modules', 'electron', 'install.js'))
) {
  console.log(words.downloading);
  // Its errors are kept: a failure is a stack trace, whose first line goes into our one line.
  const fetched = spawnSync(process.execPath, [path.join(ROOT, 'node_modules', 'electron', 'install.js')], {
    cwd: ROOT,
    stdio: ['ignore', 'inherit', 'pipe'],
    encoding: 'utf8',
  });
  electron = findElectron();
  if (!electron.binary && fetched.status !== 0) {
    const why =
      (fetched.stderr ?? '')
        .split('\n')
        .find((line) => line.trim() !== '')
        ?.trim() ?? words.exitCode(fetched.status);
    electron = { reason: words.downloadFailed(why) };
  }
}
if (!electron.binary) {
  console.error(words.cannotStart(electron.reason, words.hint));
  process.exit(1);
}
execFileSync(process.execPath, [path.join(ROOT, 'scripts', 'build.mjs')], { cwd: ROOT, stdio: 'inherit' });
const child = spawn(electron.binary, [ROOT, ...process.argv.slice(2)], { cwd: ROOT, stdio: 'inherit', windowsHide: false });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
