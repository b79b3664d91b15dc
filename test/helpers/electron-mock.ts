import { EventEmitter } from 'node:events';

import { vi } from 'vitest';

/**
 * A stand-in for the parts of Electron our shell uses. Electron itself cannot run here; these
 * fakes record what the shell asked of it so tests can check the shell's decisions.
 */
export class FakeTray extends EventEmitter {
  static instances: FakeTray[] = [];
  image: unknown;
  tooltip = '';
  menu: unknown;
  menuBuilds = 0;
  destroyed = false;
  constructor(image: unknown) {
    super();
    this.image = image;
    FakeTray.instances.push(this);
  }
  setImage(image: unknown) {
    this.image = image;
  }
  setToolTip(text: string) {
    this.tooltip = text;
  }
  setContextMenu(menu: unknown) {
    this.menu = menu;
    this.menuBuilds++;
  }
  destroy() {
    this.destroyed = true;
  }
}

export class FakeWebContents extends EventEmitter {
  windowOpenHandler: ((details: { url: string }) => { action: string }) | undefined;
  mainFrame = { url: '' };
  sent: { channel: string; payload: unknown }[] = [];
  setWindowOpenHandler(handler: (details: { url: string }) => { action: string }) {
    this.windowOpenHandler = handler;
  }
  isDestroyed() {
    return false;
  }
  send(channel: string, payload: unknown) {
    this.sent.push({ channel, payload });
  }
}

export class FakeBrowserWindow extends EventEmitter {
  static instances: FakeBrowserWindow[] = [];
  webContents = new FakeWebContents();
  loadedUrl = '';
  visible = false;
  constructor(readonly options: Record<string, unknown>) {
    super();
    FakeBrowserWindow.instances.push(this);
  }
  loadURL(url: string) {
    this.loadedUrl = url;
    this.webContents.mainFrame.url = url;
    return Promise.resolve();
  }
  /** How many times it was brought to the front. */
  focused = 0;
  show() {
    this.visible = true;
  }
  hide() {
    this.visible = false;
  }
  focus() {
    this.focused++;
  }
  isMinimized() {
    return false;
  }
  restore() {}
  isDestroyed() {
    return false;
  }
}

/** Electron's app as quitting sees it: quit() asks before-quit, which may prevent it; exit() records the code. */
export class FakeQuittingApp extends EventEmitter {
  exitCode: number | undefined;
  quit = () => {
    const event = {
      defaultPrevented: false,
      preventDefault() {
        this.defaultPrevented = true;
      },
    };
    this.emit('before-quit', event);
    if (!event.defaultPrevented) this.exit(0);
  };
  exit = (code = 0) => {
    this.exitCode = code;
  };
}

/** A session that records the permission handlers the shell installs. */
export class FakeSession {
  requestHandler:
    | ((
        contents: unknown,
        permission: string,
        callback: (granted: boolean) => void,
        details: { requestingUrl: string; isMainFrame: boolean },
      ) => void)
    | null = null;
  checkHandler: ((contents: unknown, permission: string, origin: string, details: unknown) => boolean) | null = null;
  setPermissionRequestHandler(handler: FakeSession['requestHandler']) {
    this.requestHandler = handler;
  }
  setPermissionCheckHandler(handler: FakeSession['checkHandler']) {
    this.checkHandler = handler;
  }
}

/** A desktop notification: what was shown, and a click to play. */
export class FakeNotification extends EventEmitter {
  static shown: FakeNotification[] = [];
  static isSupported(): boolean {
    return true;
  }
  constructor(readonly options: { title?: string; body?: string }) {
    super();
  }
  closed = false;
  show() {
    FakeNotification.shown.push(this);
  }
  close() {
    this.closed = true;
  }
}

/** Electron's protocol module: what was registered, and the handler for app:// requests. */
export const fakeProtocol = {
  privileged: [] as { scheme: string; privileges: Record<string, boolean> }[],
  handlers: new Map<string, (request: Request) => Promise<Response> | Response>(),
  registerSchemesAsPrivileged(schemes: { scheme: string; privileges: Record<string, boolean> }[]) {
    this.privileged.push(...schemes);
  },
  handle(scheme: string, handler: (request: Request) => Promise<Response> | Response) {
    this.handlers.set(scheme, handler);
  },
};

export const electronMock = {
  Tray: FakeTray,
  Notification: FakeNotification,
  BrowserWindow: FakeBrowserWindow,
  Menu: { buildFromTemplate: (template: unknown[]) => ({ template }) },
  nativeImage: {
    createFromPath: (p: string) => ({
      path: p,
      template: false,
      setTemplateImage(this: { template: boolean }, v: boolean) {
        this.template = v;
      },
    }),
  },
  shell: { openExternal: vi.fn(async () => undefined), openPath: vi.fn(async () => '') },
  app: undefined,
  ipcMain: undefined,
  contextBridge: { exposeInMainWorld: vi.fn() },
  ipcRenderer: Object.assign(new EventEmitter(), { invoke: vi.fn(async () => undefined) }),
  protocol: fakeProtocol,
  session: { defaultSession: new FakeSession() },
  dialog: { showMessageBox: vi.fn(async () => ({ response: 0, checkboxChecked: false })), showErrorBox: vi.fn() },
};

/** The module shape: named exports plus the default export electron-store imports. */
export const electronModule = { ...electronMock, default: electronMock };

/** A reversible stand-in for the OS keychain, so tests can see that secrets are not stored in clear. */
export const fakeSafeStorage = (available = true, backend = 'gnome_libsecret') => ({
  isEncryptionAvailable: () => available,
  getSelectedStorageBackend: () => backend,
  encryptString: (s: string) => Buffer.from(s.split('').reverse().join(''), 'utf8'),
  decryptString: (b: Buffer) => b.toString('utf8').split('').reverse().join(''),
});
