import { countOf } from '../../shared/count-words';
import { bridgeCommands, type BridgeApi, type CommandName, type EventName, type EventPayload } from '../../shared/bridge-api';
import { SettingsSchema, type ServerSettings, type Settings, type ToolMode } from '../../shared/settings';
import type { BridgeState, EndpointStatus } from '../../shared/status';
import type { HostInfo } from '../../shared/host';
import type { UpdateStatus } from '../../shared/updates';
import { firstIssue } from '../../shared/zod-issue';
import { forbiddenKeyPaths, formatKeyPath } from '../../shared/forbidden-keys';
import { redactProblem, secretValues } from './bridge-secrets';
import type { SettingsStore } from './config/settings-store';
import { EndpointLink } from './endpoint/endpoint-link';
import { ToolHub } from './hub/tool-hub';
import { failureCause } from './servers/failure-cause';
import { CallHistory } from './logs/call-history';
import type { LogBook, Logger } from './logs/log-book';
import { ChildServer, type Supervision } from './servers/child-server';
import { ImportSessions } from './import/import-sessions';
import { StartGrace } from './servers/start-grace';
import { CatalogueService } from './catalogue/catalogue-service';
import { EndpointCatalogs, type EndpointMode } from './router/endpoint-catalogs';
import { LocalServerController, type LocalServerOverrides } from './local-server/local-server-controller';
import { appStateDir } from './local-server/state-file';
import type { ConnectCommand } from './local-server/client-entries';
import { isOwnEntry } from './local-server/own-entry';
import { bridgeCommandHandlers, type BridgeInternals } from './bridge-commands';
import { APP_VERSION } from './version';

/** What the hosting process adds: the desktop shell's login item and folders, or nothing headless. */
export interface BridgeHost {
  info(): Omit<HostInfo, 'version' | 'readOnlyConfig'>;
  setLaunchAtLogin?(enabled: boolean): Promise<void> | void;
  openLogsFolder?(): Promise<void> | void;
  /** Opens a link in its app (Cherry Studio's install link); the desktop shell only. */
  openExternal?(url: string): Promise<void> | void;
  /** How a stdio-only client starts `xiaozhi-tray connect` with this install. */
  connectCommand?(): ConnectCommand;
  /** The desktop app's updater; the headless bridge has none. */
  updates?: UpdatesHost;
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

export interface BridgeOptions {
  host?: BridgeHost;
  store: SettingsStore;
  logBook: LogBook;
  /** The environment stdio servers start from. */
  env?: NodeJS.ProcessEnv;
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
  /** This run's local MCP server flags (`run --mcp-port N --mcp-token-file FILE`); never saved. */
  localServer?: LocalServerOverrides;
  /** Where the local server's state file goes (for `connect`); null for none. Defaults to the app's folder. */
  stateDir?: string | null;
}

type Listener = (payload: never) => void;

/**
 * The engine: owns the settings, the child servers, the tool hub and the endpoint links, and
 * implements the `BridgeApi` contract that every UI talks to. One per process.
 */
export class Bridge {
  readonly api: BridgeApi;
  private settings: Settings;
  private modes: { settings: Settings | undefined; byId: Map<string, EndpointMode> } = { settings: undefined, byId: new Map() };
  private readonly store: SettingsStore;
  private readonly logBook: LogBook;
  private readonly log: Logger;
  private readonly history: CallHistory;
  private readonly hub: ToolHub;
  private readonly catalogs: EndpointCatalogs;
  private readonly servers = new Map<string, ChildServer>();
  private readonly links = new Map<string, EndpointLink>();
  private readonly listeners = new Map<EventName, Set<Listener>>();
  private running = false;
  private statusQueued = false;
  private listChangedTimer: NodeJS.Timeout | undefined;
  private serverStarts = new Map<string, Promise<void>>();
  private replacing: Promise<void> = Promise.resolve();
  /** Endpoints already warned of being past their tool budget. */
  private readonly overBudget = new Set<string>();
  private readonly startGrace = new StartGrace(() => this.settings.limits.startGraceMs);
  private unsubscribeHistory: (() => void) | undefined;
  private readonly imports: ImportSessions;
  private readonly host: BridgeHost;
  private readonly catalogue: CatalogueService;
  private readonly localServer: LocalServerController;

