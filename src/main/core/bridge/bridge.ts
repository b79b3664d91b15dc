import { programWords } from '../hub/tool-names';
import { problem } from '../../../shared/problem';
import { mirrorUrls } from '../../../shared/mirrors';
import { RuntimeStore } from '../runtimes/runtime-store';
import { runtimeAvailability } from '../runtimes/child-runtime';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { countOf } from '../../../shared/count-words';
import type { BridgeApi, BridgeCommands, EventName, EventPayload } from '../../../shared/bridge-api';
import { SettingsSchema, findToolSet, type Settings } from '../../../shared/settings';
import type { BridgeState } from '../../../shared/status';
import { firstIssue } from '../../../shared/zod-issue';
import { addedDuplicate } from '../../../shared/endpoint-url';
import { redactFailure, secretValues } from '../secrets/bridge-secrets';
import { BridgeEvents } from './bridge-events';
import { FileVault, MemoryVault, type TokenVault } from '../oauth/token-vault';
import { SignIns } from '../oauth/sign-ins';
import { headlessHost, type BridgeHost, type BridgeOptions } from './bridge-host';
import type { SettingsStore } from '../config/settings-store';
import { ToolHub } from '../hub/tool-hub';
import { BuiltinTools, type BuiltinTool } from '../hub/builtin/builtin-tools';
import { CONFIRM_WINDOW_MS, Confirmations } from '../hub/builtin/confirmations';
import { MAX_WRONG_PINS, newPin } from '../hub/builtin/confirmation-pin';
import type { ConfirmationSettings } from '../../../shared/confirmation-pin';
import { VoiceCalls } from '../hub/builtin/voice-calls';
import { confirmTool } from '../hub/builtin/confirm-tool';
import { toolPolicy } from '../hub/tool-policy';
import { Elicitations } from '../hub/elicitations';
import { answerAfterMs } from '../long-calls/patience';
import { CallHistory } from '../logs/call-history';
import { BackgroundCalls } from '../long-calls/background-calls';
import { taskTools } from '../long-calls/task-tools';
import { taskText } from '../long-calls/voice-texts';
import { resolveLanguage, type Language } from '../../../shared/i18n/translate';
import { ActivityLog } from '../logs/activity-log';
import type { LogBook, Logger } from '../logs/log-book';
import { ImportSessions } from '../import/import-sessions';
import { CatalogueService } from '../catalogue/catalogue-service';
import type { EndpointCatalogs } from '../serving/endpoint-catalogs';
import { LocalServerController } from '../local-server/local-server-controller';
import { fleetCallPassthrough } from './fleet-calls';
import { fleetPassthrough } from '../local-server/passthrough/fleet-servers';
import { appStateDir } from '../local-server/state-file';
import { ChangeQueue } from './change-queue';
import { ServerFleet } from './server-fleet';
import { EndpointFleet } from './endpoint-fleet';
import * as commands from './commands';
import { APP_VERSION } from '../system/version';
import { systemLocale } from '../system/system-locale';
import { ModelRoom } from '../models/model-room';

export type { BridgeOptions } from './bridge-host';

/**
 * The engine's facade: owns the settings, the tool hub, the servers (a `ServerFleet`) and the
 * endpoint links (an `EndpointFleet`), starts and stops them, sends the events, and implements
 * the `BridgeApi` contract that every UI talks to (the commands live in `commands/`). One per process.
 */
