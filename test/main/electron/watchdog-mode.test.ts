import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { isAlive } from '../../../src/main/core/servers/process-tree';
import { desktopWatchdogCommand } from '../../../src/main/electron/watchdog-mode';
import { fixtureServer } from '../../helpers/bridge-harness';
import { isRunning } from '../../helpers/processes';
import { waitFor } from '../../helpers/wait';

/**
 * The desktop app's watchdog: the app's own binary with `--bridge-watchdog` (the runAsNode fuse is
 * off, so there is no Node to run a script with). The built main bundle runs under the stand-in
 * Electron (test/fixtures/stand-in-electron.cjs) from a `resources/app` link to this checkout,
 * started through an executable script beside `resources`, as a packaged app's binary is.
 */
const ROOT = path.resolve(__dirname, '../../..');
const STAND_IN = path.join(ROOT, 'test', 'fixtures', 'stand-in-electron.cjs');
const dirs: string[] = [];
const children: ChildProcess[] = [];
const pids: number[] = [];

afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  for (const pid of pids.splice(0)) if (isAlive(pid)) process.kill(pid, 'SIGKILL');
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** A packaged-app layout: `<dir>/xiaozhi-tray` (runs the stand-in) and `<dir>/resources/app` (this checkout). */
function packagedApp(): { dir: string; exe: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'xt-desk-watchdog-'));
  dirs.push(dir);
  fs.mkdirSync(path.join(dir, 'resources'));
  fs.symlinkSync(ROOT, path.join(dir, 'resources', 'app'), 'dir');
  const exe = path.join(dir, 'xiaozhi-tray');
  fs.writeFileSync(exe, `#!/bin/sh\nexec "${process.execPath}" "${STAND_IN}" "$(dirname "$0")/resources" "$@"\n`, { mode: 0o755 });
  return { dir, exe };
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv = {}): { child: ChildProcess; output: () => string } {
  const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  children.push(child);
  let output = '';
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  return { child, output: () => output };
}

describe("the desktop app's watchdog", () => {
  it('is the app binary with --bridge-watchdog (a checkout: electron and its folder; an AppImage: the AppImage file)', () => {
    const packaged = { isPackaged: true, getAppPath: () => '/opt/x/resources/app.asar' };
    expect(desktopWatchdogCommand(packaged, '/opt/x/xiaozhi-tray', {})).toEqual({
      command: '/opt/x/xiaozhi-tray',
      args: ['--bridge-watchdog'],
    });
    expect(desktopWatchdogCommand({ isPackaged: false, getAppPath: () => '/src/xt' }, '/node_modules/electron/dist/electron', {})).toEqual({
      command: '/node_modules/electron/dist/electron',
      args: ['/src/xt', '--bridge-watchdog'],
    });
    // The mount an AppImage runs from goes away with the app that mounted it.
    expect(desktopWatchdogCommand(packaged, '/tmp/.mount_xzAbc/xiaozhi-tray', { APPIMAGE: '/home/u/Xiaozhi.AppImage' })).toEqual({
      command: '/home/u/Xiaozhi.AppImage',
      args: ['--bridge-watchdog'],
    });
  });

  it.skipIf(process.platform === 'win32')(
    'kill -9 of the app: the watchdog it started (its own binary again, not stopped by the single-instance lock) stops every server tree, then exits',
    async () => {
      const { dir, exe } = packagedApp();
      const dataDir = path.join(dir, 'data');
      const pidFile = path.join(dir, 'pids');
      fs.mkdirSync(dataDir);
      const servers = ['a', 'b'].map((name) =>
        fixtureServer(name, { FIXTURE_GRANDCHILD: '1', FIXTURE_PID_FILE: pidFile, FIXTURE_TERM_FILE: path.join(dir, 'terms') }),
      );
      fs.writeFileSync(path.join(dataDir, 'settings.json'), JSON.stringify({ version: 1, servers, ui: { startHidden: true } }));
      const app = run(exe, [], { XIAOZHI_TRAY_DATA_DIR: dataDir });
      const log = () => fs.readFileSync(path.join(dataDir, 'logs', 'xiaozhi-tray.log'), 'utf8');
      await waitFor(
        () => fs.existsSync(pidFile) && fs.readFileSync(pidFile, 'utf8').trim().split('\n').length >= 4,
        30_000,
        `the servers to start\n${app.output()}`,
      );
      const servers4 = fs.readFileSync(pidFile, 'utf8').trim().split('\n').map(Number);
      pids.push(...servers4);
      await waitFor(() => /\[server:a\] running/.test(log()) && /\[server:b\] running/.test(log()), 30_000, 'both servers running');
      // The watchdog: the app's own binary again, a child of the app.
      const watchdogPid = () => {
        const found = fs
          .readdirSync('/proc')
          .filter((p) => /^\d+$/.test(p))
          .find((p) => {
            try {
              return (
                fs.readFileSync(`/proc/${p}/cmdline`, 'utf8').includes('--bridge-watchdog') &&
                fs.readFileSync(`/proc/${p}/stat`, 'utf8').split(') ')[1]?.split(' ')[1] === String(app.child.pid)
              );
            } catch {
              return false;
            }
          });
        return found === undefined ? undefined : Number(found);
      };
      await waitFor(() => watchdogPid() !== undefined, 15_000, `the watchdog to start\n${app.output()}`);
      const watchdog = watchdogPid() as number;
      pids.push(watchdog);
      app.child.kill('SIGKILL');
      await waitFor(() => !servers4.some(isRunning), 20_000, 'every server tree to be gone');
      await waitFor(() => !isRunning(watchdog), 10_000, 'the watchdog to exit');
      expect(log()).not.toMatch(/watchdog/);
    },
    90_000,
  );
});