  constructor(private readonly options: BridgeOptions) {
    this.store = options.store;
    this.host = options.host ?? headlessHost;
    // The environment a file's ${env:…} may be filled from (when the user confirms it).
    this.imports = new ImportSessions(options.env ?? process.env);
    this.logBook = options.logBook;
    this.log = options.logBook.logger('app');
    this.settings = SettingsSchema.parse(options.store.load());
    this.history = new CallHistory(1000, (text) => this.logBook.redact(text));
    this.hub = new ToolHub(() => this.servers.values(), this.hubSettings(), this.history, this.log);
    this.hub.onChange(() => this.onCatalogChanged());
    this.catalogs = new EndpointCatalogs({
      hub: this.hub,
      history: this.history,
      mode: (id) => this.endpointMode(id),
      maxMessageBytes: () => this.settings.limits.maxMessageBytes,
    });
    this.localServer = new LocalServerController({
      hub: this.hub,
      settings: () => this.settings,
      log: this.logBook.logger('local-server'),
      version: options.version ?? APP_VERSION,
      stateDir: options.stateDir === null ? undefined : (options.stateDir ?? appStateDir()),
      ...(options.localServer ? { overrides: options.localServer } : {}),
      saveToken: (token) => {
        if (this.store.readOnly) return false;
        this.commit({ ...this.settings, localServer: { ...this.settings.localServer, token } });
        return true;
      },
      onStatus: () => this.queueStatus(),
      onTokenChanged: () => this.updateSecrets(),
      catalogSettled: () => this.startGrace.settled(),
    });
    this.updateSecrets();
    this.logBook.subscribe((entry) => this.emit('log', entry));
    this.host.updates?.subscribe((status) => this.emit('update', status));
    for (const server of this.settings.servers) this.servers.set(server.name, this.makeServer(server));
    for (const endpoint of this.settings.endpoints) this.links.set(endpoint.id, this.makeLink(endpoint));
    const registryUrl = options.registryUrl ?? options.env?.XIAOZHI_TRAY_REGISTRY_URL ?? process.env.XIAOZHI_TRAY_REGISTRY_URL;
    this.catalogue = new CatalogueService({
      log: this.log,
      ...(options.cacheDir ? { cacheDir: options.cacheDir } : {}),
      ...(registryUrl ? { registryUrl } : {}),
    });
    this.api = this.makeApi();
  }

  get isRunning(): boolean {
    return this.running;
  }

  /** Starts every enabled server (in parallel, none waiting for another) and every enabled endpoint. */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.log.info(`starting: ${countOf(this.settings.servers.length, 'server')}, ${countOf(this.settings.endpoints.length, 'endpoint')}`);
    for (const server of this.servers.values()) if (server.config.enabled) this.startServer(server);
    for (const link of this.links.values()) if (this.endpointEnabled(link.id)) link.start();
    void this.localServer.sync(true);
    this.queueStatus();
  }

  /** Stops endpoints and servers; resolves when every child process tree is gone. */
  async stop(): Promise<void> {
    this.running = false;
    if (this.listChangedTimer) clearTimeout(this.listChangedTimer);
    this.listChangedTimer = undefined;
    // Servers are stopped last, but a child that exits meanwhile (Ctrl+C) is no crash to restart.
    for (const server of this.servers.values()) server.windDown();
    await this.localServer.stop();
    await Promise.all([...this.links.values()].map((link) => link.stop()));
    await Promise.all([...this.servers.values()].map((server) => server.stop()));
    this.log.info('stopped');
    this.queueStatus();
  }

  /** The machine resumed or its network came back: endpoints retry or check their socket now. */
  wake(): void {
    for (const link of this.links.values()) link.wake();
  }

  /**
   * Kills every server's process tree now, synchronously. For the moment a process must exit
   * without waiting for `stop()` (a second Ctrl+C, a crash): nothing it started may outlive it.
   */
  killAllNow(): void {
    for (const server of this.servers.values()) server.killNow();
  }

