import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  type CallToolResult,
  type ElicitRequest,
  type ElicitResult,
  ErrorCode,
  LoggingMessageNotificationSchema,
  McpError,
  type Progress,
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
  ResourceUpdatedNotificationSchema,
  type Tool,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';

import type { MirrorUrls } from '../../../shared/mirrors';
import { type Problem, problem } from '../../../shared/problem';
import { packageMirror, RUNTIME_LABEL } from '../../../shared/runtime-need';
import type { McpServerSettings as ServerSettings } from '../../../shared/settings';
import type { ServerRuntime, ServerStatus, SkippedTool } from '../../../shared/status';
import { type CallSignal, toAbortSignal } from '../io/call-signal';
import type { Logger } from '../logs/log-book';
import { errorText } from '../problems/error-text';
import {
  boundedFailure,
  clip,
  crashFailure,
  earlyExitProblem,
  exitParams,
  exitProblem,
  type Failure,
  failureEnglish,
  foreignFailure,
  ProblemError,
  type ProcessExit,
  say,
} from '../problems/server-problems';
import { ServerUnavailableError } from '../problems/server-unavailable';
import { prepareChildRuntime, type RuntimeProvider } from '../runtimes/child-runtime';
import { CLIENT_INFO } from '../system/client-info';
import type { Attempt } from './attempt';
import { CallRelay } from './call-relay';
import { notYetInstalled, type PackageRun, packageRun, saysInstalling } from './first-run';
import { ReadBufferOverflow } from './lean-read-buffer';
import { ListChanges } from './list-changes';
import { permanentFailure, WatchedClient } from './permanent-failure';
import { killTreesSync, listDescendants } from './process-tree';
import { ProtocolNegotiation } from './protocol-negotiation';
import { registryUnreachable } from './registry-failure';
import type { FailureKind } from './restart-policy';
import { askedCapabilities, installServerAsks, type ServerAsks } from './server-asks';
import type { ServerNotice } from './server-notice';
import { tearDownServer } from './server-teardown';
import { makeTransport, stdioPid, type TransportContext } from './server-transport';
import { packageNotFound, spawnFailure, systemLimit } from './spawn-failure';
import { StderrLog } from './stderr-log';
import { SupervisedServer } from './supervised-server';
import { defaultSupervision, type Supervision } from './supervision';
import { type AttemptState, Supervisor } from './supervisor';
import { callAsTask, callsAsTask } from './task-call';
import { listAllTools, skippedStatus, skippedWarning, type ToolList } from './tool-list';

// Where the timings of supervision are defined; re-exported for the rooms that configure them.
export { defaultSupervision, type Supervision } from './supervision';

/** How long a first run's install must last before the log says how long it is given. */
const INSTALL_NOTE_AFTER_MS = 2000;

export interface ChildServerOptions {
  settings: ServerSettings;
  log: Logger;
  /** The environment children start from (the user's, with the login shell's PATH). */
  baseEnv: NodeJS.ProcessEnv;
  /** Read at each call and each connect, so a change in Settings applies without a restart. */
  defaults: () => {
    callTimeoutMs: number;
    backgroundTimeoutMs?: number;
    modelscopeApiKey?: string;
    mirrorEnv?: Record<string, string>;
    /** The download sources chosen: a missing runtime's install command uses them. */
    mirrorUrls?: MirrorUrls;
  };
  supervision?: Partial<Supervision>;
  /** Fetches Node.js or uv for a server whose runtime is missing (the desktop app); none: the server fails saying how to install it. */
  runtimes?: RuntimeProvider | undefined;
  onStatus: () => void;
  onTools: () => void;
  /** A restart attempt began (after a crash or a lost connection); it settles when up or failed. */
  onAttempt?: (attempt: Promise<void>) => void;
  /** Puts a server's question during a call (elicitation/create) to the user; absent: the client offers no elicitation. */
  elicit?: (server: string, params: ElicitRequest['params'], signal: AbortSignal) => Promise<ElicitResult>;
  /** Takes what a server asks during a local client's call (sampling, elicitation, roots) to that client. */
  asks?: ServerAsks;
  /** Where remote servers' sign-ins (OAuth) are kept; none: a server asking for one is refused. */
  oauth?: TransportContext['oauth'];
  /** What the server announces besides its tools (resources, prompts, log messages), and its coming up or going down. */
  onServerNotice?: (notice: ServerNotice) => void;
}

