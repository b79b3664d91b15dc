import type { Tool } from '@modelcontextprotocol/sdk/types.js';

import { countOf } from '../../../shared/count-words';
import type { Language } from '../../../shared/i18n/translate';
import { mirrorUrls } from '../../../shared/mirrors';
import type { Settings } from '../../../shared/settings';
import { findToolSet } from '../../../shared/settings';
import type { BridgeState } from '../../../shared/status';
import { type BuiltinTool, BuiltinTools } from '../hub/builtin/builtin-tools';
import { confirmTool } from '../hub/builtin/confirm-tool';
import { MAX_WRONG_PINS } from '../hub/builtin/confirmation-pin';
import { CONFIRM_WINDOW_MS, Confirmations } from '../hub/builtin/confirmations';
import { VoiceCalls } from '../hub/builtin/voice-calls';
import { Elicitations } from '../hub/elicitations';
import { type HubSettings, ToolHub } from '../hub/tool-hub';
import { toolPolicy } from '../hub/tool-policy';
import { ImportSessions } from '../import/import-sessions';
import { LocalServerController } from '../local-server/local-server-controller';
import { fleetPassthrough } from '../local-server/passthrough/fleet-servers';
import { appStateDir } from '../local-server/state-file';
import { ActivityLog } from '../logs/activity-log';
import { CallHistory } from '../logs/call-history';
import type { LogBook, Logger } from '../logs/log-book';
import { BackgroundCalls } from '../long-calls/background-calls';
import { answerAfterMs } from '../long-calls/patience';
import { taskTools } from '../long-calls/task-tools';
import { taskText } from '../long-calls/voice-texts';
import { ModelRoom } from '../models/model-room';
import { SignIns } from '../oauth/sign-ins';
import { FileVault, MemoryVault, type TokenVault } from '../oauth/token-vault';
import { callFailureCause } from '../problems/call-failure-cause';
import { RuntimeStore } from '../runtimes/runtime-store';
import type { ServerNotice } from '../servers/server-notice';
import { type Place, placeOf, placePreset } from '../system/system-locale';
import { APP_VERSION } from '../system/version';
import { BridgeEvents } from './bridge-events';
import type { BridgeHost, BridgeOptions } from './bridge-host';
import { catalogueTitles } from './catalogue-titles';
import { ChangeQueue } from './change-queue';
import { EndpointFleet } from './endpoint-fleet';
import { fleetCallPassthrough } from './fleet-calls';
import { ServerFleet, type ServerFleetOptions } from './server-fleet';

/** What the parts read of the bridge itself: its settings and the state only it changes. */
export interface BridgeOwn {
  settings(): Settings;
  running(): boolean;
  /** What xiaozhi's model is told in: the settings' language, one source for all. */
  voiceLanguage(): Language;
  /** The person's confirmation PIN, made the first time it is needed. */
  confirmationPin(): string;
  /** Where the person finds a PIN the app made and no window has shown yet. */
  pinFor(): 'window' | 'webPage' | 'configFile' | undefined;
  /** Saves the local server's token with the settings; false when the config is read-only. */
  saveLocalToken(token: string): boolean;
  /** Tells redaction the secrets of now. */
  updateSecrets(): void;
  state(): BridgeState;
  hubSettings(): HubSettings;
}

