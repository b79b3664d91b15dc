import type { hostCommands } from '../../../../shared/bridge-api';
import type { HostInfo } from '../../../../shared/host';
import type { SettingsStore } from '../../config/settings-store';
import { APP_VERSION } from '../../system/version';
import type { BridgeHost } from '../bridge-host';
import type { CommandHandlers } from './command-handlers';

/** What the host commands need of the bridge. */
export interface HostCommandContext {
  host: BridgeHost;
  /** Another program's config file, run read-only: the window says so. */
  store: Pick<SettingsStore, 'readOnly'>;
  version?: string;
  /** Whether Node.js and uv are here, the app's, to be fetched, or missing. */
  runtimes(): NonNullable<HostInfo['runtimes']>;
  /** Whether the window may ask for a runtime to be downloaded (the bridge has a folder for them). */
  runtimeDownload: boolean;
  /** The system's language and the download sources it decides until the user chooses. */
  place(): Pick<HostInfo, 'systemLocale' | 'unchosenMirrors'>;
  /** The login item is part of the state: the window hears of the change. */
  onStatus(): void;
}

/** What the hosting process adds (login item, logs folder) and its updater; the headless bridge has neither. */
export function hostCommandHandlers(c: HostCommandContext): CommandHandlers<typeof hostCommands> {
  return {
    getHostInfo: async () => {
      const readOnly = c.store.readOnly;
      return {
        ...c.host.info(),
        version: c.version ?? APP_VERSION,
        ...(readOnly ? { readOnlyConfig: readOnly } : {}),
        runtimes: c.runtimes(),
        runtimeDownload: c.runtimeDownload,
        pathPicker: c.host.choosePath !== undefined,
        ...c.place(),
      };
    },
    setLaunchAtLogin: async (input) => {
      if (!c.host.setLaunchAtLogin) throw new Error('Launching at login is managed by the desktop app only.');
      await c.host.setLaunchAtLogin(input.enabled);
      c.onStatus();
    },
    openLogsFolder: async () => {
      if (!c.host.openLogsFolder) throw new Error('There is no logs folder to open here.');
      await c.host.openLogsFolder();
    },
    choosePath: async (input) => {
      // The headless web page has no picker: the person types the path there.
      if (!c.host.choosePath) throw new Error('Choosing a folder or file here is done by the desktop app only.');
      const from = input.from?.trim();
      return { path: await c.host.choosePath({ kind: input.kind, title: input.title, ...(from ? { from } : {}) }) };
    },
    getUpdateStatus: async () => c.host.updates?.status() ?? { state: 'unsupported', currentVersion: c.version ?? APP_VERSION },
    checkForUpdates: async () => {
      if (!c.host.updates) throw new Error('Updates are managed by the desktop app only.');
      return c.host.updates.check();
    },
    installUpdate: async () => {
      if (!c.host.updates) throw new Error('Updates are managed by the desktop app only.');
      await c.host.updates.install();
    },
  };
}
