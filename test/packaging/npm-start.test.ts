import { spawnSync } from 'node:child_process';
import path from 'node:path';

import { describe, expect, it } from 'vitest';

import { findElectron } from '../../scripts/electron-binary.mjs';
import { scaled } from '../helpers/time-scale';

const ROOT = path.resolve(__dirname, '../..');
const START = path.join(ROOT, 'scripts', 'start.mjs');

// Only where the binary is missing (here; CI downloads it): `npm start` must then say why in one line.
describe.skipIf(findElectron(ROOT).binary !== undefined)('npm start without the Electron binary', () => {
  it('says in one line that the download failed, with no stack trace, and exits 1', () => {
    // A mirror on a closed port of 127.0.0.1: the download fails at once, as it does offline.
    const env = {
      ...process.env,
      LC_ALL: '',
      LC_MESSAGES: '',
      LANG: 'C.UTF-8',
      ELECTRON_MIRROR: 'http://127.0.0.1:9/',
      ELECTRON_SKIP_BINARY_DOWNLOAD: '',
      electron_config_cache: path.join(ROOT, 'node_modules', '.cache', 'no-electron-here'),
    };
    const run = spawnSync(process.execPath, [START], { cwd: ROOT, env, encoding: 'utf8', timeout: scaled(60_000) });
    expect(run.status).toBe(1);
    const lines = run.stderr.split('\n').filter((line) => line.trim() !== '');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^Cannot start the desktop app: the Electron binary could not be downloaded \(.*fetch failed.*\); get it with `npx install-electron` \(in mainland China through a mirror: ELECTRON_MIRROR=https:\/\/npmmirror\.com\/mirrors\/electron\/ npx install-electron\), or run the headless app instead/,
    );
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });

  it('with ELECTRON_SKIP_BINARY_DOWNLOAD set, says so in one line without trying', () => {
    const run = spawnSync(process.execPath, [START], {
      cwd: ROOT,
      env: { ...process.env, LC_ALL: '', LC_MESSAGES: '', LANG: 'C.UTF-8', ELECTRON_SKIP_BINARY_DOWNLOAD: '1' },
      encoding: 'utf8',
      timeout: scaled(60_000),
    });
    expect(run.status).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr.trim().split('\n')).toEqual([
      expect.stringContaining('Cannot start the desktop app: the Electron binary is not installed'),
    ]);
  });
});