  /**
   * A file handed to the app outside the window (dropped on the tray, opened with the app): its
   * preview goes to the UI as an event, so the user reviews it before anything changes.
   */
  async offerImportFile(path: string): Promise<void> {
    try {
      this.emit('importPreview', this.imports.previewFile(path, this.settings));
    } catch (error) {
      this.log.warn(`could not import ${path}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /** Resolves when every server started so far has either come up or failed its first attempt. */
  async whenServersSettled(): Promise<void> {
    await Promise.allSettled([...this.serverStarts.values()]);
  }

  /**
   * Resolves when an endpoint's tools/list would be answered: every start settled, or the start
   * grace over (a server that hangs at start holds nobody past it).
   */
  async whenCatalogSettled(): Promise<void> {
    await this.startGrace.settled();
  }

  /** The state as any UI sees it: what servers printed or failed with is redacted like a log line. */
  state(): BridgeState {
    const redact = (text: string) => this.logBook.redact(text);
    return {
      running: this.running,
      endpoints: [...this.links.values()].map((l) => {
        const status = {
          ...withCause(l.status()),
          served: this.catalogs.summary(l.id),
          toolSet: this.hub.forSet(this.settings.endpoints.find((e) => e.id === l.id)?.toolSet).id,
        };
        return {
          ...status,
          ...(status.lastError !== undefined ? { lastError: redact(status.lastError) } : {}),
          ...(status.lastErrorCause ? { lastErrorCause: redactProblem(status.lastErrorCause, redact) } : {}),
        };
      }),
      servers: [...this.servers.values()].map((s) => {
        const status = s.status();
        return {
          ...status,
          stderrTail: status.stderrTail.map(redact),
          ...(status.lastError !== undefined ? { lastError: redact(status.lastError) } : {}),
          ...(status.lastErrorCause ? { lastErrorCause: redactProblem(status.lastErrorCause, redact) } : {}),
        };
      }),
      catalog: this.hub.summary(),
      toolSets: this.hub.summaries(),
      localServer: this.localServer.status(),
    };
  }

  get toolHub(): ToolHub {
    return this.hub;
  }

  /** What each endpoint is served, by tool mode. */
  get endpointCatalogs(): EndpointCatalogs {
    return this.catalogs;
  }

  /** Read for every call (twice): kept per settings object, which a change replaces. */
  private endpointMode(id: string): EndpointMode {
    if (this.modes.settings !== this.settings) this.modes = { settings: this.settings, byId: new Map() };
    let mode = this.modes.byId.get(id);
    if (!mode) {
      const endpoint = this.settings.endpoints.find((e) => e.id === id);
      mode = { toolMode: this.options.toolMode ?? endpoint?.toolMode ?? 'all', pinned: endpoint?.pinned ?? [], toolSet: endpoint?.toolSet };
      this.modes.byId.set(id, mode);
    }
    return mode;
  }

  on<K extends EventName>(event: K, listener: (payload: EventPayload<K>) => void): () => void {
    const set = this.listeners.get(event) ?? new Set<Listener>();
    set.add(listener as Listener);
    this.listeners.set(event, set);
    // Call records are redacted only when someone listens, so listen to the history only then.
    if (event === 'call' && set.size === 1) this.unsubscribeHistory = this.history.subscribe((record) => this.emit('call', record));
    return () => {
      set.delete(listener as Listener);
      if (event === 'call' && set.size === 0) {
        this.unsubscribeHistory?.();
        this.unsubscribeHistory = undefined;
      }
    };
  }

  private emit<K extends EventName>(event: K, payload: EventPayload<K>): void {
    for (const listener of this.listeners.get(event) ?? []) {
      try {
        (listener as (p: EventPayload<K>) => void)(payload);
      } catch (error) {
        // A broken subscriber must not break the engine; do not log a log event's failure (loop).
        if (event !== 'log') this.log.warn(`an event listener failed: ${String(error)}`);
      }
    }
  }

  /** Status changes come in bursts (a server start touches several); send one event per tick. */
  private queueStatus(): void {
    if (this.statusQueued) return;
    this.statusQueued = true;
    setImmediate(() => {
      this.statusQueued = false;
      this.emit('status', this.state());
    });
  }

  private onCatalogChanged(): void {
    this.emit('catalog', this.hub.catalog());
    this.queueStatus();
    if (this.listChangedTimer) clearTimeout(this.listChangedTimer);
    this.listChangedTimer = setTimeout(() => {
      this.listChangedTimer = undefined;
      // Each consumer compares its own set's version: only those whose set changed hear about it.
      for (const link of this.links.values()) link.notifyToolsChanged();
      this.localServer.refreshSessions();
      // Judged once the servers starting now are up (or failed): a count taken halfway is not what xiaozhi gets.
      void this.startGrace.settled().then(() => {
        if (this.running) this.warnOverBudget();
      });
    }, this.options.listChangedDebounceMs ?? 300);
  }

  /**
   * The window shows an endpoint past its tool budget; a headless user reads the log. Said once
   * per endpoint each time it goes over, not at every change.
   */
  private warnOverBudget(): void {
    const { budgetTools, budgetBytes } = this.settings.limits;
    for (const link of this.links.values()) {
      const served = this.catalogs.summary(link.id);
      const over = served.toolCount > budgetTools || served.bytes > budgetBytes;
      if (over && !this.overBudget.has(link.id)) {
        this.logBook
          .logger(`endpoint:${link.name}`)
          .warn(
            `serves ${countOf(served.toolCount, 'tool')} (${served.bytes} bytes in ${countOf(served.pages, 'page')}), past the budget of ${budgetTools} tools / ${budgetBytes} bytes: xiaozhi may drop or fail the list. Switch tools off, or use router mode (run --tool-mode router, or the endpoint's setting)`,
          );
      }
      if (over) this.overBudget.add(link.id);
      else this.overBudget.delete(link.id);
    }
  }

