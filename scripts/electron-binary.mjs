// Where the Electron binary is, without asking the electron package (whose require() would try to
// download it). Used by `npm start`, the Electron end-to-end tests and the smoke script.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The binary's path, or undefined with the reason in one line. */
export function findElectron(root = ROOT) {
  const pkg = path.join(root, 'node_modules', 'electron');
  if (!fs.existsSync(path.join(pkg, 'package.json'))) return { reason: 'the electron package is not installed (run npm ci)' };
  const override = process.env.ELECTRON_OVERRIDE_DIST_PATH;
  const pathFile = path.join(pkg, 'path.txt');
  const relative = fs.existsSync(pathFile) ? fs.readFileSync(pathFile, 'utf8').trim() : '';
  const binary = override ? path.join(override, relative || 'electron') : relative ? path.join(pkg, 'dist', relative) : '';
  if (binary && fs.existsSync(binary)) return { binary };
  return {
    reason: `the Electron binary is not installed (${path.relative(root, path.join(pkg, 'dist')) || 'node_modules/electron/dist'} is missing${process.env.ELECTRON_SKIP_BINARY_DOWNLOAD ? ': ELECTRON_SKIP_BINARY_DOWNLOAD is set' : ''})`,
  };
}

/** What to do about it, in the same line. */
export const ELECTRON_HINT =
  'get it with `npx install-electron` (in mainland China through a mirror: ELECTRON_MIRROR=https://npmmirror.com/mirrors/electron/ npx install-electron), or run the headless app instead: npm run build && npx xiaozhi-tray run --config FILE --ui';
