// The desktop app's composition root: builds one Bridge and the shell around it.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { app, BrowserWindow, ipcMain, powerMonitor, safeStorage, shell } from 'electron';
import { Bridge } from './core/bridge';
import { LogBook, rotatingFileSink } from './core/logs/log-book';
import { mergePath, readLoginShellPath } from './core/servers/login-shell-path';
import { resolveLanguage, translator } from '../shared/i18n/translate';
import { ElectronSettingsStore } from './electron/electron-settings-store';
import { bindIpc, trustedSender } from './electron/ipc-bridge';
import { getLaunchAtLogin, HIDDEN_ARG, setLaunchAtLogin, type LoginItemContext } from './electron/login-item';
import { createMainWindow, revealWindow } from './electron/main-window';
import { installQuitHandling } from './electron/quit-handling';
import { configFilesIn } from './electron/launch-args';
import { secretCodec } from './electron/secret-codec';
import { TrayController } from './electron/tray-icon';

const APP_ROOT = app.getAppPath();
const ASSETS = path.join(APP_ROOT, 'assets');
const PRELOAD = path.join(APP_ROOT, 'out', 'preload', 'index.js');
const PAGE_URL = pathToFileURL(path.join(APP_ROOT, 'out', 'renderer', 'index.html')).toString();

if (!app.requestSingleInstanceLock()) {
  // Another instance runs: it gets our arguments (and shows its window); we leave.
  app.quit();
} else {
  void main();
}

async function main(): Promise<void> {
  app.setAppUserModelId('me.xiaozhi.tray');
  if (process.platform === 'darwin') app.dock?.hide();
  await app.whenReady();

  const dataDir = app.getPath('userData');
  const logsDir = path.join(dataDir, 'logs');
  const logBook = new LogBook({ sinks: [rotatingFileSink(logsDir)] });
  const log = logBook.logger('app');

  // A GUI app started at login has a poor PATH; ask the login shell once so npx/uvx are found.
  const env = { ...process.env };
  if (process.platform !== 'win32') env.PATH = mergePath(await readLoginShellPath(), process.env.PATH);

  const codec = secretCodec(safeStorage, process.platform);
  const store = new ElectronSettingsStore(dataDir, codec);
  if (store.recovered) log.error(`settings could not be read (${store.recovered.reason}); moved to ${store.recovered.movedTo}`);
  if (!codec.encrypted) log.warn(`secrets are stored unencrypted (${codec.storage})`);

  const loginContext: LoginItemContext = { app, platform: process.platform, execPath: process.execPath, env: process.env };
  const launchAtLogin = () => {
    try {
      return getLaunchAtLogin(loginContext);
    } catch {
      return null;
    }
  };

  let window: BrowserWindow | undefined;
  const bridge = new Bridge({
    store,
    logBook,
    env,
    version: app.getVersion(),
    // The local MCP server's state file goes here, where `xiaozhi-tray connect` looks for it.
    stateDir: dataDir,
    host: {
      info: () => ({
        carrier: 'electron',
        platform: process.platform,
        secretStorage: codec.storage,
        launchAtLogin: launchAtLogin(),
        ...(store.recovered ? { settingsRecovered: store.recovered } : {}),
        logsFolder: logsDir,
      }),
      setLaunchAtLogin: (enabled) => setLaunchAtLogin(loginContext, enabled),
      openLogsFolder: async () => {
        fs.mkdirSync(logsDir, { recursive: true });
        await shell.openPath(logsDir);
      },
      openExternal: (url) => shell.openExternal(url),
      // Claude Desktop starts this app's own binary as Node on the bundled CLI: `… connect`.
      connectCommand: () => ({ command: process.execPath, args: [path.join(APP_ROOT, 'out', 'cli', 'index.js')], env: { ELECTRON_RUN_AS_NODE: '1' } }),
    },
  });

  const quit = installQuitHandling({ app, stop: () => bridge.stop(), deadlineMs: 10_000 });
  const language = () => resolveLanguage(store.load().ui.language, app.getLocale());
  // macOS may drop login-item arguments; it says instead whether we were opened at login.
  const openedAtLogin = process.platform === 'darwin' && app.getLoginItemSettings().wasOpenedAtLogin === true;
  const startHidden = process.argv.includes(HIDDEN_ARG) || openedAtLogin || store.load().ui.startHidden;

  const showWindow = () => {
    if (!window || window.isDestroyed()) {
      window = createMainWindow({ preload: PRELOAD, pageUrl: PAGE_URL, icon: path.join(ASSETS, 'icon.png'), show: true, isQuitting: quit.isQuitting, title: translator(language())('app.name') });
      // Windows logs off / shuts down: stop the children before the OS kills us.
      window.on('session-end', () => void quit.quitNow());
    } else revealWindow(window);
  };
  // Files dropped on the tray or opened with the app: the window shows their import preview.
  const importFiles = (files: string[]) => {
    showWindow();
    for (const file of files) void bridge.offerImportFile(file);
  };

  bindIpc(ipcMain, bridge.api, trustedSender(() => window, PAGE_URL), () => window?.webContents);

  const tray = new TrayController(
    ASSETS,
    process.platform,
    {
      start: () => bridge.start(),
      stop: () => void bridge.stop(),
      open: showWindow,
      openLogs: () => void shell.openPath(logsDir),
      quit: () => app.quit(),
      setLaunchAtLogin: (enabled) => {
        setLaunchAtLogin(loginContext, enabled);
        tray.update(bridge.state());
      },
      importFiles,
    },
    translator(language()),
    launchAtLogin,
  );

  let trayLanguage = language();
  bridge.on('status', (state) => {
    // The language setting may have changed (settings changes come with a status event).
    if (language() !== trayLanguage) {
      trayLanguage = language();
      tray.setTranslate(translator(trayLanguage));
    }
    tray.update(state);
  });
  tray.update(bridge.state());

  app.on('second-instance', (_event, argv) => {
    showWindow();
    const files = configFilesIn(argv);
    if (files.length > 0) importFiles(files);
  });
  app.on('activate', showWindow);
  // The app lives in the tray: closing the last window is not quitting.
  app.on('window-all-closed', () => undefined);
  powerMonitor.on('shutdown', () => void quit.quitNow());

  bridge.start();
  const opened = configFilesIn(process.argv);
  if (opened.length > 0) importFiles(opened);
  // On Linux a panel without a tray would leave no way in; show the window unless asked not to.
  if (!startHidden) showWindow();
  log.info(`Xiaozhi Tray ${app.getVersion()} started (${process.platform})`);
}
