// The desktop app's composition root: builds one Bridge and the shell around it.
import fs from 'node:fs';
import path from 'node:path';

import { app, BrowserWindow, dialog, ipcMain, net, powerMonitor, protocol, safeStorage, session, shell } from 'electron';

import { type Language, resolveLanguage, translator } from '../shared/i18n/translate';
import type { UpdateStatus } from '../shared/updates';
import { Bridge } from './core/bridge/bridge';
import { RunningCopies } from './core/instances/running-copies';
import { LogBook, rotatingFileSink } from './core/logs/log-book';
import { mergePath, readLoginShellPath } from './core/servers/login-shell-path';
import { startServerWatchdog } from './core/servers/server-watchdog';
import { APP_ORIGIN, APP_SCHEME, appProtocolHandler, PAGE_URL, registerAppScheme } from './electron/app-protocol';
import { notifyConfirmations } from './electron/confirm-notifications';
import { connectModeArgs, desktopConnectCommand, runConnectMode } from './electron/connect-mode';
import { guardContents } from './electron/content-guards';
import { type CrashChoice, installCrashGuard } from './electron/crash-guard';
import { ElectronSettingsStore } from './electron/electron-settings-store';
import { bindIpc, trustedSender } from './electron/ipc-bridge';
import { configFilesIn } from './electron/launch-args';
import { getLaunchAtLogin, HIDDEN_ARG, type LoginItemContext, setLaunchAtLogin } from './electron/login-item';
import { createMainWindow, revealWindow } from './electron/main-window';
import { desktopOAuthVault } from './electron/oauth-vault';
import { choosePath } from './electron/path-picker';
import { lockPermissions } from './electron/permissions';
import { installQuitHandling, type QuitHandling } from './electron/quit-handling';
import { secretCodec } from './electron/secret-codec';
import { notifyFinishedTasks } from './electron/task-notifications';
import { TrayController } from './electron/tray-icon';
import { installKind, loadElectronUpdater, newCancellationToken } from './electron/updates/electron-updater-backend';
import { UpdateController } from './electron/updates/update-controller';
import { isSafeDownloadUrl } from './electron/updates/update-feed';
import { watchWake } from './electron/wake-watch';
import { desktopWatchdogCommand, isWatchdogLaunch, runWatchdogMode } from './electron/watchdog-mode';

const APP_ROOT = app.getAppPath();
const ASSETS = path.join(APP_ROOT, 'assets');
const PRELOAD = path.join(APP_ROOT, 'out', 'preload', 'index.js');
const RENDERER = path.join(APP_ROOT, 'out', 'renderer');
const QUIT_ARG = '--quit';

// The end-to-end tests and the smoke script run the app with a data folder of their own.
if (process.env.XIAOZHI_TRAY_DATA_DIR) app.setPath('userData', path.resolve(process.env.XIAOZHI_TRAY_DATA_DIR));
// Started by Claude Desktop as `<app> connect …`: a stdio relay to the running app, nothing else.
const connectArgs = connectModeArgs(process.argv, process.defaultApp === true);

if (isWatchdogLaunch(process.argv)) {
  // Started by the app itself: stops the servers' trees if the app is killed (watchdog-mode.ts).
  void runWatchdogMode(app, process.stdin);
} else if (connectArgs) {
  void runConnectMode(app, connectArgs, app.getPath('userData'));
} else if (!app.requestSingleInstanceLock()) {
  // Another instance runs: it gets our arguments (and shows its window, or quits for --quit); we leave.
  app.quit();
} else if (process.argv.includes(QUIT_ARG)) {
  // Asked to quit, and nothing runs.
  app.quit();
} else {
  // Before ready: app:// gets an origin of its own (the page never loads from file://).
  registerAppScheme(protocol);
  const dataDir = app.getPath('userData');
  const logsDir = path.join(dataDir, 'logs');
  const logBook = new LogBook({ sinks: [rotatingFileSink(logsDir)] });
  const runtime = { language: resolveLanguage(undefined, 'en') as Language, quit: undefined as QuitHandling | undefined };

  const showCrash = async (text: string, fatal: boolean): Promise<CrashChoice> => {
    await app.whenReady();
    const t = translator(runtime.language);
    const buttons = fatal ? [t('crash.quit')] : [t('crash.keepRunning'), t('crash.quit')];
    const { response } = await dialog.showMessageBox({
      type: 'error',
      title: t('app.name'),
      message: fatal ? t('crash.fatal') : t('crash.message'),
      detail: t('crash.detail', { error: text.split('\n').slice(0, 4).join('\n'), file: path.join(logsDir, 'xiaozhi-tray.log') }),
      buttons,
      defaultId: 0,
      cancelId: 0,
      noLink: true,
    });
    return fatal || response === 1 ? 'quit' : 'keep-running';
  };
  const crash = installCrashGuard({
    log: (message) => logBook.add('error', 'app', message).message,
    show: showCrash,
    // Every process tree is stopped first; before the bridge exists there is none.
    quit: async () => (runtime.quit ? runtime.quit.quitNow() : app.exit(1)),
    isQuitting: () => runtime.quit?.isQuitting() === true,
  });
  main(dataDir, logsDir, logBook, runtime).catch((error: unknown) => crash.report('start-up failed', error, true));
}

