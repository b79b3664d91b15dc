import { Menu, type MenuItemConstructorOptions, nativeImage, Tray } from 'electron';

import type { Translate } from '../../shared/i18n/translate';
import type { BridgeState } from '../../shared/status';
import type { UpdateStatus } from '../../shared/updates';
import { trayIconPath, type TrayIconState, trayIconState, trayMenu, type TrayMenuItem, trayTooltip } from './tray-status';

export { trayIconPath };

export interface TrayActions {
  start(): void;
  stop(): void;
  open(): void;
  openLogs(): void;
  quit(): void;
  setLaunchAtLogin(enabled: boolean): void;
  /** Files dropped on the tray icon (macOS). */
  importFiles(paths: string[]): void;
  checkUpdates(): void;
  /** "Restart to update to x.y.z". */
  installUpdate(): void;
  /** Where a .deb user gets the new package. */
  openUpdatePage(): void;
}

export function toElectronMenu(items: TrayMenuItem[], actions: TrayActions): MenuItemConstructorOptions[] {
  return items.map((item): MenuItemConstructorOptions => {
    switch (item.kind) {
      case 'separator':
        return { type: 'separator' };
      case 'label':
        return { label: item.label, enabled: false };
      case 'checkbox':
        return {
          label: item.label,
          type: 'checkbox',
          checked: item.checked,
          enabled: item.enabled,
          click: (menuItem) => actions.setLaunchAtLogin(menuItem.checked),
        };
      case 'action':
        return { label: item.label, click: () => actions[item.id]() };
    }
  });
}

/** The tray icon: its image, tooltip and menu follow the bridge status (rebuilt on change, not on a timer). */
export class TrayController {
  private readonly tray: Tray;
  private lastIcon: TrayIconState | undefined;
  private lastTooltip = '';
  private lastMenu = '';
  private lastItems: TrayMenuItem[] = [];

  constructor(
    private readonly assetsDir: string,
    private readonly platform: NodeJS.Platform,
    private readonly actions: TrayActions,
    private translate: Translate,
    private readonly launchAtLogin: () => boolean | null,
    private readonly updateStatus: () => UpdateStatus | undefined = () => undefined,
  ) {
    this.tray = new Tray(this.image('stopped'));
    if (platform !== 'darwin') this.tray.on('click', () => actions.open());
    this.tray.on('drop-files', (_event, files: string[]) => actions.importFiles(files));
  }

  setTranslate(translate: Translate): void {
    this.translate = translate;
    this.lastMenu = '';
    this.lastTooltip = '';
  }

  update(state: BridgeState): void {
    const icon = trayIconState(state);
    if (icon !== this.lastIcon) {
      this.tray.setImage(this.image(icon));
      this.lastIcon = icon;
    }
    const tooltip = trayTooltip(state, this.translate);
    if (tooltip !== this.lastTooltip) {
      this.tray.setToolTip(tooltip);
      this.lastTooltip = tooltip;
    }
    const items = trayMenu(state, this.launchAtLogin(), this.translate, this.updateStatus());
    const key = JSON.stringify(items);
    if (key !== this.lastMenu) {
      this.tray.setContextMenu(Menu.buildFromTemplate(toElectronMenu(items, this.actions)));
      this.lastMenu = key;
      this.lastItems = items;
    }
  }

  /** What the tray shows now: its tooltip and menu (the end-to-end tests read it; Electron cannot). */
  shown(): { tooltip: string; menu: TrayMenuItem[] } {
    return { tooltip: this.lastTooltip, menu: this.lastItems };
  }

  destroy(): void {
    this.tray.destroy();
  }

  private image(state: TrayIconState) {
    const image = nativeImage.createFromPath(trayIconPath(this.assetsDir, state, this.platform));
    if (this.platform === 'darwin') image.setTemplateImage(true);
    return image;
  }
}
