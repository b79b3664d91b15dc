import type { Language } from '../../../shared/i18n/translate';
import { mirrorEnv, type MirrorUrls, unnamedSources } from '../../../shared/mirrors';
import { isMcpServer, type ServerSettings, type Settings } from '../../../shared/settings';
import type { ServerStatus } from '../../../shared/status';
import type { ToolSource } from '../hub/tool-hub';
import type { LogBook, Logger } from '../logs/log-book';
import type { RuntimeProvider } from '../runtimes/child-runtime';
import { ChildServer, type ChildServerOptions, type Supervision } from '../servers/child-server';
import type { ServerNotice } from '../servers/server-notice';
import { StartGrace } from '../servers/start-grace';
import { ServiceServer } from '../services/service-server';
import type { ChangeQueue } from './change-queue';

/** What every child server reads of the settings. */
type ChildDefaults = ReturnType<ChildServerOptions['defaults']>;

/** What the fleet holds of a server: an MCP server (`ChildServer`) or a web service (`ServiceServer`), alike to the hub. */
export interface FleetServer extends ToolSource {
  readonly config: ServerSettings;
  status(): ServerStatus;
  start(): Promise<void>;
  stop(): Promise<void>;
  windDown(): void;
  killNow(): void;
}

export interface ServerFleetOptions {
  settings(): Settings;
  logBook: LogBook;
  /** Where a start that throws is logged. */
  log: Logger;
  /** The environment stdio servers start from. */
  env: NodeJS.ProcessEnv;
  /** Fetches a missing Node.js or uv into the app's data folder; none: such a server fails saying how to install it. */
  runtimes?: RuntimeProvider | undefined;
  supervision?: Partial<Supervision>;
  /** The config file's folder, for relative paths in web services' settings. */
  configDir?: string;
  /** Whether the bridge runs: a server replaced while it is stopped is not started. */
  running(): boolean;
  /** Shared with the endpoint links: one change at a time. */
  queue: ChangeQueue;
  onStatus(): void;
  /** A server's tools changed, or the servers themselves did. */
  onTools(): void;
  /** Puts a server's question during a call to the user (MCP elicitation). */
  elicit?: ChildServerOptions['elicit'];
  /** Takes what a server asks during a local client's call to that client. */
  asks?: ChildServerOptions['asks'];
  /** Where remote servers' sign-ins are kept. */
  oauth?: ChildServerOptions['oauth'];
  /** A server announced something besides its tools (for the local clients whose set includes it). */
  onServerNotice?: (server: string, notice: ServerNotice) => void;
  /** The language of what xiaozhi's model hears (a web service's "done", its question). */
  voiceLanguage?: () => Language;
  /** The download sources in use (the user's choice, else the place's): children's package runners are pointed there. */
  sources(): MirrorUrls;
}

/**
 * The configured MCP servers, by name: made from the settings, started, restarted, stopped and
 * replaced, with each start tracked (and held in the start grace a tool list waits on).
 */
export class ServerFleet {
  private readonly servers = new Map<string, FleetServer>();
  private readonly starts = new Map<string, Promise<void>>();
  private readonly startGrace: StartGrace;
  private defaultsOf: { settings: Settings; defaults: ChildDefaults } | undefined;

  constructor(private readonly options: ServerFleetOptions) {
    this.startGrace = new StartGrace(() => options.settings().limits.startGraceMs);
    for (const server of options.settings().servers) this.servers.set(server.name, this.make(server));
  }

  /** In the config's order: a server replaced by an edit keeps its place (its card does not jump to the bottom). */
  all(): FleetServer[] {
    const order = new Map(this.options.settings().servers.map((s, i) => [s.name, i]));
    const place = (server: FleetServer) => order.get(server.name) ?? order.size;
    return [...this.servers.values()].sort((a, b) => place(a) - place(b));
  }

  has(name: string): boolean {
    return this.servers.has(name);
  }

  /** The server called `name`, if any. */
  get(name: string): FleetServer | undefined {
    return this.servers.get(name);
  }

  require(name: string): FleetServer {
    const server = this.servers.get(name);
    if (!server) throw new Error(`No server is called "${name}".`);
    return server;
  }

  /** Starts every enabled server, in parallel, none waiting for another. */
  startEnabled(): void {
    for (const server of this.servers.values()) if (server.config.enabled) this.launch(server);
  }

  /** Starts the server called `name`; resolves when it is up or its first attempt failed. */
  async start(name: string): Promise<void> {
    const server = this.require(name);
    this.refuseStopped();
    this.launch(server);
    await this.starts.get(name);
  }

  stop(name: string): Promise<void> {
    return this.require(name).stop();
  }

  async restart(name: string): Promise<void> {
    const server = this.require(name);
    this.refuseStopped();
    await server.stop();
    this.launch(server);
    await this.starts.get(name);
  }