/** The bridge's collaborators, each made once, in the order below. */
export interface BridgeParts {
  /** Where this computer says it is, read once: the download sources and the window's host info use it. */
  readonly place: Place;
  readonly log: Logger;
  readonly history: CallHistory;
  readonly activity: ActivityLog;
  readonly events: BridgeEvents;
  /** Calls answered before they finished, going on in the background (every endpoint's). */
  readonly backgroundCalls: BackgroundCalls;
  /** Calls by voice in flight, by server: a server's question during one is put to its caller. */
  readonly voiceCalls: VoiceCalls;
  /** Calls by voice held until the user confirms them. */
  readonly confirmations: Confirmations;
  /** Servers' questions during a call (MCP elicitation), waiting for the user in the window. */
  readonly elicitations: Elicitations;
  readonly imports: ImportSessions;
  /** Node.js and uv fetched for servers whose runtime is missing (the desktop app; headless with --fetch-runtimes). */
  readonly runtimes: RuntimeStore | undefined;
  readonly oauthVault: TokenVault;
  readonly servers: ServerFleet;
  /** Remote servers' sign-ins (OAuth) under way. */
  readonly signIns: SignIns;
  /** What local sessions reach of the servers besides tools (resources, prompts, logs). */
  readonly passthrough: ReturnType<typeof fleetPassthrough>;
  /** The bridge's own tools: one more source of the hub, beside the servers. */
  readonly builtins: BuiltinTools;
  readonly hub: ToolHub;
  readonly endpoints: EndpointFleet;
  /** The user's chat model: "Try a sentence", and servers' sampling by voice (with consent). */
  readonly models: ModelRoom;
  readonly localServer: LocalServerController;
}

type ServerAsks = NonNullable<ServerFleetOptions['asks']>;

/**
 * Where a part made early reaches one made after it (the servers are made before the hub, the
 * sign-ins and the local server, which read them). Each link does nothing until `connectLinks` sets
 * it, at the end of the wiring: nothing starts in between, so nothing is missed.
 */
export class LateLinks {
  toolsChanged: () => void = () => {};
  statusChanged: () => void = () => {};
  serverNotice: (server: string, notice: ServerNotice) => void = () => {};
  serverAsk: ServerAsks['ask'] = () => undefined;
  taskStatus: ServerAsks['taskStatus'] = () => undefined;
  toolsNotified: () => void = () => {};
}