export interface CallOptions {
  signal?: CallSignal | undefined;
  timeoutMs?: number;
  /** The call may go on in the background: bounded by the background limit, not the call timeout. */
  background?: boolean | undefined;
  /** The caller asked for progress: the server's progress notifications of this call come here. */
  onProgress?: ((progress: Progress) => void) | undefined;
}

/** Lines of stdout that are not JSON logged (at debug level) per attempt, after the warning. */
const NOT_JSON_DEBUG_LINES = 10;

/**
 * One configured MCP server: spawns or connects to it, lists its tools, keeps it alive. The state
 * machine lives here; the transport (`server-transport.ts`), the decision to try again
 * (`restart-policy.ts`) and the clean-up of its processes (`server-teardown.ts`) each have a file.
 */
export class ChildServer extends SupervisedServer {
  readonly name: string;
  private settings: ServerSettings;
  private readonly opts: ChildServerOptions;
  private readonly supervision: Supervision;

  /** State, restarts, the last failure and the attempts, one at a time (`supervisor.ts`). */
  protected readonly life: Supervisor;
  private tools: Tool[] = [];
  /** Tools that may or must be called as MCP tasks, by name (most servers have none). */
  private taskTools = new Map<string, Tool>();
  /** The last list this server gave in this run, kept while it is down: names are decided from it. */
  private lastListed: Tool[] = [];
  /** Tools the server listed that are not served, and the warning last logged about them (said once). */
  private skipped: SkippedTool[] = [];
  private skippedSaid = '';
  private readonly stderr: StderrLog;
  /** Why the transport broke, when it knows better than "the connection closed". */
  private transportFault: Problem | undefined;
  /** How this attempt's stdio process ended, once it has. */
  private exit: ProcessExit | undefined;
  /** The attempt under way of a server started by a package runner: what it runs, and how to give it longer. */
  private startWatch: { attempt: Attempt; run: PackageRun; giveLonger: () => void } | undefined;
  /** Set while a first run downloads or installs its package. */
  private installing: PackageRun | undefined;
  /** Whose runtime runs this stdio server's program (and the app's download's progress while it fetches one). */
  private runtime: ServerRuntime | undefined;
  /** The app's runtime's folder, first on this attempt's PATH. */
  private pathPrefix: string | undefined;

  private client: Client | undefined;
  private transport: Transport | undefined;
  /** stdio servers: tools/call relayed below the SDK's Protocol (see call-relay.ts). */
  private relay: CallRelay | undefined;
  private pid: number | undefined;
  private knownDescendants: number[] = [];
  /** Processes of an old client still being torn down (so that `killNow` can reach them too). */
  private dying = new Set<number>();
  /** Lists asked for, and the order of the latest taken: an older list never replaces a newer one. */
  private listsAsked = 0;
  private listTaken = 0;
  /** The tool list changes announced on the current connection, paced for the attempt that owns them. */
  private listChanges: { attempt: Attempt; changes: ListChanges } | undefined;

  constructor(opts: ChildServerOptions) {
    super();
    this.opts = opts;
    this.settings = opts.settings;
    this.name = opts.settings.name;
    this.supervision = { ...defaultSupervision, ...opts.supervision };
    this.life = new Supervisor({
      log: opts.log,
      supervision: this.supervision,
      run: (attempt, state) => this.connect(attempt, state),
      onStatus: () => this.opts.onStatus(),
      onAvailability: () => this.opts.onServerNotice?.({ kind: 'availability' }),
      onAttempt: opts.onAttempt,
    });
    // A server that crash-loops shows why while it loops, not only once it is marked failed.
    this.stderr = new StderrLog(opts.log, {
      onLine: (line) => {
        if (this.startWatch && !this.installing && saysInstalling(line)) this.markInstalling(this.startWatch.attempt);
        if (this.life.state === 'restarting' || this.life.state === 'starting') this.opts.onStatus();
      },
    });
  }

  get config(): ServerSettings {
    return this.settings;
  }

  get currentTools(): readonly Tool[] {
    return this.tools;
  }

  /** Its tools as last listed, whether it is up or not (empty until it first listed them). */
  get knownTools(): readonly Tool[] {
    return this.lastListed;
  }

  /** Configured to run: its tools count for names even while it is down. */
  get enabled(): boolean {
    return this.settings.enabled;
  }

  get isRunning(): boolean {
    return this.life.state === 'running';
  }

