import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** The part of Electron's `app` that login items need (a seam for tests). */
export interface LoginItemApp {
  getLoginItemSettings(options?: { path?: string; args?: string[] }): { openAtLogin: boolean };
  setLoginItemSettings(settings: { openAtLogin: boolean; path?: string; args?: string[] }): void;
}

export interface LoginItemContext {
  app: LoginItemApp;
  platform: NodeJS.Platform;
  execPath: string;
  env: NodeJS.ProcessEnv;
  homeDir?: string;
}

/** Started at login, the app goes straight to the tray. */
export const HIDDEN_ARG = '--hidden';
const DESKTOP_FILE = 'xiaozhi-tray.desktop';

function autostartFile(context: LoginItemContext): string {
  const configHome = context.env.XDG_CONFIG_HOME || path.join(context.homeDir ?? os.homedir(), '.config');
  return path.join(configHome, 'autostart', DESKTOP_FILE);
}

/** An AppImage runs from a temporary mount; autostart must point at the AppImage file itself. */
function linuxExecutable(context: LoginItemContext): string {
  return context.env.APPIMAGE || context.execPath;
}

const quoteExec = (value: string) => (/[\s"'\\$`]/.test(value) ? `"${value.replace(/(["\\$`])/g, '\\$1')}"` : value);

export function autostartEntry(executable: string): string {
  return [
    '[Desktop Entry]',
    'Type=Application',
    'Name=Xiaozhi Tray',
    'Name[zh_CN]=小智托盘',
    'Comment=Serve your MCP tools to the xiaozhi voice assistant',
    `Exec=${quoteExec(executable)} ${HIDDEN_ARG}`,
    'Icon=xiaozhi-tray',
    'Terminal=false',
    'X-GNOME-Autostart-enabled=true',
    '',
  ].join('\n');
}

/** Reads the real OS state, so the menu checkbox never lies. */
export function getLaunchAtLogin(context: LoginItemContext): boolean {
  if (context.platform === 'linux') {
    const file = autostartFile(context);
    if (!fs.existsSync(file)) return false;
    const text = fs.readFileSync(file, 'utf8');
    return !/^Hidden\s*=\s*true/im.test(text) && !/^X-GNOME-Autostart-enabled\s*=\s*false/im.test(text);
  }
  if (context.platform === 'win32') {
    return context.app.getLoginItemSettings({ path: context.execPath, args: [HIDDEN_ARG] }).openAtLogin;
  }
  return context.app.getLoginItemSettings({ args: [HIDDEN_ARG] }).openAtLogin;
}

export function setLaunchAtLogin(context: LoginItemContext, enabled: boolean): void {
  if (context.platform === 'linux') {
    const file = autostartFile(context);
    if (enabled) {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, autostartEntry(linuxExecutable(context)));
    } else {
      fs.rmSync(file, { force: true });
    }
    return;
  }
  if (context.platform === 'win32') {
    context.app.setLoginItemSettings({ openAtLogin: enabled, path: context.execPath, args: [HIDDEN_ARG] });
    return;
  }
  context.app.setLoginItemSettings({ openAtLogin: enabled, args: [HIDDEN_ARG] });
}
