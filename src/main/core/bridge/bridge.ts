import type { BridgeApi, BridgeCommands, EventName, EventPayload } from '../../../shared/bridge-api';
import type { ConfirmationSettings } from '../../../shared/confirmation-pin';
import { countOf } from '../../../shared/count-words';
import { addedDuplicate } from '../../../shared/endpoint-url';
import { type Language, resolveLanguage } from '../../../shared/i18n/translate';
import { problem } from '../../../shared/problem';
import { type Settings, SettingsSchema } from '../../../shared/settings';
import type { BridgeState } from '../../../shared/status';
import { firstIssue } from '../../../shared/zod-issue';
import { CatalogueService } from '../catalogue/catalogue-service';
import type { SettingsStore } from '../config/settings-store';
import type { BuiltinTools } from '../hub/builtin/builtin-tools';
import { newPin } from '../hub/builtin/confirmation-pin';
import type { Confirmations } from '../hub/builtin/confirmations';
import type { Elicitations } from '../hub/elicitations';
import type { ToolHub } from '../hub/tool-hub';
import { programWords } from '../hub/tool-names';
import type { ImportSessions } from '../import/import-sessions';
import type { LocalServerController } from '../local-server/local-server-controller';
import type { ActivityLog } from '../logs/activity-log';
import type { CallHistory } from '../logs/call-history';
import type { LogBook, Logger } from '../logs/log-book';
import type { BackgroundCalls } from '../long-calls/background-calls';
import type { ModelRoom } from '../models/model-room';
import type { SignIns } from '../oauth/sign-ins';
import { runtimeAvailability } from '../runtimes/child-runtime';
import type { RuntimeStore } from '../runtimes/runtime-store';
import { redactFailure, secretValues } from '../secrets/bridge-secrets';
import type { EndpointCatalogs } from '../serving/endpoint-catalogs';
import { namedLocale, type Place, placePreset, systemLocale } from '../system/system-locale';
import type { BridgeEvents } from './bridge-events';
import { type BridgeHost, type BridgeOptions, headlessHost } from './bridge-host';
import { makeBridgeParts } from './bridge-parts';
import * as commands from './commands';
import type { EndpointFleet } from './endpoint-fleet';
import type { ServerFleet } from './server-fleet';

export type { BridgeOptions } from './bridge-host';

/**
 * The engine's facade: owns the settings, the tool hub, the servers (a `ServerFleet`) and the
 * endpoint links (an `EndpointFleet`), starts and stops them, sends the events, and implements
 * the `BridgeApi` contract that every UI talks to (the commands live in `commands/`). One per process.
 * Its parts are made in `bridge-parts.ts`, each from the ones made before it.
 */
export class Bridge {
  readonly api: BridgeApi;
  private settings: Settings;
  private running = false;
  private readonly store: SettingsStore;
  /** Where this computer says it is (locale, time zone): read once, with the parts that use it. */
  private readonly place: Place;
  private readonly host: BridgeHost;
  private readonly logBook: LogBook;
  private readonly log: Logger;
  private readonly history: CallHistory;
  private readonly activity: ActivityLog;
  private readonly events: BridgeEvents;
  private readonly backgroundCalls: BackgroundCalls;
  private readonly confirmations: Confirmations;
  private readonly elicitations: Elicitations;
  private readonly imports: ImportSessions;
  private readonly runtimes: RuntimeStore | undefined;
  private readonly servers: ServerFleet;
  private readonly signIns: SignIns;
  private readonly builtins: BuiltinTools;
  private readonly hub: ToolHub;
  private readonly endpoints: EndpointFleet;
  private readonly models: ModelRoom;
  private readonly localServer: LocalServerController;

  constructor(private readonly options: BridgeOptions) {
    this.store = options.store;
    this.host = options.host ?? headlessHost;
    this.logBook = options.logBook;
    this.settings = SettingsSchema.parse(options.store.load());
    const parts = makeBridgeParts(options, this.host, {
      settings: () => this.settings,
      running: () => this.running,
      voiceLanguage: () => this.voiceLanguage(),
      confirmationPin: () => this.confirmationPin(),
      pinFor: () => this.pinFor(),
      saveLocalToken: (token) => {
        if (this.store.readOnly) return false;
        this.commit({ ...this.settings, localServer: { ...this.settings.localServer, token } });
        return true;
      },
      updateSecrets: () => this.updateSecrets(),
      state: () => this.state(),
      hubSettings: () => this.hubSettings(),
    });
    ({
      place: this.place,
      log: this.log,
      history: this.history,
      activity: this.activity,
      events: this.events,
      backgroundCalls: this.backgroundCalls,
      confirmations: this.confirmations,
      elicitations: this.elicitations,
      imports: this.imports,
      runtimes: this.runtimes,
      servers: this.servers,
      signIns: this.signIns,
      builtins: this.builtins,
      hub: this.hub,
      endpoints: this.endpoints,
      models: this.models,
      localServer: this.localServer,
    } = parts);
    this.confirmations.onChange(() => this.events.emit('confirmations', this.shownConfirmations()));
    this.elicitations.onChange(() => this.events.emit('elicitations', this.elicitations.list()));
    this.hub.onChange(() => this.onCatalogChanged());
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

  /** The system's language: the desktop app's locale, else the environment's (LANG). */
  private systemLocale(): string | undefined {
    return this.options.locale ?? systemLocale(this.options.env ?? process.env);
  }

  /** What xiaozhi's model is told in (errors, "still working on…", confirmations): the settings' language, one source for all. */
  private voiceLanguage(): Language {
    return this.hub.language;
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
    const inConfigFile = this.options.pinShownIn === 'configFile';
    this.log.info(
      `"ask first" now needs the person to say their confirmation PIN by voice (or Allow in the window); the model no longer gets a code it could confirm with by itself. A PIN was made for you: ${inConfigFile ? 'it is in the config file (confirmation.pin); change it there' : 'see it in Settings, or change it there'}`,
      problem('log.pinMade', { reason: inConfigFile ? 'configFile' : 'settings' }),
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
      language: resolveLanguage(this.settings.ui.language, this.systemLocale()),
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
      ...commands.preferenceCommandHandlers({ ...access, endpoints, servers, log }),
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
        runtimeDownload: this.runtimes !== undefined,
        place: () => ({
          // The page's own language (its browser's) where the run names none (LANG unset, C, POSIX).
          ...optionalLocale(this.options.locale ?? namedLocale(this.options.env ?? process.env)),
          unchosenMirrors: placePreset(this.settings.ui.language, this.place),
        }),
        onStatus: () => this.events.queueStatus(),
      }),
      ...commands.runtimeCommandHandlers({
        runtimes: this.runtimes,
        servers: () => this.state().servers,
        start: (name) => void servers.start(name).catch((error: unknown) => log.warn(`server ${name}: ${String(error)}`)),
        emit: (event) => this.events.emit('runtimeFetch', event),
        redact: (text) => logBook.redact(text),
      }),
      ...commands.importExportCommandHandlers({ ...access, imports: this.imports, servers, endpoints, log, entryContext }),
      ...commands.toolSetCommandHandlers({ ...access, endpoints, hub, localServer, history, host, entryContext }),
      ...commands.modelCommandHandlers({ ...access, room: this.models }),
    };
  }
}

const optionalLocale = (locale: string | undefined): { systemLocale?: string } => (locale === undefined ? {} : { systemLocale: locale });