  private hubSettings() {
    return {
      naming: this.settings.naming,
      toolSets: this.settings.toolSets,
      maxMessageBytes: this.settings.limits.maxMessageBytes,
      argumentChecksOff: new Set(this.settings.servers.filter((s) => s.checkArguments === false).map((s) => s.name)),
    };
  }

  private makeServer(settings: ServerSettings): ChildServer {
    return new ChildServer({
      settings,
      log: this.logBook.logger(`server:${settings.name}`),
      baseEnv: this.options.env ?? process.env,
      defaults: () => ({
        callTimeoutMs: this.settings.limits.callTimeoutMs,
        ...(this.settings.modelscope.apiKey ? { modelscopeApiKey: this.settings.modelscope.apiKey } : {}),
      }),
      ...(this.options.supervision ? { supervision: this.options.supervision } : {}),
      onStatus: () => this.queueStatus(),
      onTools: () => this.hub.rebuild(),
      // A list asked while a server restarts waits for that attempt too (bounded by the grace).
      onAttempt: (attempt) => this.startGrace.track(settings.name, attempt),
    });
  }

  private startServer(server: ChildServer): void {
    // A server replaced or removed meanwhile (a save during a restart) must not come back to life.
    if (this.servers.get(server.name) !== server) return;
    const started = server.start().catch((error: unknown) => this.log.error(`server ${server.name}: ${String(error)}`));
    this.serverStarts.set(server.name, started);
    this.startGrace.track(server.name, started);
  }

  private makeLink(endpoint: Settings['endpoints'][number]): EndpointLink {
    return new EndpointLink({
      endpoint,
      connection: this.settings.connection,
      hub: this.catalogs.forEndpoint(endpoint.id),
      catalogSettled: () => this.startGrace.settled(),
      log: this.logBook.logger(`endpoint:${endpoint.name}`),
      maxMessageBytes: () => this.settings.limits.maxMessageBytes,
      maxIncomingBytes: this.settings.limits.maxIncomingBytes,
      onStatus: () => this.queueStatus(),
      version: this.options.version ?? APP_VERSION,
    });
  }

  private endpointEnabled(id: string): boolean {
    return this.settings.endpoints.find((e) => e.id === id)?.enabled === true;
  }

  /** Validates and persists new settings; throws (and keeps the old ones) when they are invalid. */
  private commit(next: Settings): void {
    const parsed = SettingsSchema.safeParse(next);
    if (!parsed.success) {
      // Zod's own message is a JSON dump of every issue: the window and the CLI get the first, in words.
      const issue = firstIssue(parsed.error);
      throw new Error(`Invalid settings${issue.path ? ` at ${issue.path}` : ''}: ${issue.message}`);
    }
    const valid = parsed.data;
    this.store.save(valid);
    this.settings = valid;
    // Calls recorded so far are masked with the secrets they were made with, before those change.
    this.history.redactAll();
    this.updateSecrets();
    this.hub.updateSettings(this.hubSettings());
    void this.localServer.sync(this.running);
    this.queueStatus();
  }

  /** The settings' secrets, and the local server's tokens of this run (`--mcp-token`, or one made for it; each client's own). */
  private updateSecrets(): void {
    this.logBook.setSecrets([...secretValues(this.settings, this.options.env ?? process.env), ...this.localServer.currentTokens()]);
  }

  private requireServer(name: string): ChildServer {
    const server = this.servers.get(name);
    if (!server) throw new Error(`No server is called "${name}".`);
    return server;
  }

  private requireEndpoint(id: string): Settings['endpoints'][number] {
    const endpoint = this.settings.endpoints.find((e) => e.id === id);
    if (!endpoint) throw new Error(`No endpoint has the id "${id}".`);
    return endpoint;
  }

  /** A server that is this app itself would serve its own tools back to it, in a loop. */
  private refuseOwnEntry(server: ServerSettings): void {
    const running = this.localServer.status().url;
    const ports = [this.settings.localServer.port, ...(running ? [Number(new URL(running).port)] : [])];
    if (ports.some((port) => isOwnEntry(server, port))) {
      throw new Error(`"${server.name}" is Xiaozhi Tray's own local MCP server; adding it would serve the app's tools back to itself.`);
    }
  }