  /** Servers are stopped last, but a child that exits meanwhile (Ctrl+C) is no crash to restart. */
  windDown(): void {
    for (const server of this.servers.values()) server.windDown();
  }

  /** Resolves when every child process tree is gone. */
  async stopAll(): Promise<void> {
    await Promise.all([...this.servers.values()].map((server) => server.stop()));
  }

  killAllNow(): void {
    for (const server of this.servers.values()) server.killNow();
  }

  /** Resolves when every server started so far has either come up or failed its first attempt. */
  async startsSettled(): Promise<void> {
    await Promise.allSettled([...this.starts.values()]);
  }

  /** Resolves when every start has settled, or its grace is over (a server that hangs holds nobody past it). */
  graceSettled(): Promise<void> {
    return this.startGrace.settled();
  }

  /** Stops the server `oldName` and starts `newName` (the same name, or a rename) as the settings now say. */
  replace(oldName: string, newName: string | undefined): Promise<void> {
    return this.options.queue.run(async () => {
      for (const name of new Set([oldName, ...(newName ? [newName] : [])])) {
        const old = this.servers.get(name);
        this.servers.delete(name);
        this.starts.delete(name);
        this.startGrace.forget(name);
        if (old) await old.stop();
      }
      // Read at this turn, not when asked: a later save may have changed it meanwhile.
      const settings = newName === undefined ? undefined : this.options.settings().servers.find((s) => s.name === newName);
      if (settings) {
        const server = this.make(settings);
        this.servers.set(settings.name, server);
        if (this.options.running() && settings.enabled) this.launch(server);
      }
      this.options.onTools();
      this.options.onStatus();
    });
  }

  /**
   * What every child server reads of the settings, made again only when the settings change (they are
   * replaced, never changed in place; the download sources follow from them and the place, which
   * stays): a call reads its timeout here, and each made four objects.
   */
  private childDefaults(): ChildDefaults {
    const settings = this.options.settings();
    if (this.defaultsOf?.settings === settings) return this.defaultsOf.defaults;
    const { limits, modelscope, mirrors } = settings;
    // Until the user chooses, the sources their environment names are theirs (the place only guesses).
    const urls =
      mirrors.preset === undefined ? unnamedSources(this.options.sources(), this.options.env ?? process.env) : this.options.sources();
    const defaults: ChildDefaults = {
      callTimeoutMs: limits.callTimeoutMs,
      backgroundTimeoutMs: limits.backgroundTimeoutMs,
      mirrorEnv: mirrorEnv(urls),
      mirrorUrls: urls,
      ...(modelscope.apiKey ? { modelscopeApiKey: modelscope.apiKey } : {}),
    };
    this.defaultsOf = { settings, defaults };
    return defaults;
  }

  private make(settings: ServerSettings): FleetServer {
    const { options } = this;
    if (!isMcpServer(settings))
      return new ServiceServer({
        settings,
        log: options.logBook.logger(`server:${settings.name}`),
        defaults: () => {
          const { callTimeoutMs, backgroundTimeoutMs } = options.settings().limits;
          return { callTimeoutMs, backgroundTimeoutMs };
        },
        ...(options.supervision ? { supervision: options.supervision } : {}),
        ...(options.configDir ? { configDir: options.configDir } : {}),
        onStatus: () => options.onStatus(),
        onTools: () => options.onTools(),
        onAttempt: (attempt) => this.startGrace.track(settings.name, attempt),
        ...(options.voiceLanguage ? { language: options.voiceLanguage } : {}),
      });
    return new ChildServer({
      settings,
      log: options.logBook.logger(`server:${settings.name}`),
      baseEnv: options.env,
      defaults: () => this.childDefaults(),
      ...(options.supervision ? { supervision: options.supervision } : {}),
      runtimes: options.runtimes,
      onStatus: () => options.onStatus(),
      onTools: () => options.onTools(),
      // A list asked while a server restarts waits for that attempt too (bounded by the grace).
      onAttempt: (attempt) => this.startGrace.track(settings.name, attempt),
      ...(options.elicit ? { elicit: options.elicit } : {}),
      ...(options.asks ? { asks: options.asks } : {}),
      ...(options.oauth ? { oauth: options.oauth } : {}),
      onServerNotice: (notice) => options.onServerNotice?.(settings.name, notice),
    });
  }

  /** A start asked for while the app is stopped (the tray's Stop, a quit under way) is refused, not left to outlive the stop. */
  private refuseStopped(): void {
    if (!this.options.running()) throw new Error('The app is stopped: start it again before starting a server.');
  }

  private launch(server: FleetServer): void {
    // A server replaced or removed meanwhile (a save during a restart) must not come back to life,
    // nor one whose restart was under way as the app stopped.
    if (this.servers.get(server.name) !== server || !this.options.running()) return;
    const started = server.start().catch((error: unknown) => this.options.log.error(`server ${server.name}: ${String(error)}`));
    this.starts.set(server.name, started);
    this.startGrace.track(server.name, started);
  }
}