async function main(
  dataDir: string,
  logsDir: string,
  logBook: LogBook,
  shellState: { language: Language; quit: QuitHandling | undefined },
): Promise<void> {
  app.setAppUserModelId('me.xiaozhi.tray');
  if (process.platform === 'darwin') app.dock?.hide();
  shellState.language = resolveLanguage(undefined, app.getLocale());
  await app.whenReady();
  const log = logBook.logger('app');

  // Locked down before any page exists: our protocol, our page only, no permissions but the clipboard.
  protocol.handle(APP_SCHEME, appProtocolHandler(RENDERER));
  lockPermissions(session.defaultSession, APP_ORIGIN);
  app.on('web-contents-created', (_event, contents) => guardContents(contents, PAGE_URL, (url) => void shell.openExternal(url)));

  // A GUI app started at login has a poor PATH; ask the login shell once so npx/uvx are found.
  const env = { ...process.env };
  if (process.platform !== 'win32') env.PATH = mergePath(await readLoginShellPath(), process.env.PATH);

  const codec = secretCodec(safeStorage, process.platform);
  const store = new ElectronSettingsStore(dataDir, codec);
  if (store.recovered) log.error(`settings could not be read (${store.recovered.reason}); moved to ${store.recovered.movedTo}`);
  if (!codec.encrypted) log.warn(`secrets are stored unencrypted (${codec.storage})`);
  const language = () => resolveLanguage(store.load().ui.language, app.getLocale());
  shellState.language = language();

  const loginContext: LoginItemContext = { app, platform: process.platform, execPath: process.execPath, env: process.env };
  const launchAtLogin = () => {
    try {
      return getLaunchAtLogin(loginContext);
    } catch {
      return null;
    }
  };

  const kind = installKind({
    isPackaged: app.isPackaged,
    platform: process.platform,
    resourcesPath: process.resourcesPath,
    env: process.env,
  });
  const updateLog = logBook.logger('updates');
  const updates = new UpdateController({
    backend: kind.updatable ? await loadElectronUpdater(updateLog) : undefined,
    manualInstall: kind.manualInstall,
    currentVersion: app.getVersion(),
    settings: () => store.load().updates,
    log: updateLog,
    isQuitting: () => quit.isQuitting(),
    prepareQuit: () => quit.stopBeforeQuit(),
    newCancellation: newCancellationToken,
  });

  let window: BrowserWindow | undefined;
  const bridge = new Bridge({
    store,
    logBook,
    env,
    // One rule for the tray, the window and what xiaozhi hears: the settings' language, else Electron's locale.
    locale: app.getLocale(),
    version: app.getVersion(),
    cacheDir: path.join(dataDir, 'Cache'),
    // Node.js and uv for servers whose runtime the user lacks: the desktop app fetches them itself.
    runtimesDir: path.join(dataDir, 'runtimes'),
    // The local MCP server's state file goes here, where `xiaozhi-tray connect` looks for it.
    stateDir: dataDir,
    // Which endpoints this app serves, where a headless run with the same folder looks (and the other way round).
    copies: new RunningCopies(dataDir, { kind: 'desktop' }),
    // Remote servers' sign-ins, sealed with the OS keychain.
    oauthVault: desktopOAuthVault(dataDir),
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
      updates: {
        status: () => updates.status(),
        check: () => updates.check(true),
        install: () => updates.install(),
        subscribe: (listener) => updates.subscribe(listener),
      },
      openExternal: (url) => shell.openExternal(url),
      choosePath: (request) => choosePath(window && !window.isDestroyed() ? window : undefined, request),
      // Claude Desktop starts this app's own binary in its connect mode: `<app> connect`.
      connectCommand: () => desktopConnectCommand(app, process.execPath),
    },
  });

  // Whatever quit handling cannot catch (kill -9, a crash of the process), the watchdog does.
  const watchdog = startServerWatchdog(bridge, desktopWatchdogCommand(app, app.getPath('exe'), process.env), log);
  const stopBridge = async () => {
    await bridge.stop();
    watchdog.close();
  };
  const quit = installQuitHandling({ app, stop: stopBridge, deadlineMs: 10_000, onQuitting: () => updates.stop() });
  shellState.quit = quit;
  // macOS may drop login-item arguments; it says instead whether we were opened at login.
  const openedAtLogin = process.platform === 'darwin' && app.getLoginItemSettings().wasOpenedAtLogin === true;
  const startHidden = process.argv.includes(HIDDEN_ARG) || openedAtLogin || store.load().ui.startHidden;

  const showWindow = () => {
    if (!window || window.isDestroyed()) {
      window = createMainWindow({
        preload: PRELOAD,
        pageUrl: PAGE_URL,
        icon: path.join(ASSETS, 'icon.png'),
        show: true,
        isQuitting: quit.isQuitting,
        title: translator(language())('app.name'),
        log: (level, message) => log[level](message),
      });
      // Windows logs off / shuts down: stop the children before the OS kills us.
      window.on('session-end', () => void quit.quitNow());
    } else revealWindow(window);
  };
  // A long call that finished in the background: said on the desktop with its result.
  notifyFinishedTasks(bridge.api, () => translator(language()), showWindow);
  // A call by voice waiting for the user's OK: said on the desktop; a click opens the window on its Allow / Deny.
  notifyConfirmations(bridge.api, () => translator(language()), showWindow);
  // Files dropped on the tray or opened with the app: the window shows their import preview.
  const importFiles = (files: string[]) => {
    showWindow();
    for (const file of files) void bridge.offerImportFile(file);
  };

  bindIpc(
    ipcMain,
    bridge.api,
    trustedSender(() => window, `${APP_ORIGIN}/`),
    () => window?.webContents,
  );

  const openUpdatePage = (status: UpdateStatus) => {
    // The link comes from the feed: only https (or http on this machine) is opened.
    if (status.downloadUrl && isSafeDownloadUrl(status.downloadUrl)) void shell.openExternal(status.downloadUrl);
  };
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
      checkUpdates: () => void updates.check(true),
      installUpdate: () => void updates.install().catch((error: unknown) => updateLog.error(String(error))),
      openUpdatePage: () => openUpdatePage(updates.status()),
    },
    translator(language()),
    launchAtLogin,
    () => updates.status(),
  );

  let trayLanguage = language();
  let updateSettings = JSON.stringify(store.load().updates);
  bridge.on('status', (state) => {
    // Settings changes come with a status event: the language, and the update switch and mirror.
    if (language() !== trayLanguage) {
      trayLanguage = language();
      shellState.language = trayLanguage;
      tray.setTranslate(translator(trayLanguage));
    }
    const nextUpdates = JSON.stringify(store.load().updates);
    if (nextUpdates !== updateSettings) {
      updateSettings = nextUpdates;
      updates.settingsChanged();
    }
    tray.update(state);
  });
  updates.subscribe(() => tray.update(bridge.state()));
  tray.update(bridge.state());
  // The end-to-end tests read the tray through this (Electron has no API that lists trays).
  if (process.env.XIAOZHI_TRAY_E2E === '1') Object.assign(globalThis, { xiaozhiTrayE2E: { tray: () => tray.shown() } });

  app.on('second-instance', (_event, argv) => {
    // `xiaozhi-tray --quit` asks the running app to quit cleanly (the smoke script, scripts, Windows).
    if (argv.includes(QUIT_ARG)) {
      log.info('asked to quit by a second launch');
      app.quit();
      return;
    }
    showWindow();
    const files = configFilesIn(argv);
    if (files.length > 0) importFiles(files);
  });
  app.on('activate', showWindow);
  // The app lives in the tray: closing the last window is not quitting.
  app.on('window-all-closed', () => undefined);
  powerMonitor.on('shutdown', () => void quit.quitNow());
  watchWake({ powerMonitor, isOnline: () => net.isOnline() }, () => bridge.wake());

  bridge.start();
  updates.start();
  const opened = configFilesIn(process.argv);
  if (opened.length > 0) importFiles(opened);
  // On Linux a panel without a tray would leave no way in; show the window unless asked not to.
  if (!startHidden) showWindow();
  log.info(`Xiaozhi Tray ${app.getVersion()} started (${process.platform})`);
}