  /** The connected SDK client while running (for passthrough of what is not tools). */
  get sdkClient(): Client | undefined {
    return this.life.state === 'running' ? this.client : undefined;
  }

  status(): ServerStatus {
    // From the spawn on: a server still starting has a process too (the watchdog must know it).
    const pid = this.pid ?? stdioPid(this.transport);
    return {
      ...this.lifeStatus(this.settings, failureEnglish),
      toolCount: this.tools.length,
      stderrTail: this.stderr.lines(),
      ...(this.installing ? { installing: { ...this.installing } } : {}),
      ...(pid !== undefined ? { pid } : {}),
      ...(this.runtime ? { runtime: this.runtime } : {}),
      ...skippedStatus(this.skipped),
    };
  }

  async stop(): Promise<void> {
    this.life.end();
    const ended = this.life.attempt;
    // A download of its runtime goes on (another server may wait for it), but is no longer this server's to show.
    if (this.runtime?.fetching) this.runtime = undefined;
    const hadTools = this.tools.length > 0;
    await this.teardown();
    // A start begun meanwhile (a second Restart pressed while this stop tore down) is not marked stopped:
    // the next start would take it for stopped and begin another, leaving this one's process behind.
    if (this.life.attempt === ended) this.life.setState('stopped');
    if (hadTools) this.opts.onTools();
  }

  /** Kills this server's process trees now, synchronously: for a process that must exit at once. */
  killNow(): void {
    const pid = this.pid ?? stdioPid(this.transport);
    killTreesSync([...(pid !== undefined ? [pid] : []), ...this.knownDescendants, ...this.dying]);
  }

  async restart(): Promise<void> {
    await this.stop();
    await this.start();
  }

  callTool(name: string, args: Record<string, unknown>, options: CallOptions = {}): Promise<CallToolResult> {
    if (this.taskTools.size > 0 && this.client && this.life.state === 'running' && callsAsTask(this.client, this.taskTools.get(name))) {
      const timeout = this.callTimeout(options);
      // A task's end is the server's to say: bounded as a whole by the longer of the call timeout and half an hour.
      return callAsTask(this.client, name, args, { ...options, requestTimeoutMs: timeout, totalTimeoutMs: Math.max(timeout, 30 * 60_000) });
    }
    // The relay's path, without the SDK path's retry wrapper (stdio has no sessions to expire).
    if (this.relay && this.life.state === 'running') {
      return this.relay.call(name, args, { timeoutMs: this.callTimeout(options), signal: options.signal, onProgress: options.onProgress });
    }
    return this.callThroughSdk(name, args, options);
  }

  /** Read at each call, so a change in Settings applies without a restart. */
  private callTimeout(options: CallOptions): number {
    const defaults = this.opts.defaults();
    return (
      options.timeoutMs ??
      this.settings.callTimeoutMs ??
      (options.background ? defaults.backgroundTimeoutMs : undefined) ??
      defaults.callTimeoutMs
    );
  }

  private async callThroughSdk(name: string, args: Record<string, unknown>, options: CallOptions): Promise<CallToolResult> {
    const attempt = async (): Promise<CallToolResult> => {
      const client = this.client;
      if (!client || this.life.state !== 'running') throw new ServerUnavailableError(this.name, this.life.state);
      const timeout = this.callTimeout(options);
      // Remote servers stay on the SDK's path: HTTP costs far more than the Protocol does there.
      return (await client.callTool({ name, arguments: args }, undefined, {
        ...(options.signal ? { signal: toAbortSignal(options.signal) } : {}),
        ...(options.onProgress ? { onprogress: options.onProgress } : {}),
        timeout,
        maxTotalTimeout: timeout,
      })) as CallToolResult;
    };
    try {
      return await attempt();
    } catch (error) {
      // A streamable-HTTP session the server forgot (restart, expiry) answers 404: start a new one, once.
      if (error instanceof StreamableHTTPError && error.code === 404) {
        this.opts.log.warn('session expired (HTTP 404); reconnecting');
        await this.reconnectNow();
        return attempt();
      }
      throw error;
    }
  }

  private async reconnectNow(): Promise<void> {
    this.life.end();
    await this.teardown();
    await this.life.retryNow();
  }