  /**
   * Replacing links and servers runs one at a time: two saves at once (a double click) would
   * otherwise both stop the old one and both start a new one, leaving one running unowned.
   */
  private exclusive(work: () => Promise<void>): Promise<void> {
    const turn = this.replacing.then(work);
    this.replacing = turn.catch(() => undefined);
    return turn;
  }

  private replaceLink(id: string): Promise<void> {
    return this.exclusive(async () => {
      await this.links.get(id)?.stop();
      this.links.delete(id);
      const endpoint = this.settings.endpoints.find((e) => e.id === id);
      if (!endpoint) return;
      const link = this.makeLink(endpoint);
      this.links.set(id, link);
      if (this.running && endpoint.enabled) link.start();
    });
  }

  /** Stops the server `oldName` and starts `newName` (the same name, or a rename) as the settings now say. */
  private replaceServer(oldName: string, newName: string | undefined): Promise<void> {
    return this.exclusive(async () => {
      for (const name of new Set([oldName, ...(newName ? [newName] : [])])) {
        const old = this.servers.get(name);
        this.servers.delete(name);
        this.serverStarts.delete(name);
        this.startGrace.forget(name);
        if (old) await old.stop();
      }
      // Read at this turn, not when asked: a later save may have changed it meanwhile.
      const settings = newName === undefined ? undefined : this.settings.servers.find((s) => s.name === newName);
      if (settings) {
        const server = this.makeServer(settings);
        this.servers.set(settings.name, server);
        if (this.running && settings.enabled) this.startServer(server);
      }
      this.hub.rebuild();
      this.queueStatus();
    });
  }

  /** What the commands (bridge-commands.ts) may use of this bridge. */
  private internals(): BridgeInternals {
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    const bridge = this;
    return {
      get settings() {
        return bridge.settings;
      },
      commit: (next) => this.commit(next),
      state: () => this.state(),
      start: () => this.start(),
      stop: () => this.stop(),
      hub: this.hub,
      history: this.history,
      logBook: this.logBook,
      log: this.log,
      imports: this.imports,
      catalogs: this.catalogs,
      catalogue: this.catalogue,
      localServer: this.localServer,
      startGrace: this.startGrace,
      store: this.store,
      host: this.host,
      options: this.options,
      links: this.links,
      servers: this.servers,
      serverStarts: this.serverStarts,
      requireEndpoint: (id) => this.requireEndpoint(id),
      requireServer: (name) => this.requireServer(name),
      replaceLink: (id) => this.replaceLink(id),
      replaceServer: (oldName, newName) => this.replaceServer(oldName, newName),
      startServer: (server) => this.startServer(server),
      refuseOwnEntry: (server) => this.refuseOwnEntry(server),
      queueStatus: () => this.queueStatus(),
    };
  }

  private makeApi(): BridgeApi {
    const impl = bridgeCommandHandlers(this.internals());

    const api = {} as Record<string, unknown>;
    for (const name of Object.keys(bridgeCommands) as CommandName[]) {
      const schema = bridgeCommands[name].input;
      // Every payload is validated here, once, whichever carrier (IPC, WebSocket, in-process) brought it.
      api[name] = async (input: unknown) => {
        const refused = forbiddenKeyPaths(input, 1)[0];
        if (refused) throw new Error(`Invalid input for "${name}" at ${formatKeyPath(refused)}: this key is not allowed`);
        const parsed = schema.safeParse(input);
        if (!parsed.success) {
          const issue = firstIssue(parsed.error);
          throw new Error(this.logBook.redact(`Invalid input for "${name}"${issue.path ? ` at ${issue.path}` : ''}: ${issue.message}`));
        }
        try {
          return await (impl[name] as (i: unknown) => Promise<unknown>)(parsed.data);
        } catch (error) {
          // Errors reach the window and the CLI: the same redaction as everything else.
          throw new Error(this.logBook.redact(error instanceof Error ? error.message : String(error)));
        }
      };
    }
    api.on = this.on.bind(this);
    return api as BridgeApi;
  }
}

/** An endpoint's failure as a code with parameters, read from the text the link logged. */
function withCause(status: EndpointStatus): EndpointStatus {
  return status.lastError && !status.lastErrorCause
    ? { ...status, lastErrorCause: failureCause(new Error(status.lastError), { url: status.url }) }
    : status;
}
