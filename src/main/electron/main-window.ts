import { BrowserWindow, shell, type BrowserWindowConstructorOptions } from 'electron';

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
  /** file:// URL of the renderer's index.html */
  pageUrl: string;
  icon?: string;
  show: boolean;
  /** While false, closing the window only hides it (the app lives on in the tray). */
  isQuitting: () => boolean;
  title: string;
}

const isExternal = (url: string) => /^https?:\/\//i.test(url);

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
  const contents = window.webContents;

  // Never navigate away from our page; links to the web open in the user's browser.
  contents.on('will-navigate', (event, url) => {
    if (url !== options.pageUrl) {
      event.preventDefault();
      if (isExternal(url)) void shell.openExternal(url);
    }
  });
  contents.setWindowOpenHandler(({ url }) => {
    if (isExternal(url)) void shell.openExternal(url);
    return { action: 'deny' };
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());

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