  /** What the transport of `attempt` tells this server (silent once the attempt is over). */
  private transportContext(attempt: Attempt): TransportContext {
    const current = () => attempt.live;
    return {
      baseEnv: this.opts.baseEnv,
      ...(this.pathPrefix !== undefined ? { pathPrefix: this.pathPrefix } : {}),
      modelscopeApiKey: this.opts.defaults().modelscopeApiKey,
      mirrorEnv: this.opts.defaults().mirrorEnv ?? {},
      maxRemoteMessageBytes: this.supervision.maxRemoteMessageBytes,
      onStderrLine: (line) => this.stderr.push(line),
      onSpawned: () => this.opts.onStatus(),
      onExit: (exit) => {
        if (current()) this.exit = exit;
      },
      onHeldOutput: () => {
        if (current()) say(this.opts.log, 'warn', problem('server.outputHeld', exitParams(this.exit)));
      },
      onTooBig: (tooBig) => {
        // The transport would only retry its stream: drop this server's connection, as for a crash.
        if (current() && this.life.state === 'running') void this.fail({ problem: tooBig }, 'crash');
        else if (current()) this.transportFault = tooBig;
      },
      oauth: this.opts.oauth,
      // A sign-in that ran out while it ran (the refresh refused): stop for the user, said once.
      onSignInNeeded: (stop) => {
        if (current() && this.life.state === 'running') void this.fail({ problem: stop }, 'permanent');
      },
    };
  }

