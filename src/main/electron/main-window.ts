import { BrowserWindow, type BrowserWindowConstructorOptions, shell } from 'electron';

import { guardContents } from './content-guards';

/** The only web preferences our window ever gets: isolated, sandboxed, no Node. */
export function secureWebPreferences(preload: string): NonNullable<BrowserWindowConstructorOptions['webPreferences']> {
  return {
    preload,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    webviewTag: false,
    spellcheck: false,
  };
}

export interface MainWindowOptions {
  preload: string;
  /** The renderer's index.html on the app:// protocol. */
  pageUrl: string;
  icon?: string;
  show: boolean;
  /** While false, closing the window only hides it (the app lives on in the tray). */
  isQuitting: () => boolean;
  title: string;
  /** Page loads and failures, for the log (the smoke test reads it). */
  log?: (level: 'info' | 'error', message: string) => void;
}

export function createMainWindow(options: MainWindowOptions): BrowserWindow {
  const window = new BrowserWindow({
    width: 1100,
    height: 760,
    minWidth: 760,
    minHeight: 520,
    show: false,
    title: options.title,
    ...(options.icon ? { icon: options.icon } : {}),
    autoHideMenuBar: true,
    webPreferences: secureWebPreferences(options.preload),
  });
  // Never navigate away from our page; links to the web open in the user's browser.
  guardContents(window.webContents, options.pageUrl, (url) => void shell.openExternal(url));

  const log = options.log ?? (() => undefined);
  window.webContents.on('did-finish-load', () => log('info', `window: loaded ${options.pageUrl}`));
  window.webContents.on('did-fail-load', (_event, code, description, url) =>
    log('error', `window: could not load ${url} (${code} ${description})`),
  );
  window.webContents.on('render-process-gone', (_event, details) => log('error', `window: the page's process is gone (${details.reason})`));

  window.on('close', (event) => {
    if (!options.isQuitting()) {
      event.preventDefault();
      window.hide();
    }
  });
  window.once('ready-to-show', () => {
    if (options.show) window.show();
  });
  void window.loadURL(options.pageUrl);
  return window;
}

export function revealWindow(window: BrowserWindow): void {
  if (window.isMinimized()) window.restore();
  window.show();
  window.focus();
}
