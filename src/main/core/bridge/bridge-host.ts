import type { HostInfo } from '../../../shared/host';
import type { PathValueKind } from '../../../shared/path-values';
import type { ToolMode } from '../../../shared/settings';
import type { UpdateStatus } from '../../../shared/updates';
import type { SettingsStore } from '../config/settings-store';
import type { RunningCopies } from '../instances/running-copies';
import type { ConnectCommand } from '../local-server/client-entries';
import type { LocalServerOverrides } from '../local-server/local-server-controller';
import type { LogBook } from '../logs/log-book';
import type { TokenVault } from '../oauth/token-vault';
import type { RuntimePins } from '../runtimes/runtime-pins';
import type { Supervision } from '../servers/child-server';

/** What the hosting process (the desktop app, the CLI, a test) hands its one `Bridge`. */
export interface BridgeOptions {
  host?: BridgeHost;
  /**
   * Where the person can read the confirmation PIN the app made (what the model tells them until it
   * has been shown): the desktop window (default), the headless web page (`run --ui`), or, with no
   * page at all, the config file.
   */
  pinShownIn?: 'window' | 'webPage' | 'configFile';
  store: SettingsStore;
  logBook: LogBook;
  /** The environment stdio servers start from. */
  env?: NodeJS.ProcessEnv;
  /** The system's language where the environment does not tell it (the desktop app: Electron's locale). */
  locale?: string;
  supervision?: Partial<Supervision>;
  version?: string;
  /** Catalog changes within this window become one `list_changed`. */
  listChangedDebounceMs?: number;
  /** Where the MCP registry's list is cached (the app's data folder); none: memory only. */
  cacheDir?: string;
  /** The MCP registry to read the catalogue from (default: the official one; env XIAOZHI_TRAY_REGISTRY_URL). */
  registryUrl?: string;
  /** How long "Test connection" waits for xiaozhi to ask for the tools. */
  testListWaitMs?: number;
  /** Serves every endpoint in this mode, whatever its settings say (`run --tool-mode`); not saved. */
  toolMode?: ToolMode;
  /** The mode of an endpoint whose settings name none (default `auto`; tests written for `all` ask for it). */
  defaultToolMode?: ToolMode;
  /**
   * Lists the tools only an endpoint is served (task_status, cancel_task) even with no endpoint
   * configured: `tools` shows what an endpoint gets without connecting one.
   */
  listEndpointTools?: boolean;
  /** This run's local MCP server flags (`run --mcp-port N --mcp-token-file FILE`); never saved. */
  localServer?: LocalServerOverrides;
  /**
   * Where Node.js and uv are kept for servers whose runtime the user lacks (the desktop app's data
   * folder; headless with `--fetch-runtimes`). None: such a server fails, saying how to install it.
   */
  runtimesDir?: string;
  /**
   * When runtimes are fetched into `runtimesDir`: as a server that needs one starts (default), or only
   * when the window asks (a headless run with its web page, without --fetch-runtimes).
   */
  runtimesFetch?: 'onStart' | 'onRequest';
  /** A download of a runtime that sends (almost) nothing this long is dropped (tests). */
  runtimeIdleTimeoutMs?: number;
  /** The SHA-256s runtime archives must have, in place of the app's own: a test's stand-ins'. */
  runtimePins?: RuntimePins;
  /** Where the local server's state file goes (for `connect`); null for none. Defaults to the app's folder. */
  stateDir?: string | null;
  /** How long a call held for confirmation waits (default a minute); tests shorten it. */
  confirmWindowMs?: number;
  /** The config file's folder: a relative path in it (an OpenAPI document) is read from there. */
  configDir?: string;
  /**
   * Where remote servers' sign-ins (OAuth tokens) are kept: the desktop app's sealed file. Default:
   * a 0600 file in the state folder (memory only when `stateDir` is null).
   */
  oauthVault?: TokenVault;
  /** How long a sign-in waits for the browser to come back (tests shorten it). */
  signInTimeoutMs?: number;
  /**
   * The copies of the app running with this state folder (the desktop app, `run`): this one says
   * which endpoints it serves, and hears of the others'. None: the commands that only look (`tools`), tests.
   */
  copies?: RunningCopies;
}

/** What the hosting process adds: the desktop shell's login item and folders, or nothing headless. */
export interface BridgeHost {
  info(): Omit<HostInfo, 'version' | 'readOnlyConfig'>;
  setLaunchAtLogin?(enabled: boolean): Promise<void> | void;
  openLogsFolder?(): Promise<void> | void;
  /** Opens a link in its app (Cherry Studio's install link); the desktop shell only. */
  openExternal?(url: string): Promise<void> | void;
  /** The system's folder or file picker over the window (the desktop shell only); null when cancelled. */
  choosePath?(request: PathRequest): Promise<string | null>;
  /** How a stdio-only client starts `xiaozhi-tray connect` with this install. */
  connectCommand?(): ConnectCommand;
  /** The desktop app's updater; the headless bridge has none. */
  updates?: UpdatesHost;
}

/** What the window asks the picker for: a folder, a file (which may be new) or either; its title; where it opens. */
export interface PathRequest {
  kind: PathValueKind;
  title: string;
  from?: string;
}

export interface UpdatesHost {
  status(): UpdateStatus;
  check(): Promise<UpdateStatus>;
  install(): Promise<void>;
  /** Returns the unsubscribe function. */
  subscribe(listener: (status: UpdateStatus) => void): () => void;
}

export const headlessHost: BridgeHost = {
  info: () => ({ carrier: 'web', platform: process.platform, secretStorage: 'config-file', launchAtLogin: null }),
};
