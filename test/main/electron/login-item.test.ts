import fs from 'node:fs';
import path from 'node:path';

import { describe, expect, it } from 'vitest';

import { autostartEntry, getLaunchAtLogin, type LoginItemApp, setLaunchAtLogin } from '../../../src/main/electron/login-item';
import { tempDirs } from '../../helpers/temp-dirs';

const tempDir = tempDirs('xt-login-');

/** A Linux desktop with its own empty folder, as home (homeDir) or as XDG_CONFIG_HOME (env). */
function linuxDesktop(execPath: string, where: (dir: string) => { env: Record<string, string>; homeDir?: string }) {
  const dir = tempDir();
  return { dir, context: { app: fakeLoginApp(), platform: 'linux' as const, execPath, ...where(dir) } };
}

/** Behaves like the OS: an item is found only when asked with the same path and arguments. */
function fakeLoginApp(): LoginItemApp & { items: Map<string, boolean> } {
  const items = new Map<string, boolean>();
  const key = (o: { path?: string; args?: string[] }) => `${o.path ?? ''}|${(o.args ?? []).join(' ')}`;
  return {
    items,
    getLoginItemSettings: (o = {}) => ({ openAtLogin: items.get(key(o)) === true }),
    setLoginItemSettings: (s) => void items.set(key(s), s.openAtLogin),
  };
}

describe('launch at login', () => {
  it('writes and removes an XDG autostart entry on Linux, pointing at the AppImage', () => {
    const { dir: home, context } = linuxDesktop('/tmp/.mount_x/xiaozhi-tray', (homeDir) => ({
      env: { APPIMAGE: '/home/u/Apps/Xiaozhi Tray.AppImage' },
      homeDir,
    }));
    expect(getLaunchAtLogin(context)).toBe(false);
    setLaunchAtLogin(context, true);
    const file = path.join(home, '.config/autostart/xiaozhi-tray.desktop');
    const text = fs.readFileSync(file, 'utf8');
    expect(text).toContain('Exec="/home/u/Apps/Xiaozhi Tray.AppImage" --hidden');
    expect(text).toContain('Name[zh_CN]=小智托盘');
    expect(getLaunchAtLogin(context)).toBe(true);
    setLaunchAtLogin(context, false);
    expect(fs.existsSync(file)).toBe(false);
    expect(getLaunchAtLogin(context)).toBe(false);
  });

  it('honours XDG_CONFIG_HOME and a user who disabled the entry', () => {
    const { dir: config, context } = linuxDesktop('/opt/xiaozhi-tray/xiaozhi-tray', (dir) => ({ env: { XDG_CONFIG_HOME: dir } }));
    setLaunchAtLogin(context, true);
    const file = path.join(config, 'autostart/xiaozhi-tray.desktop');
    expect(fs.readFileSync(file, 'utf8')).toContain('Exec=/opt/xiaozhi-tray/xiaozhi-tray --hidden');
    fs.appendFileSync(file, 'Hidden=true\n');
    expect(getLaunchAtLogin(context)).toBe(false);
  });

  it('uses the login item with --hidden on Windows and macOS, read back with the same arguments', () => {
    for (const platform of ['win32', 'darwin'] as const) {
      const app = fakeLoginApp();
      const context = { app, platform, execPath: 'C:\\Apps\\Xiaozhi Tray.exe', env: {} };
      setLaunchAtLogin(context, true);
      expect(getLaunchAtLogin(context)).toBe(true);
      expect([...app.items.keys()][0]).toContain('--hidden');
      setLaunchAtLogin(context, false);
      expect(getLaunchAtLogin(context)).toBe(false);
    }
  });

  it('quotes executables with spaces', () => {
    expect(autostartEntry('/a b/c')).toContain('Exec="/a b/c" --hidden');
  });
});

describe('config files on the command line', () => {
  it('offers existing config files named on a second launch, and nothing else', async () => {
    const { configFilesIn } = await import('../../../src/main/electron/launch-args');
    const present = new Set(['/home/u/claude_desktop_config.json', '/home/u/config.toml']);
    const argv = [
      '/opt/xiaozhi-tray/xiaozhi-tray',
      '--hidden',
      '/home/u/claude_desktop_config.json',
      '/home/u/missing.json',
      '/home/u/notes.txt',
      '/home/u/config.toml',
    ];
    expect(configFilesIn(argv, (f) => present.has(f))).toEqual(['/home/u/claude_desktop_config.json', '/home/u/config.toml']);
  });
});