/** Makes the bridge's parts, each from parts made before it, then connects the links back. */
export function makeBridgeParts(options: BridgeOptions, host: BridgeHost, own: BridgeOwn): BridgeParts {
  const { logBook, env = process.env } = options;
  const redact = (text: string) => logBook.redact(text);
  const log = logBook.logger('app');
  const settings = () => own.settings();
  const stateDir = options.stateDir === null ? undefined : (options.stateDir ?? appStateDir());
  const links = new LateLinks();

  // What happened: calls, the activity (names only), and the events every UI hears.
  const history = new CallHistory(1000, redact, callFailureCause);
  // Kept where the local server's state file is (the app's data folder); tests without one keep it in memory.
  const activity = ActivityLog.inFolder(stateDir, (message) => log.warn(`could not save the activity: ${redact(message)}`));
  recordActivity(history, activity, logBook);
  const events = new BridgeEvents(history, log, () => own.state());
  const backgroundCalls = new BackgroundCalls({ redact });
  backgroundCalls.subscribe((task) => events.emit('task', task));

  // Questions to the person: held calls, and servers' questions during a call.
  const voiceCalls = new VoiceCalls();
  const confirmations = new Confirmations(() => own.confirmationPin(), options.confirmWindowMs);
  confirmations.onTooManyWrong = (session, cancelled) =>
    log.warn(
      `too many wrong confirmation PINs by voice (${MAX_WRONG_PINS} in a conversation, or many in all lately); ${countOf(cancelled, 'held call')} cancelled, and confirming by voice waits a while (session ${session.slice(0, 8)})`,
    );
  // Unanswered, a question is answered before the shortest caller's patience is over (so the tool still answers in time).
  // A yes/no question during a call by voice is put to its caller: the person's PIN says yes.
  const elicitations = new Elicitations(() => elicitWaitMs(settings()), redact, {
    calls: voiceCalls,
    language: () => own.voiceLanguage(),
    pinFor: () => own.pinFor(),
    pin: () => settings().confirmation.pin,
    waitMs: options.confirmWindowMs ?? CONFIRM_WINDOW_MS,
  });
  // The environment a file's ${env:…} may be filled from (when the user confirms it).
  const imports = new ImportSessions(env);

  // The servers, and what they need to start: runtimes, sign-in tokens.
  const onStatus = () => {
    events.queueStatus();
    links.statusChanged();
  };
  // Both fleets change one thing at a time, in one queue, and start nothing while the bridge is stopped.
  const fleet = { settings, logBook, running: () => own.running(), queue: new ChangeQueue(), onStatus };
  const { supervision, runtimesDir, runtimeIdleTimeoutMs, runtimePins, configDir, runtimesFetch } = options;
  // The download sources in use: the user's, else those the window's language or the time zone decide.
  const place = placeOf(env, options.locale);
  const sources = () => mirrorUrls(settings().mirrors, placePreset(settings().ui.language, place));
  const runtimes = runtimesDir
    ? new RuntimeStore({
        dir: runtimesDir,
        sources,
        ...(runtimeIdleTimeoutMs !== undefined ? { idleTimeoutMs: runtimeIdleTimeoutMs } : {}),
        ...(runtimePins ? { pins: runtimePins } : {}),
        fetchesOnStart: runtimesFetch !== 'onRequest',
      })
    : undefined;
  const oauthVault = options.oauthVault ?? (stateDir ? new FileVault(stateDir) : new MemoryVault());
  const servers = new ServerFleet({
    ...fleet,
    oauth: { vault: oauthVault, env },
    log,
    env,
    runtimes,
    ...(supervision ? { supervision } : {}),
    ...(configDir ? { configDir } : {}),
    onTools: () => links.toolsChanged(),
    elicit: (server, params, signal) => elicitations.ask(server, params, signal),
    asks: {
      ask: (server, method, params, signal) => links.serverAsk(server, method, params, signal),
      taskStatus: (server, params) => links.taskStatus(server, params),
    },
    onServerNotice: (server, notice) => links.serverNotice(server, notice),
    voiceLanguage: () => own.voiceLanguage(),
    sources,
  });
  const signIns = new SignIns({
    vault: oauthVault,
    env,
    settings,
    log,
    status: (name) => (servers.has(name) ? servers.require(name).status() : undefined),
    restart: (name) => servers.restart(name),
    openExternal: host.openExternal?.bind(host),
    ...(options.signInTimeoutMs !== undefined ? { timeoutMs: options.signInTimeoutMs } : {}),
  });
  // What servers ask during a local client's call goes to that client; MCP tasks pass through.
  const calls = fleetCallPassthrough(() => servers, history);
  const passthrough = fleetPassthrough(
    () => servers.all(),
    (id) => findToolSet(settings(), id),
  );

  // The tools: the bridge's own and the servers', in one hub; what each endpoint is served of them.
  const policyOf = (server: string, tool: Tool) =>
    toolPolicy(
      settings().servers.find((s) => s.name === server),
      tool,
    );
  const builtins = new BuiltinTools(
    builtinToolList({
      settings,
      own,
      servers,
      policyOf,
      confirmations,
      elicitations,
      backgroundCalls,
      listEndpointTools: options.listEndpointTools,
    }),
  );
  const hub = new ToolHub(
    {
      all: () => [builtins, ...servers.all()],
      named: (name) => (name === builtins.name ? builtins : servers.get(name)),
    },
    own.hubSettings(),
    history,
    log,
    {
      confirmations,
      policyOf,
      pinFor: () => own.pinFor(),
      pin: () => settings().confirmation.pin,
      calls: voiceCalls,
      serverTitle: catalogueTitles(settings),
    },
    redact,
  );
  const endpoints = new EndpointFleet({
    ...fleet,
    hub,
    history,
    toolMode: options.toolMode,
    defaultToolMode: options.defaultToolMode,
    startSettled: () => servers.graceSettled(),
    onToolsNotified: () => links.toolsNotified(),
    version: options.version,
    listChangedDebounceMs: options.listChangedDebounceMs,
    copies: options.copies,
    longCalls: {
      calls: backgroundCalls,
      language: () => own.voiceLanguage(),
      sessionClosed: (belongs) => confirmations.dropSession(belongs),
    },
  });
  const models = new ModelRoom({
    settings,
    hub,
    catalogs: endpoints.catalogs,
    calls: voiceCalls,
    log: logBook.logger('model'),
    redact,
    progress: (progress) => events.emit('sentenceCheck', progress),
    toolMode: options.toolMode,
  });
  const localServer = new LocalServerController({
    // Each client's set as a consumer sees it: a call of a tool whose server is still starting waits for it.
    toolSet: (id) => endpoints.catalogs.forSet(id),
    settings,
    log: logBook.logger('local-server'),
    version: options.version ?? APP_VERSION,
    stateDir,
    ...(options.localServer ? { overrides: options.localServer } : {}),
    saveToken: (token) => own.saveLocalToken(token),
    onStatus,
    onTokenChanged: () => own.updateSecrets(),
    calls,
    servers: passthrough,
  });

  // The links back, now that every part is made.
  links.toolsChanged = () => hub.rebuild();
  links.statusChanged = () => signIns.statusChanged();
  links.serverNotice = (server, notice) => passthrough.notify(server, notice);
  // No local client's call takes it: a call by voice in flight hears, with its result, that sampling was refused.
  links.serverAsk = (server, method, params, signal) => {
    const taken = calls.asks.ask(server, method, params, signal);
    if (taken !== undefined || method !== 'sampling/createMessage') return taken;
    // The user's model answers it, when they agreed to that.
    const answered = models.sampling.ask(server, params, signal);
    if (answered === undefined) voiceCalls.note(server, 'sampling');
    return answered;
  };
  links.taskStatus = (server, params) => calls.asks.taskStatus(server, params);
  links.toolsNotified = () => localServer.refreshSessions();

  return {
    place,
    log,
    history,
    activity,
    events,
    backgroundCalls,
    voiceCalls,
    confirmations,
    elicitations,
    imports,
    runtimes,
    oauthVault,
    servers,
    signIns,
    passthrough,
    builtins,
    hub,
    endpoints,
    models,
    localServer,
  };
}

