// `npm start`: build, then run the desktop app in the project's Electron. Without the Electron
// binary it says so in one line (and how to run the headless app) instead of a stack trace.
import { spawn, execFileSync } from 'node:child_process';
import path from 'node:path';
import { ELECTRON_HINT, findElectron, ROOT } from './electron-binary.mjs';

const electron = findElectron();
if (!electron.binary) {
  console.error(`Cannot start the desktop app: ${electron.reason}; ${ELECTRON_HINT}`);
  process.exit(1);
}
execFileSync(process.execPath, [path.join(ROOT, 'scripts', 'build.mjs')], { cwd: ROOT, stdio: 'inherit' });
const child = spawn(electron.binary, [ROOT, ...process.argv.slice(2)], { cwd: ROOT, stdio: 'inherit', windowsHide: false });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