  private async connect(attempt: Attempt, state: AttemptState): Promise<void> {
    this.life.setState(state);
    this.stderr.newAttempt(state === 'restarting');
    this.exit = undefined;
    this.transportFault = undefined;
    if (!(await this.prepareRuntime(attempt))) return;
    let transport: Transport;
    try {
      transport = makeTransport(this.settings, this.transportContext(attempt));
    } catch (error) {
      // The same settings would fail the same way at every attempt.
      const bad = permanentFailure(error);
      await this.fail(bad ? { problem: bad } : foreignFailure(error), 'permanent');
      return;
    }
    const elicit = this.opts.elicit;
    const client = new WatchedClient(CLIENT_INFO, { capabilities: askedCapabilities(elicit, this.opts.asks) });
    installServerAsks(client, this.name, elicit, this.opts.asks);
    const { initialize } = client;
    this.client = client;
    this.transport = transport;
    let notJson = 0;
    client.onerror = (error) => {
      if (!attempt.live) return;
      if (error instanceof ReadBufferOverflow) {
        // The SDK drops the stream and closes: say why, where the user looks (status, not debug).
        this.transportFault = error.problem;
        say(this.opts.log, 'warn', error.problem);
      } else if (error instanceof SyntaxError) {
        // A line of stdout that is not JSON (a banner, print() logging): said once where the user
        // looks, then a few at debug level, not one log line per line of a flood.
        if (notJson++ === 0)
          this.opts.log.warn(
            `printed text that is not JSON on stdout (it was skipped; logs belong on stderr): ${error.message}`,
            problem('log.stdoutNotJson', { error: error.message }),
          );
        else if (notJson <= NOT_JSON_DEBUG_LINES) this.opts.log.debug(`transport: ${error.message}`);
      } else this.opts.log.debug(`transport: ${error.message}`);
    };
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      if (attempt.live) this.changesOf(client, attempt).announced();
    });
    const notice = (made: ServerNotice) => {
      if (attempt.live) this.opts.onServerNotice?.(made);
    };
    client.setNotificationHandler(ResourceListChangedNotificationSchema, () => notice({ kind: 'resources' }));
    client.setNotificationHandler(PromptListChangedNotificationSchema, () => notice({ kind: 'prompts' }));
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => notice({ kind: 'updated', uri: n.params.uri }));
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => notice({ kind: 'log', params: n.params }));

    let timer: NodeJS.Timeout | undefined;
    const startedAt = Date.now();
    try {
      const timeout = new Promise<never>((_, reject) => {
        const arm = (ms: number) => {
          clearTimeout(timer);
          timer = setTimeout(
            () => reject(new ProblemError(problem('server.startTimeout', { seconds: Math.round(ms / 100) / 10, ...this.mirrorInUse() }))),
            Math.max(0, startedAt + ms - Date.now()),
          );
        };
        arm(this.supervision.startTimeoutMs);
        this.watchFirstRun(attempt, () => arm(this.installTimeoutMs()));
      });
      await Promise.race([
        (async () => {
          // The SDK gives `initialize` 60 s of its own; a first run's install may take longer, and
          // the race below bounds the start (start or install timeout) in its place.
          const wire = new ProtocolNegotiation(transport);
          await client.connect(wire, { timeout: this.installTimeoutMs() });
          if (wire.modernVersion) this.opts.log.info(`speaks MCP ${wire.modernVersion} (not the 2025 protocol)`);
          if (this.settings.transport === 'stdio') {
            this.pid = stdioPid(transport);
            if (attempt.live) this.relay = new CallRelay(wire, this.opts.log);
          }
          const list = await this.readTools(client);
          // A start that timed out may still finish listing: its tools are no longer this server's.
          if (attempt.live) this.takeTools(list);
        })(),
        timeout,
      ]);
    } catch (error) {
      if (!attempt.live) return;
      const s = this.settings;
      // Retrying cannot help a program that is not there, refused credentials or a protocol we do not speak.
      const notRunnable =
        (s.transport === 'stdio' ? (spawnFailure(error, s) ?? packageNotFound(this.stderr.lines())) : undefined) ??
        permanentFailure(error, initialize);
      const busy = s.transport === 'stdio' ? systemLimit(error) : undefined;
      if (notRunnable) await this.fail({ problem: notRunnable }, 'permanent');
      else if (busy) await this.fail({ problem: busy }, 'resources');
      else {
        const failure = this.startFailure(error);
        await this.fail(failure, failure.problem.code === 'server.registryUnreachable' ? 'network' : 'crash');
      }
      return;
    } finally {
      clearTimeout(timer);
      if (this.startWatch?.attempt === attempt) this.startWatch = undefined;
    }
    if (!attempt.live) return;
    // Only now: a failure during connect is reported by the connect itself, with its real cause.
    client.onclose = attempt.guard(() => void this.fail(this.lossFailure(), 'crash'));

    this.installing = undefined;
    const version = client.getServerVersion();
    say(
      this.opts.log,
      'info',
      problem('server.running', {
        ...(this.pid !== undefined ? { pid: this.pid } : {}),
        name: clip(version?.name ?? ''),
        version: clip(version?.version ?? ''),
        tools: this.tools.length,
      }),
    );
    this.life.up({ forgetFailures: false });
    this.opts.onTools();
    if (this.pid !== undefined) void this.snapshotDescendants(attempt);
    if (this.settings.transport !== 'stdio' && this.supervision.healthIntervalMs > 0) {
      attempt.interval(() => {
        client.ping({ timeout: Math.min(10_000, this.supervision.healthIntervalMs) }).catch((error: unknown) => {
          if (attempt.live) void this.fail({ problem: problem('server.pingFailed', { detail: errorText(error) }) }, 'crash');
        });
      }, this.supervision.healthIntervalMs);
    }
  }

  /**
   * The runtime this attempt's program needs (stdio only): the user's, or the app's, fetched now if
   * it is missing (before the start's deadline runs). False when the attempt is over: stopped
   * meanwhile, or failed (missing with no way to fetch it, or the download failed).
   */
  private async prepareRuntime(attempt: Attempt): Promise<boolean> {
    const s = this.settings;
    if (s.transport !== 'stdio') return true;
    try {
      const sources = this.opts.defaults().mirrorUrls ?? {};
      const prepared = await prepareChildRuntime(s, this.opts.baseEnv, this.opts.runtimes, sources, (fetching) => {
        if (!attempt.live) return;
        if (!this.runtime?.fetching)
          say(
            this.opts.log,
            'info',
            problem('server.fetchingRuntime', { runtime: RUNTIME_LABEL[fetching.name], version: fetching.version ?? '' }),
          );
        this.runtime = fetching;
        this.opts.onStatus();
      });
      if (!attempt.live) return false;
      if (this.runtime?.fetching && prepared.runtime?.version)
        say(
          this.opts.log,
          'info',
          problem('server.runtimeReady', { runtime: RUNTIME_LABEL[prepared.runtime.name], version: prepared.runtime.version }),
        );
      this.runtime = prepared.runtime;
      this.pathPrefix = prepared.pathPrefix;
      return true;
    } catch (error) {
      if (!attempt.live) return false;
      if (this.runtime?.fetching) this.runtime = { name: this.runtime.name, from: 'app' };
      const said =
        error instanceof ProblemError ? error.problem : problem('server.runtimeDownloadFailed', { runtime: '', reason: errorText(error) });
      // A missing runtime stays missing, as does a folder others can write to; a download may pass next time (and resumes where it stopped).
      const lasting = said.code === 'server.runtimeMissing' || said.code === 'server.runtimeFolderUnsafe';
      await this.fail({ problem: said }, lasting ? 'permanent' : 'crash');
      return false;
    }
  }

  /** Why a start failed: what the transport knew, how the program ended, our own deadline, or the foreign error. */
  private startFailure(error: unknown): Failure {
    if (this.transportFault) return { problem: this.transportFault };
    const s = this.settings;
    // npx or uvx that could not download the package: the network (or a mirror) is the cause, not the program.
    const offline = s.transport === 'stdio' ? registryUnreachable(this.stderr.lines()) : undefined;
    // With a mirror chosen, the one out of reach is likely it: the advice names it rather than say to choose it.
    if (offline) return { problem: { ...offline, params: { ...offline.params, ...this.mirrorInUse() } } };
    if (s.transport === 'stdio' && error instanceof McpError && error.code === ErrorCode.ConnectionClosed) {
      const exit = this.exit;
      const said = this.errorLineOf(exit);
      return said ? crashFailure(said, exit, true) : { problem: earlyExitProblem(exit, this.stderr.last ?? '') };
    }
    if (error instanceof ProblemError) return { problem: error.problem };
    return foreignFailure(error, s.transport === 'stdio' ? { command: s.command } : { url: s.url });
  }

  /** Why a running server's connection closed: what the transport knew, or how the program ended. */
  private lossFailure(): Failure {
    if (this.transportFault) return { problem: this.transportFault };
    const exit = this.exit;
    if (!exit) return { problem: problem('server.closed') };
    const said = this.errorLineOf(exit);
    return said ? crashFailure(said, exit, false) : { problem: exitProblem(exit) };
  }

  /** The mirror this server's package runner downloads from, named in a timeout's advice (it may be the one out of reach). */
  private mirrorInUse(): { source: string; advice: 'mirror' } | Record<string, never> {
    const s = this.settings;
    const mirror = s.transport === 'stdio' ? packageMirror(s.command, process.platform, this.opts.defaults().mirrorUrls ?? {}) : undefined;
    return mirror ? { source: new URL(mirror).host, advice: 'mirror' } : {};
  }

  private installTimeoutMs(): number {
    return Math.max(this.supervision.startTimeoutMs, this.supervision.installTimeoutMs);
  }

  /** For a server started by a package runner: notices a first run (runner output, package not cached) while this attempt starts. */
  private watchFirstRun(attempt: Attempt, giveLonger: () => void): void {
    const s = this.settings;
    if (s.transport !== 'stdio') return;
    const run = packageRun(s.command, s.args);
    if (!run) return;
    this.startWatch = { attempt, run, giveLonger };
    void notYetInstalled(run, { ...this.opts.baseEnv, ...s.env }, s.cwd).then(
      (missing) => {
        if (missing) this.markInstalling(attempt);
      },
      () => undefined,
    );
  }

  /** `attempt` is a first run downloading its package: say so, and wait for it longer. */
  private markInstalling(attempt: Attempt): void {
    const watch = this.startWatch;
    if (!watch || watch.attempt !== attempt || !attempt.live || this.installing) return;
    this.installing = watch.run;
    watch.giveLonger();
    this.opts.onStatus();
    // "Waiting up to 10 min" only once the install lasts: a runner that fails at once (offline) would promise a wait it never gets.
    const run = watch.run;
    attempt.timeout(
      () => {
        if (this.installing !== run) return;
        const minutes = Math.round(this.installTimeoutMs() / 60_000);
        say(this.opts.log, 'info', problem('server.installing', { runner: run.runner, package: run.package ?? this.name, minutes }));
      },
      INSTALL_NOTE_AFTER_MS,
      { unref: true },
    );
  }

  /** The line its stderr gave as the reason it ended (not for a SIGKILL: the system's doing, whatever it printed before). */
  private errorLineOf(exit: ProcessExit | undefined): string | undefined {
    return exit && exit.signal !== 'SIGKILL' ? this.stderr.errorLine : undefined;
  }

  private async snapshotDescendants(attempt: Attempt): Promise<void> {
    if (this.pid === undefined) return;
    const pids = await listDescendants(this.pid);
    if (attempt.live) this.knownDescendants = pids;
  }

  /** The server's tools/list, or undefined when a list asked for later has been taken meanwhile. */
  private async readTools(client: Client): Promise<ToolList | undefined> {
    const order = ++this.listsAsked;
    const list = await listAllTools(client);
    if (order < this.listTaken) return undefined;
    this.listTaken = order;
    return list;
  }

  /** What paces and logs the announced changes of this connection: a new one for each attempt. */
  private changesOf(client: Client, attempt: Attempt): ListChanges {
    if (this.listChanges?.attempt === attempt) return this.listChanges.changes;
    const changes = new ListChanges({
      refresh: () => this.refreshTools(client, attempt),
      log: this.opts.log,
      everyMs: this.supervision.listChangedEveryMs,
      windowMs: this.supervision.listChangedLogWindowMs,
    });
    const listChanges = { attempt, changes };
    this.listChanges = listChanges;
    attempt.own(() => {
      changes.stop();
      if (this.listChanges === listChanges) this.listChanges = undefined;
    });
    return changes;
  }

  /** The listed tools as served; what was left out is said once (again only when it changes). */
  private takeTools(list: ToolList | undefined): void {
    if (!list) return;
    this.tools = list.tools;
    this.taskTools = new Map(list.tools.filter((tool) => tool.execution?.taskSupport !== undefined).map((tool) => [tool.name, tool]));
    this.lastListed = list.tools;
    this.skipped = list.skipped;
    const said = JSON.stringify([list.skipped, list.cutShort]);
    const warning = skippedWarning(list);
    if (warning && said !== this.skippedSaid) {
      const leftOut =
        list.skipped.length > 0 ? problem('server.toolsLeftOut', { count: list.skipped.length, served: list.tools.length }) : undefined;
      this.opts.log.warn(warning, leftOut);
    }
    this.skippedSaid = said;
  }

  /** The tools read again after an announced change: how many now (undefined: the list is of an older attempt). */
  private async refreshTools(client: Client, attempt: Attempt): Promise<number | undefined> {
    const list = await this.readTools(client);
    if (!list || !attempt.live) return undefined;
    this.takeTools(list);
    this.opts.onTools();
    this.opts.onStatus();
    return this.tools.length;
  }

  /**
   * The server failed (a crash, a lost connection, a start that failed, a failure no retry can
   * fix): clean up, then try again later or stay failed, as the restart policy says.
   */
  private async fail(failure: Failure, kind: FailureKind): Promise<void> {
    // The failed attempt ends here (its callbacks fall silent); the one begun owns the clean-up and the restart's timer.
    const cleanUp = this.life.begin();
    const hadTools = this.tools.length > 0;
    const ranForMs = this.life.ranFor();
    // Not running from now on: a call during the clean-up (seconds, with processes to stop) is
    // told the server is restarting, not that a "running" server is unavailable.
    if (kind !== 'permanent') this.life.setState('restarting');
    await this.teardown();
    if (!cleanUp.live) return;
    if (hadTools) this.opts.onTools();
    // A crash already says the line that tells why; otherwise the last one may help.
    const lastLine = this.stderr.last;
    const bounded = boundedFailure(failure);
    const said: Record<string, string> = lastLine !== undefined && bounded.problem.code !== 'server.crashed' ? { lastLine } : {};
    this.life.decide(bounded, kind, { givesUp: this.settings.transport === 'stdio', said }, ranForMs);
  }

  /** Closes the client and makes sure no process of this server is left. */
  private async teardown(): Promise<void> {
    const client = this.client;
    const transport = this.transport;
    const pid = this.pid;
    this.client = undefined;
    this.transport = undefined;
    this.relay = undefined;
    this.pid = undefined;
    this.tools = [];
    this.taskTools.clear();
    this.skipped = [];
    if (this.installing) {
      this.installing = undefined;
      this.opts.onStatus();
    }
    if (!client) return;
    const descendants = this.knownDescendants;
    this.knownDescendants = [];
    const spawned = pid ?? stdioPid(transport);
    const dying = new Set([...(spawned !== undefined ? [spawned] : []), ...descendants]);
    const remember = (pids: number[]) => pids.forEach((p) => (dying.add(p), this.dying.add(p)));
    remember([...dying]);
    try {
      await tearDownServer({ client, pid, descendants, stopGraceMs: this.supervision.stopGraceMs }, remember);
    } finally {
      for (const p of dying) this.dying.delete(p);
    }
  }
}