/** Names only (no arguments or results), masked like everything that leaves the engine. */
function recordActivity(history: CallHistory, activity: ActivityLog, logBook: LogBook): void {
  history.observe((record) => {
    // A held call is a question to the user; its run (or denial) is the call the activity counts.
    if (record.outcome === 'held') return;
    const { time, server, outcome, durationMs } = record;
    activity.add({
      time,
      server,
      outcome,
      durationMs,
      originalTool: logBook.redactName(record.originalTool),
      caller: logBook.redactName(record.caller),
    });
  });
}

/**
 * How long a server's question waits for the user: until the shortest patience of the enabled
 * endpoints is nearly over (their answer time less 2 s), at most a minute; a minute without endpoints.
 */
export function elicitWaitMs(settings: Settings): number {
  const times = settings.endpoints.filter((e) => e.enabled !== false).map((e) => answerAfterMs(e) - 2000);
  return Math.max(1000, Math.min(60_000, ...times));
}

interface BuiltinParts {
  settings(): Settings;
  own: BridgeOwn;
  servers: ServerFleet;
  policyOf(server: string, tool: Tool): ReturnType<typeof toolPolicy>;
  confirmations: Confirmations;
  elicitations: Elicitations;
  backgroundCalls: BackgroundCalls;
  listEndpointTools: boolean | undefined;
}

/** The tools the bridge serves itself, one line each (each can be switched off in a tool set like any tool). */
function builtinToolList(parts: BuiltinParts): BuiltinTool[] {
  const { settings, own, servers, policyOf, confirmations, elicitations, backgroundCalls } = parts;
  const language = () => own.voiceLanguage();
  // Listed only while some tool asks for the PIN (window-only ones it cannot confirm): xiaozhi's tool budget is small.
  const anyAsks = () =>
    [...servers.all()].some((server) => server.enabled && server.knownTools.some((tool) => policyOf(server.name, tool) === 'ask'));
  return [
    confirmTool({
      confirmations,
      language,
      wanted: anyAsks,
      questions: {
        waiting: (session) => elicitations.waiting(session),
        cancelSession: (session) => elicitations.cancelSession(session),
      },
      taskText: (id, owner) => {
        const task = backgroundCalls.find(id, owner);
        return task ? taskText(language(), task, Date.now()) : undefined;
      },
    }),
    ...taskTools(backgroundCalls, language, () => parts.listEndpointTools === true || settings().endpoints.length > 0),
  ];
}