export class Bridge {
  readonly api: BridgeApi;
  private settings: Settings;
  private readonly store: SettingsStore;
  private readonly logBook: LogBook;
  private readonly log: Logger;
  private readonly history: CallHistory;
  /** Calls answered before they finished, going on in the background (every endpoint's). */
  private readonly backgroundCalls: BackgroundCalls;
  private readonly activity: ActivityLog;
  private readonly hub: ToolHub;
  /** The bridge's own tools: one more source of the hub, beside the servers. */
  private readonly builtins: BuiltinTools;
  /** Calls by voice held until the user confirms them. */
  private readonly confirmations: Confirmations;
  /** Servers' questions during a call (MCP elicitation), waiting for the user in the window. */
  private readonly elicitations: Elicitations;
  /** Calls by voice in flight, by server: a server's question during one is put to its caller. */
  private readonly voiceCalls = new VoiceCalls();
  private readonly servers: ServerFleet;
  /** Node.js and uv fetched for servers whose runtime is missing (the desktop app; headless with --fetch-runtimes). */
  private readonly runtimes: RuntimeStore | undefined;
  private readonly endpoints: EndpointFleet;
  private readonly events: BridgeEvents;
  private running = false;
  private readonly imports: ImportSessions;
  private readonly host: BridgeHost;
  private readonly localServer: LocalServerController;
  /** Remote servers' sign-ins (OAuth): their tokens, and the sign-ins under way. */
  private readonly oauthVault: TokenVault;
  private readonly signIns: SignIns;
  /** What local sessions reach of the servers besides tools (resources, prompts, logs). */
  private readonly passthrough: ReturnType<typeof fleetPassthrough>;
  /** The user's chat model: "Try a sentence", and servers' sampling by voice (with consent). */
  private readonly models: ModelRoom;

  constructor(private readonly options: BridgeOptions) {
    this.store = options.store;
    this.host = options.host ?? headlessHost;
    this.confirmations = new Confirmations(() => this.confirmationPin(), options.confirmWindowMs);
    // Unanswered, a question is answered before the shortest caller's patience is over (so the tool still answers in time).
    // A yes/no question during a call by voice is put to its caller: the person's PIN says yes.
    this.elicitations = new Elicitations(
      () => this.elicitWaitMs(),
      (text) => this.logBook.redact(text),
      {
        calls: this.voiceCalls,
        language: () => this.voiceLanguage(),
        pinFor: () => this.pinFor(),
        pin: () => this.settings.confirmation.pin,
        waitMs: options.confirmWindowMs ?? CONFIRM_WINDOW_MS,
      },
    );
    // The environment a file's ${env:…} may be filled from (when the user confirms it).
    this.imports = new ImportSessions(options.env ?? process.env);
    this.logBook = options.logBook;
    this.log = options.logBook.logger('app');
    this.confirmations.onTooManyWrong = (session, cancelled) =>
      this.log.warn(
        `too many wrong confirmation PINs by voice (${MAX_WRONG_PINS} in a conversation, or many in all lately); ${countOf(cancelled, 'held call')} cancelled, and confirming by voice waits a while (session ${session.slice(0, 8)})`,
      );
    this.settings = SettingsSchema.parse(options.store.load());
    this.history = new CallHistory(1000, (text) => this.logBook.redact(text));
    // Kept where the local server's state file is (the app's data folder); tests without one keep it in memory.
    this.activity = ActivityLog.inFolder(options.stateDir === null ? undefined : (options.stateDir ?? appStateDir()), (message) =>
      this.log.warn(`could not save the activity: ${this.logBook.redact(message)}`),
    );
    // Names only (no arguments or results), masked like everything that leaves the engine.
    this.history.observe((record) => {
      // A held call is a question to the user; its run (or denial) is the call the activity counts.
      if (record.outcome === 'held') return;
      const { time, server, outcome, durationMs } = record;
      this.activity.add({
        time,
        server,
        outcome,
        durationMs,
        originalTool: this.logBook.redactName(record.originalTool),
        caller: this.logBook.redactName(record.caller),
      });
    });
    this.events = new BridgeEvents(this.history, this.log, () => this.state());
    this.backgroundCalls = new BackgroundCalls({ redact: (text) => this.logBook.redact(text) });
    this.backgroundCalls.subscribe((task) => this.events.emit('task', task));
    this.confirmations.onChange(() => this.events.emit('confirmations', this.shownConfirmations()));
    this.elicitations.onChange(() => this.events.emit('elicitations', this.elicitations.list()));
    const settings = () => this.settings;
    const onStatus = () => {
      this.events.queueStatus();
      // Constructed below; a status before it (none: nothing starts in the constructor) has nobody to sign in.
      (this.signIns as SignIns | undefined)?.statusChanged();
    };
    // Both fleets change one thing at a time, in one queue, and start nothing while the bridge is stopped.
    const fleet = { settings, logBook: this.logBook, running: () => this.running, queue: new ChangeQueue(), onStatus };
    const { env = process.env, supervision, runtimesDir, runtimeIdleTimeoutMs, runtimePins, configDir } = options;
    const runtimes = (this.runtimes = runtimesDir
      ? new RuntimeStore({
          dir: runtimesDir,
          sources: () => mirrorUrls(this.settings.mirrors),
          ...(runtimeIdleTimeoutMs !== undefined ? { idleTimeoutMs: runtimeIdleTimeoutMs } : {}),
          ...(runtimePins ? { pins: runtimePins } : {}),
        })
      : undefined);
    // What servers ask during a local client's call goes to that client; MCP tasks pass through.
    const calls = fleetCallPassthrough(() => this.servers, this.history);
    const stateDir = options.stateDir === null ? undefined : (options.stateDir ?? appStateDir());
    this.oauthVault = options.oauthVault ?? (stateDir ? new FileVault(stateDir) : new MemoryVault());
    this.servers = new ServerFleet({
      ...fleet,
      oauth: { vault: this.oauthVault, env },
      log: this.log,
      env,
      runtimes,
      ...(supervision ? { supervision } : {}),
      ...(configDir ? { configDir } : {}),
      onTools: () => this.hub.rebuild(),
      elicit: (server, params, signal) => this.elicitations.ask(server, params, signal),
      asks: {
        // No local client's call takes it: a call by voice in flight hears, with its result, that sampling was refused.
        ask: (server, method, params, signal) => {
          const taken = calls.asks.ask(server, method, params, signal);
          if (taken !== undefined || method !== 'sampling/createMessage') return taken;
          // The user's model answers it, when they agreed to that.
          const answered = this.models.sampling.ask(server, params, signal);
          if (answered === undefined) this.voiceCalls.note(server, 'sampling');
          return answered;
        },
        taskStatus: (server, params) => calls.asks.taskStatus(server, params),
      },
      onServerNotice: (server, notice) => this.passthrough.notify(server, notice),
      voiceLanguage: () => this.voiceLanguage(),
    });
    this.signIns = new SignIns({
      vault: this.oauthVault,
      env,
      settings,
      log: this.log,
      status: (name) => (this.servers.has(name) ? this.servers.require(name).status() : undefined),
      restart: (name) => this.servers.restart(name),
      openExternal: this.host.openExternal?.bind(this.host),
      ...(options.signInTimeoutMs !== undefined ? { timeoutMs: options.signInTimeoutMs } : {}),
    });
    this.passthrough = fleetPassthrough(
      () => this.servers.all(),
      (id) => findToolSet(this.settings, id),
    );
    this.builtins = new BuiltinTools(this.builtinToolList());
    const policyOf = (server: string, tool: Tool) =>
      toolPolicy(
        this.settings.servers.find((s) => s.name === server),
        tool,
      );
    this.hub = new ToolHub(() => [this.builtins, ...this.servers.all()], this.hubSettings(), this.history, this.log, {
      confirmations: this.confirmations,
      policyOf,
      pinFor: () => this.pinFor(),
      pin: () => this.settings.confirmation.pin,
      calls: this.voiceCalls,
    });
    this.hub.onChange(() => this.onCatalogChanged());
    this.endpoints = new EndpointFleet({
      ...fleet,
      hub: this.hub,
      history: this.history,
      toolMode: options.toolMode,
      defaultToolMode: options.defaultToolMode,
      startSettled: () => this.servers.graceSettled(),
      onToolsNotified: () => this.localServer.refreshSessions(),
      version: options.version,
      listChangedDebounceMs: options.listChangedDebounceMs,
      copies: options.copies,
      longCalls: {
        calls: this.backgroundCalls,
        language: () => this.voiceLanguage(),
        sessionClosed: (belongs) => this.confirmations.dropSession(belongs),
      },
    });
    this.models = new ModelRoom({
      settings,
      hub: this.hub,
      catalogs: this.endpoints.catalogs,
      calls: this.voiceCalls,
      log: this.logBook.logger('model'),
      redact: (text) => this.logBook.redact(text),
      progress: (progress) => this.events.emit('sentenceCheck', progress),
      toolMode: options.toolMode,
    });
    this.localServer = new LocalServerController({
      // Each client's set as a consumer sees it: a call of a tool whose server is still starting waits for it.
      toolSet: (id) => this.endpoints.catalogs.forSet(id),
      settings,
      log: this.logBook.logger('local-server'),
      version: options.version ?? APP_VERSION,
      stateDir: options.stateDir === null ? undefined : (options.stateDir ?? appStateDir()),
      ...(options.localServer ? { overrides: options.localServer } : {}),
      saveToken: (token) => {
        if (this.store.readOnly) return false;
        this.commit({ ...this.settings, localServer: { ...this.settings.localServer, token } });
        return true;
      },
      onStatus,
      onTokenChanged: () => this.updateSecrets(),
      calls,
      servers: this.passthrough,
    });
    this.updateSecrets();
    this.logBook.subscribe((entry) => this.events.emit('log', entry));
    this.host.updates?.subscribe((status) => this.events.emit('update', status));
    this.api = commands.validatedApi(this.handlers(), (text) => this.logBook.redact(text), this.on.bind(this));
  }

  get isRunning(): boolean {
    return this.running;
  }

  /** Starts every enabled server (in parallel, none waiting for another) and every enabled endpoint. */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.signIns.watch();
    this.log.info(
      `starting: ${countOf(this.settings.servers.length, 'server')}, ${countOf(this.settings.endpoints.length, 'endpoint')}`,
      problem('log.starting', { servers: this.settings.servers.length, endpoints: this.settings.endpoints.length }),
    );
    this.servers.startEnabled();
    this.endpoints.startEnabled();
    void this.localServer.sync(true);
    this.events.queueStatus();
  }

  /** Stops endpoints and servers; resolves when every child process tree is gone. */
  async stop(): Promise<void> {
    this.running = false;
    this.signIns.stop();
    this.endpoints.cancelListChanged();
    // Servers are stopped last, but a child that exits meanwhile (Ctrl+C) is no crash to restart.
    this.servers.windDown();
    await this.localServer.stop();
    await this.endpoints.stop();
    await this.servers.stopAll();
    this.confirmations.clear();
    this.elicitations.clear();
    this.activity.flush();
    this.log.info('stopped', problem('log.stopped'));
    this.events.queueStatus();
  }

  /** The machine resumed or its network came back: endpoints retry or check their socket now. */
  wake(): void {
    this.endpoints.wake();
  }

  /**
   * Kills every server's process tree now, synchronously. For the moment a process must exit
   * without waiting for `stop()` (a second Ctrl+C, a crash): nothing it started may outlive it.
   */
  killAllNow(): void {
    this.servers.killAllNow();
  }

  /**
   * A file handed to the app outside the window (dropped on the tray, opened with the app): its
   * preview goes to the UI as an event, so the user reviews it before anything changes.
   */
  async offerImportFile(path: string): Promise<void> {
    try {
      this.events.emit('importPreview', this.imports.previewFile(path, this.settings));
    } catch (error) {
      this.log.warn(`could not import ${path}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /** Resolves when every server started so far has either come up or failed its first attempt. */
  async whenServersSettled(): Promise<void> {
    await this.servers.startsSettled();
  }

  /**
   * Resolves when an endpoint's tools/list would be answered: every start settled, or the start
   * grace over (a server that hangs at start holds nobody past it).
   */
  async whenCatalogSettled(): Promise<void> {
    await this.servers.graceSettled();
  }

  /** The state as any UI sees it: what servers printed or failed with is redacted like a log line. */
  state(): BridgeState {
    const redact = (text: string) => this.logBook.redact(text);
    return {
      running: this.running,
      endpoints: this.endpoints.statuses().map((status) => redactFailure(status, redact)),
      servers: [...this.servers.all()].map((s) => {
        const status = s.status();
        return redactFailure({ ...status, stderrTail: status.stderrTail.map(redact) }, redact);
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
    return this.endpoints.catalogs;
  }

  /** The chat model's room ("Try a sentence", `xiaozhi-tray ask`). */
  get modelRoom(): ModelRoom {
    return this.models;
  }

  on<K extends EventName>(event: K, listener: (payload: EventPayload<K>) => void): () => void {
    return this.events.on(event, listener);
  }

  /** What xiaozhi's model is told in (errors, "still working on…", confirmations): the settings' language, one source for all. */
  private voiceLanguage(): Language {
    return this.hub.language;
  }

  /** The tools the bridge serves itself, one line each (each can be switched off in a tool set like any tool). */
  private builtinToolList(): BuiltinTool[] {
    const policyOf = (server: string, tool: Tool) =>
      toolPolicy(
        this.settings.servers.find((s) => s.name === server),
        tool,
      );
    // Listed only while some tool asks for the PIN (window-only ones it cannot confirm): xiaozhi's tool budget is small.
    const anyAsks = () =>
      [...this.servers.all()].some((server) => server.enabled && server.knownTools.some((tool) => policyOf(server.name, tool) === 'ask'));
    return [
      confirmTool({
        confirmations: this.confirmations,
        language: () => this.voiceLanguage(),
        wanted: anyAsks,
        questions: {
          waiting: (session) => this.elicitations.waiting(session),
          cancelSession: (session) => this.elicitations.cancelSession(session),
        },
        taskText: (id, owner) => {
          const task = this.backgroundCalls.find(id, owner);
          return task ? taskText(this.voiceLanguage(), task, Date.now()) : undefined;
        },
      }),
      ...taskTools(
        this.backgroundCalls,
        () => this.voiceLanguage(),
        () => this.options.listEndpointTools === true || this.settings.endpoints.length > 0,
      ),
    ];
  }

  /**
   * How long a server's question waits for the user: until the shortest patience of the enabled
   * endpoints is nearly over (their answer time less 2 s), at most a minute; a minute without endpoints.
   */
  private elicitWaitMs(): number {
    const times = this.settings.endpoints.filter((e) => e.enabled !== false).map((e) => answerAfterMs(e) - 2000);
    return Math.max(1000, Math.min(60_000, ...times));
  }

  /**
   * The person's confirmation PIN: the user's, or one made now (the first time it is needed), kept
   * like the other secrets and shown only in the window. Never in anything the model reads.
   */
  private confirmationPin(): string {
    const { pin } = this.settings.confirmation;
    if (pin !== undefined) return pin;
    const made = newPin();
    // Made here: the person has not seen it yet (a PIN written in the config by hand has no `pinShown`, and is theirs).
    this.keepConfirmation({ pin: made, pinShown: false });
    this.log.info(
      `"ask first" now needs the person to say their confirmation PIN by voice (or Allow in the window); the model no longer gets a code it could confirm with by itself. A PIN was made for you: ${this.options.pinShownIn === 'configFile' ? 'it is in the config file (confirmation.pin); change it there' : 'see it in Settings, or change it there'}`,
    );
    return made;
  }

  /**
   * A call is about to ask for the PIN (made now if there is none): where the person finds it, while the
   * app made it and no window has shown it yet; undefined once they know it.
   */
  private pinFor(): 'window' | 'webPage' | 'configFile' | undefined {
    this.confirmationPin();
    return this.settings.confirmation.pinShown === false ? (this.options.pinShownIn ?? 'window') : undefined;
  }

  /**
   * The PIN section saved without the rest of a commit (no rebuild: nothing served depends on it), its
   * secret known to redaction at once. A store that cannot save keeps it for this run.
   */
  private keepConfirmation(confirmation: ConfirmationSettings): void {
    const next: Settings = { ...this.settings, confirmation };
    this.settings = next;
    this.updateSecrets();
    try {
      this.store.save(next);
    } catch (error) {
      this.log.warn(`could not save the confirmation PIN (it holds until the app stops): ${this.logBook.redact(String(error))}`);
    }
  }

  /** The calls waiting for Allow or Deny, as the window lists them. */
  private shownConfirmations() {
    return this.confirmations.pending().map((held) => commands.shownConfirmation(held, (text) => this.logBook.redact(text)));
  }

  private onCatalogChanged(): void {
    this.events.emit('catalog', this.hub.catalog());
    this.events.queueStatus();
    this.endpoints.catalogChanged();
  }

  private hubSettings() {
    return {
      naming: this.settings.naming,
      toolSets: this.settings.toolSets,
      maxMessageBytes: this.settings.limits.maxMessageBytes,
      argumentChecksOff: new Set(this.settings.servers.filter((s) => s.checkArguments === false).map((s) => s.name)),
      programs: programWords(this.settings.servers),
      language: resolveLanguage(this.settings.ui.language, systemLocale(this.options.env ?? process.env)),
    };
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
    // One endpoint, one owner: two connections with one token replace each other (the self-hosted relay then forgets both).
    const twice = addedDuplicate(this.settings.endpoints, valid.endpoints);
    if (twice)
      throw new Error(
        `Invalid settings at endpoints.${twice.index}.url: "${twice.endpoint.name}" is the same endpoint as "${twice.existing.name}" (the same address and token): xiaozhi keeps one connection per endpoint`,
      );
    this.store.save(valid);
    this.settings = valid;
    // Calls recorded so far are masked with the secrets they were made with, before those change.
    this.history.redactAll();
    this.updateSecrets();
    this.hub.updateSettings(this.hubSettings());
    // A held call whose tool is now "never" ends here, rather than waiting in the window for an Allow that would be refused.
    this.confirmations.recheck();
    void this.localServer.sync(this.running);
    this.events.queueStatus();
  }

  /** The settings' secrets, and the local server's tokens of this run (`--mcp-token`, or one made for it; each client's own). */
  private updateSecrets(): void {
    this.logBook.setSecrets([...secretValues(this.settings, this.options.env ?? process.env), ...this.localServer.currentTokens()]);
  }

  /** Each group of commands gets what it needs of the bridge, and nothing else. */
  private handlers(): commands.CommandHandlers<BridgeCommands> {
    const access = { settings: () => this.settings, commit: (next: Settings) => this.commit(next) };
    const { hub, history, logBook, log, servers, endpoints, localServer, host, store } = this;
    const { version, testListWaitMs, cacheDir, env } = this.options;
    const registryUrl = this.options.registryUrl ?? env?.XIAOZHI_TRAY_REGISTRY_URL ?? process.env.XIAOZHI_TRAY_REGISTRY_URL;
    const catalogue = new CatalogueService({ log, ...(cacheDir ? { cacheDir } : {}), ...(registryUrl ? { registryUrl } : {}) });
    const entryContext = commands.localEntryContext(localServer, host);
    return {
      ...commands.stateCommandHandlers({ ...access, hub, state: () => this.state(), start: () => this.start(), stop: () => this.stop() }),
      ...commands.endpointCommandHandlers({ ...access, endpoints, catalogs: endpoints.catalogs, hub, log, version, testListWaitMs }),
      ...commands.serverCommandHandlers({ ...access, servers, localServer, signIns: this.signIns, configDir: this.options.configDir }),
      ...commands.toolCommandHandlers({
        ...access,
        toolsOf: (server) => (server === this.builtins.name ? this.builtins : servers.require(server)),
      }),
      ...commands.preferenceCommandHandlers({ ...access, endpoints }),
      ...commands.callCommandHandlers({ hub, defaultTools: () => endpoints.catalogs.forSet(), logBook, history, activity: this.activity }),
      ...commands.taskCommandHandlers({ calls: this.backgroundCalls }),
      ...commands.confirmationCommandHandlers({
        ...access,
        confirmations: this.confirmations,
        revealPin: () => {
          const pin = this.confirmationPin();
          if (this.settings.confirmation.pinShown !== true) this.keepConfirmation({ pin, pinShown: true });
          return pin;
        },
        newPin,
        calls: this.backgroundCalls,
        answeredIn: () => (host.info().carrier === 'web' ? 'webUi' : 'window'),
        redact: (text) => logBook.redact(text),
      }),
      ...commands.elicitationCommandHandlers({ elicitations: this.elicitations }),
      ...commands.catalogueCommandHandlers({ ...access, catalogue }),
      ...commands.hostCommandHandlers({
        host,
        store,
        version,
        runtimes: () => runtimeAvailability(this.options.env ?? process.env, this.runtimes),
        onStatus: () => this.events.queueStatus(),
      }),
      ...commands.importExportCommandHandlers({ ...access, imports: this.imports, servers, endpoints, log, entryContext }),
      ...commands.toolSetCommandHandlers({ ...access, endpoints, hub, localServer, history, host, entryContext }),
      ...commands.modelCommandHandlers({ ...access, room: this.models }),
    };
  }
}
