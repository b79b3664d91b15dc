import type { ChildProcess } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { STDIO_DEFAULT_MAX_BUFFER_SIZE as STDIO_MAX_BUFFER } from '@modelcontextprotocol/sdk/shared/stdio.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ToolListChangedNotificationSchema, type CallToolResult, type Progress, type Tool } from '@modelcontextprotocol/sdk/types.js';
import type { ServerSettings } from '../../../shared/settings';
import type { ServerState, ServerStatus, SkippedTool } from '../../../shared/status';
import { Backoff } from '../backoff';
import type { Logger } from '../logs/log-book';
import { LineDecoder } from './line-decoder';
import { StderrLog } from './stderr-log';
import { spawnFailure, systemLimit } from './spawn-failure';
import { isAlive, killTree, killTreesSync, listDescendants, signalAll, waitForExit } from './process-tree';
import { remoteHeaders } from './remote-headers';
import { boundedFetch } from './bounded-fetch';
import { corkForThisTurn, type Corkable } from '../io/cork';
import { problem, type Problem } from '../../../shared/problem';
import { failureCause, failureText } from './failure-cause';
import { checkHeaders, permanentFailure, serverUrl, watchInitialize } from './permanent-failure';
import { notYetInstalled, packageRun, saysInstalling, type PackageRun } from './first-run';
import { CallRelay } from './call-relay';
import { useLeanReadBuffer } from './lean-read-buffer';
import { toAbortSignal, type CallSignal } from '../hub/call-signal';
import { listAllTools, skippedWarning, type ToolList } from './tool-list';
import { APP_VERSION } from '../version';

export interface Supervision {
  /** How long `initialize` + the first `tools/list` may take. */
  startTimeoutMs: number;
  /** The same, for a first run seen downloading or installing its package (`npx`, `uvx`…). */
  installTimeoutMs: number;
  restartBaseMs: number;
  restartMaxMs: number;
  /** This many crashes within `crashWindowMs` and a stdio server stays failed. */
  maxCrashes: number;
  crashWindowMs: number;
  /** Remote servers are pinged this often; a failed ping reconnects. 0 disables. */
  healthIntervalMs: number;
  /** Grace given to a stdio server to exit after its stdin closes, before it is killed. */
  stopGraceMs: number;
  /** A remote server's response or event past this size drops its connection (memory stays bounded). */
  maxRemoteMessageBytes: number;
}

export const defaultSupervision: Supervision = {
  startTimeoutMs: 60_000,
  installTimeoutMs: 600_000,
  restartBaseMs: 1_000,
  restartMaxMs: 30_000,
  maxCrashes: 5,
  crashWindowMs: 60_000,
  healthIntervalMs: 30_000,
  stopGraceMs: 2_000,
  maxRemoteMessageBytes: 16 * 1024 * 1024,
};

export interface ChildServerOptions {
  settings: ServerSettings;
  log: Logger;
  /** The environment children start from (the user's, with the login shell's PATH). */
  baseEnv: NodeJS.ProcessEnv;
  /** Read at each call and each connect, so a change in Settings applies without a restart. */
  defaults: () => { callTimeoutMs: number; modelscopeApiKey?: string };
  supervision?: Partial<Supervision>;
  onStatus: () => void;
  onTools: () => void;
  /** A restart attempt began (after a crash or a lost connection); it settles when up or failed. */
  onAttempt?: (attempt: Promise<void>) => void;
}

export interface CallOptions {
  signal?: CallSignal | undefined;
  timeoutMs?: number;
  /** The caller asked for progress: the server's progress notifications of this call come here. */
  onProgress?: ((progress: Progress) => void) | undefined;
}

interface ProcessExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** "exited with code 7", "was killed by SIGKILL": what a user needs to tell a crash, a kill (out of memory?) and a clean exit apart. */
const endedHow = (exit: ProcessExit) =>
  exit.code !== null ? `exited with code ${exit.code}` : `was killed by ${exit.signal ?? 'a signal'}`;

/** After a stdio server's process exits, how long its pipes may stay open (held by a process it started) before they are closed. */
const HELD_PIPE_GRACE_MS = 500;

/** Skipped tools the status carries (the count says how many there were in all). */
const MAX_SKIPPED_SHOWN = 20;

/** Lines of stdout that are not JSON logged (at debug level) per attempt, after the warning. */
const NOT_JSON_DEBUG_LINES = 10;

/** The bridge's own secrets in its environment: a child gets them only if configured for it. */
const PRIVATE_ENV = ['MCP_ENDPOINT', 'MODELSCOPE_API_TOKEN', 'XIAOZHI_TRAY_TOKEN', 'XIAOZHI_TRAY_MCP_TOKEN'];
const CLIENT_INFO = { name: 'xiaozhi-tray', version: APP_VERSION };

/** One configured MCP server: spawns or connects to it, lists its tools, keeps it alive. */
export class ChildServer {
  readonly name: string;
  private settings: ServerSettings;
  private readonly opts: ChildServerOptions;
  private readonly supervision: Supervision;
  private readonly backoff: Backoff;

  private state: ServerState = 'stopped';
  private since = Date.now();
  private tools: Tool[] = [];
  /** Tools the server listed that are not served, and the warning last logged about them (said once). */
  private skipped: SkippedTool[] = [];
  private skippedSaid = '';
  private restarts = 0;
  private lastError: string | undefined;
  private lastErrorCause: Problem | undefined;
  private readonly stderr: StderrLog;
  /** Why the transport broke, when it knows better than "the connection closed". */
  private transportFault: string | undefined;
  /** How this attempt's stdio process ended, once it has. */
  private exit: ProcessExit | undefined;
  private crashTimes: number[] = [];
  /** The attempt under way of a server started by a package runner: what it runs, and how to give it longer. */
  private startWatch: { generation: number; run: PackageRun; giveLonger: () => void } | undefined;
  /** Set while a first run downloads or installs its package. */
  private installing: PackageRun | undefined;

  private client: Client | undefined;
  private transport: Transport | undefined;
  /** stdio servers: tools/call relayed below the SDK's Protocol (see call-relay.ts). */
  private relay: CallRelay | undefined;
  private pid: number | undefined;
  private knownDescendants: number[] = [];
  /** Processes of an old client still being torn down (so that `killNow` can reach them too). */
  private dying = new Set<number>();
  /** Bumped on every (re)connect and on stop, so late events of an old client are ignored. */
  private generation = 0;
  private restartTimer: NodeJS.Timeout | undefined;
  private healthTimer: NodeJS.Timeout | undefined;
  private runningSince = 0;

  constructor(opts: ChildServerOptions) {
    this.opts = opts;
    this.settings = opts.settings;
    this.name = opts.settings.name;
    this.supervision = { ...defaultSupervision, ...opts.supervision };
    this.backoff = new Backoff(this.supervision.restartBaseMs, this.supervision.restartMaxMs);
    // A server that crash-loops shows why while it loops, not only once it is marked failed.
    this.stderr = new StderrLog(opts.log, {
      onLine: (line) => {
        if (this.startWatch && !this.installing && saysInstalling(line)) this.markInstalling(this.startWatch.generation);
        if (this.state === 'restarting' || this.state === 'starting') this.opts.onStatus();
      },
    });
  }

  get config(): ServerSettings {
    return this.settings;
  }

  get currentTools(): readonly Tool[] {
    return this.tools;
  }

  get isRunning(): boolean {
    return this.state === 'running';
  }

  status(): ServerStatus {
    // From the spawn on: a server still starting has a process too (the watchdog must know it).
    const pid = this.pid ?? stdioPid(this.transport);
    return {
      name: this.name,
      transport: this.settings.transport,
      enabled: this.settings.enabled,
      state: this.state,
      since: this.since,
      toolCount: this.tools.length,
      restarts: this.restarts,
      ...(this.lastError !== undefined ? { lastError: this.lastError } : {}),
      ...(this.lastErrorCause !== undefined ? { lastErrorCause: this.lastErrorCause } : {}),
      stderrTail: this.stderr.lines(),
      ...(this.installing ? { installing: { ...this.installing } } : {}),
      ...(pid !== undefined ? { pid } : {}),
      ...(this.skipped.length > 0 ? { skippedTools: this.skipped.slice(0, MAX_SKIPPED_SHOWN), skippedToolCount: this.skipped.length } : {}),
    };
  }

  /** Starts (or restarts from `failed`); returns once the first attempt has settled. */
  async start(): Promise<void> {
    if (this.state === 'running' || this.state === 'starting') return;
    this.clearTimers();
    this.crashTimes = [];
    this.backoff.reset();
    this.lastError = undefined;
    this.lastErrorCause = undefined;
    await this.connect('starting');
  }

  /**
   * The bridge is about to stop this server: from now on a lost connection is neither reported as
   * a crash nor restarted (a terminal's Ctrl+C reaches the whole process group, so the children
   * often exit before `stop()` gets to them). Synchronous, so nothing can slip in between.
   */
  windDown(): void {
    this.generation++;
    this.clearTimers();
  }

  async stop(): Promise<void> {
    this.generation++;
    this.clearTimers();
    const hadTools = this.tools.length > 0;
    await this.teardown();
    this.setState('stopped');
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
    // The relay's path, without the SDK path's retry wrapper (stdio has no sessions to expire).
    if (this.relay && this.state === 'running') {
      return this.relay.call(name, args, { timeoutMs: this.callTimeout(options), signal: options.signal, onProgress: options.onProgress });
    }
    return this.callThroughSdk(name, args, options);
  }

  /** Read at each call, so a change in Settings applies without a restart. */
  private callTimeout(options: CallOptions): number {
    return options.timeoutMs ?? this.settings.callTimeoutMs ?? this.opts.defaults().callTimeoutMs;
  }

  private async callThroughSdk(name: string, args: Record<string, unknown>, options: CallOptions): Promise<CallToolResult> {
    const attempt = async (): Promise<CallToolResult> => {
      const client = this.client;
      if (!client || this.state !== 'running') throw new ServerUnavailableError(this.name, this.state);
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
    this.generation++;
    this.clearTimers();
    await this.teardown();
    const attempt = this.connect('restarting');
    this.opts.onAttempt?.(attempt);
    await attempt;
  }

  private setState(state: ServerState): void {
    if (this.state === state) return;
    this.state = state;
    this.since = Date.now();
    this.opts.onStatus();
  }

  private clearTimers(): void {
    if (this.restartTimer) clearTimeout(this.restartTimer);
    if (this.healthTimer) clearInterval(this.healthTimer);
    this.restartTimer = undefined;
    this.healthTimer = undefined;
  }

  private makeTransport(): Transport {
    const s = this.settings;
    if (s.transport === 'stdio') {
      const env: Record<string, string> = {};
      for (const [key, value] of Object.entries(this.opts.baseEnv)) if (value !== undefined && !PRIVATE_ENV.includes(key)) env[key] = value;
      // Python on Windows prints in the console code page unless told otherwise.
      env.PYTHONIOENCODING ??= 'utf-8';
      Object.assign(env, s.env);
      const transport = new StdioClientTransport({
        command: s.command,
        args: s.args,
        env,
        stderr: 'pipe',
        ...(s.cwd ? { cwd: s.cwd } : {}),
      });
      useLeanReadBuffer(transport, STDIO_MAX_BUFFER);
      const decoder = new LineDecoder((line) => this.stderr.push(line), { gbkFallback: process.platform === 'win32' });
      transport.stderr?.on('data', (chunk: Buffer) => decoder.push(chunk));
      transport.stderr?.on('end', () => decoder.flush());
      // How the process ended: the SDK closes on 'close' and drops the code, which a user needs to
      // tell a crash (exit code 1), a kill (SIGKILL: out of memory?) and a clean exit apart. 'exit'
      // comes before 'close', so the reason is known when the connection is reported lost.
      const generation = this.generation;
      const start = transport.start.bind(transport);
      transport.start = async () => {
        await start();
        this.opts.onStatus();
        const child = (transport as unknown as { _process?: ChildProcess })._process;
        child?.once('exit', (code, signal) => {
          if (generation === this.generation) this.exit = { code, signal };
          // A process it started with its stdio (a helper whose output was not redirected) can hold
          // the pipes open after it died: they would never close, and the server would look alive,
          // its calls timing out, until that process ends. Close our ends, which ends the connection.
          const held = setTimeout(() => {
            if (generation === this.generation)
              this.opts.log.warn(
                `it ${this.exit ? endedHow(this.exit) : 'exited'}, but a process it started still holds its output open; closing the connection`,
              );
            for (const stream of [child.stdin, child.stdout, child.stderr]) stream?.destroy();
          }, HELD_PIPE_GRACE_MS);
          held.unref();
          child.once('close', () => clearTimeout(held));
        });
      };
      // Batch writes to the child's stdin per turn of the event loop (see corkForThisTurn); the SDK keeps the process private.
      const send = transport.send.bind(transport);
      transport.send = (message) => {
        corkForThisTurn((transport as unknown as { _process?: { stdin?: Corkable } })._process?.stdin);
        return send(message);
      };
      return transport;
    }
    const url = serverUrl(s.url);
    const headers = remoteHeaders(url, s.headers, this.opts.defaults().modelscopeApiKey);
    checkHeaders(headers);
    const generation = this.generation;
    const fetch = boundedFetch(this.supervision.maxRemoteMessageBytes, (message) => {
      // The transport would only retry its stream: drop this server's connection, as for a crash.
      if (generation === this.generation && this.state === 'running') void this.onLost(message);
      else this.transportFault = message;
    });
    return s.transport === 'sse'
      ? new SSEClientTransport(url, { requestInit: { headers }, fetch })
      : new StreamableHTTPClientTransport(url, { requestInit: { headers }, fetch });
  }

  private async connect(state: 'starting' | 'restarting'): Promise<void> {
    const generation = ++this.generation;
    this.setState(state);
    this.stderr.newAttempt();
    this.exit = undefined;
    let transport: Transport;
    try {
      transport = this.makeTransport();
    } catch (error) {
      // The same settings would fail the same way at every attempt.
      const bad = permanentFailure(error);
      await this.giveUp(bad?.message ?? errorText(error), bad?.cause ?? failureCause(error));
      return;
    }
    const client = new Client(CLIENT_INFO, { capabilities: {} });
    const initialize = watchInitialize(client);
    this.client = client;
    this.transport = transport;
    this.transportFault = undefined;
    let notJson = 0;
    client.onerror = (error) => {
      if (generation !== this.generation) return;
      if (/ReadBuffer exceeded/.test(error.message)) {
        // The SDK drops the stream and closes: say why, where the user looks (status, not debug).
        this.transportFault = `its output overflowed: it printed more than ${Math.round(STDIO_MAX_BUFFER / 1048576)} MB on stdout without a newline (a message too big, or logging on stdout instead of stderr)`;
        this.opts.log.warn(this.transportFault);
      } else if (error instanceof SyntaxError) {
        // A line of stdout that is not JSON (a banner, print() logging): said once where the user
        // looks, then a few at debug level, not one log line per line of a flood.
        if (notJson++ === 0)
          this.opts.log.warn(`printed text that is not JSON on stdout (it was skipped; logs belong on stderr): ${error.message}`);
        else if (notJson <= NOT_JSON_DEBUG_LINES) this.opts.log.debug(`transport: ${error.message}`);
      } else this.opts.log.debug(`transport: ${error.message}`);
    };
    client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
      if (generation !== this.generation) return;
      try {
        await this.refreshTools(client);
      } catch (error) {
        this.opts.log.warn(`could not refresh tools: ${errorText(error)}`);
      }
    });

    let timer: NodeJS.Timeout | undefined;
    const startedAt = Date.now();
    try {
      const timeout = new Promise<never>((_, reject) => {
        const arm = (ms: number) => {
          clearTimeout(timer);
          timer = setTimeout(
            () => reject(new Error(`did not answer initialize within ${ms} ms`)),
            Math.max(0, startedAt + ms - Date.now()),
          );
        };
        arm(this.supervision.startTimeoutMs);
        this.watchFirstRun(generation, () => arm(Math.max(this.supervision.startTimeoutMs, this.supervision.installTimeoutMs)));
      });
      await Promise.race([
        (async () => {
          await client.connect(transport);
          if (transport instanceof StdioClientTransport) {
            this.pid = transport.pid ?? undefined;
            if (generation === this.generation) this.relay = new CallRelay(transport, this.opts.log);
          }
          const list = await listAllTools(client);
          // A start that timed out may still finish listing: its tools are no longer this server's.
          if (generation === this.generation) this.takeTools(list);
        })(),
        timeout,
      ]);
    } catch (error) {
      if (generation !== this.generation) return;
      const notRunnable =
        (this.settings.transport === 'stdio' ? spawnFailure(error, this.settings) : undefined) ?? permanentFailure(error, initialize);
      if (notRunnable) {
        // Retrying cannot help a program that is not there, refused credentials or a protocol we do not speak: say so once.
        await this.giveUp(notRunnable.message, notRunnable.cause);
        return;
      }
      const busy = this.settings.transport === 'stdio' ? systemLimit(error) : undefined;
      if (busy) {
        await this.onLost(busy.message, busy.cause, { crashed: false });
        return;
      }
      const closed = /Connection closed/i.test(errorText(error));
      // Set by the process's 'exit' during the await above (TypeScript still sees the reset to undefined).
      const exit = this.exit as ProcessExit | undefined;
      const how = exit ? `, ${exit.code !== null ? `with exit code ${exit.code}` : `killed by ${exit.signal ?? 'a signal'}`}` : '';
      const early = closed && this.settings.transport === 'stdio' && this.transportFault === undefined;
      const said = early ? this.errorLineOf(exit) : undefined;
      const reason =
        this.transportFault ?? (early ? `the program exited before it was ready${how}${said ? `: ${said}` : ''}` : failureText(error));
      const s = this.settings;
      await this.onLost(
        reason,
        said
          ? problem('server.crashed', { line: said })
          : closed
            ? undefined
            : failureCause(error, s.transport === 'stdio' ? { command: s.command } : { url: s.url }),
      );
      return;
    } finally {
      clearTimeout(timer);
      if (this.startWatch?.generation === generation) this.startWatch = undefined;
    }
    if (generation !== this.generation) return;
    // Only now: a failure during connect is reported by the connect itself, with its real cause.
    client.onclose = () => {
      if (generation !== this.generation) return;
      const exit = this.transportFault === undefined ? this.exit : undefined;
      const said = this.errorLineOf(exit);
      void this.onLost(
        this.transportFault ?? (exit ? `the program ${endedHow(exit)}${said ? `: ${said}` : ''}` : 'the connection closed'),
        said ? problem('server.crashed', { line: said }) : undefined,
      );
    };

    this.runningSince = Date.now();
    this.lastError = undefined;
    this.lastErrorCause = undefined;
    this.installing = undefined;
    const version = client.getServerVersion();
    this.opts.log.info(
      `running${this.pid ? ` (pid ${this.pid})` : ''}: ${version?.name ?? 'server'} ${version?.version ?? ''}, ${this.tools.length} tools`.replace(
        /\s+,/,
        ',',
      ),
    );
    this.setState('running');
    this.opts.onTools();
    if (this.pid !== undefined) void this.snapshotDescendants(generation);
    if (this.settings.transport !== 'stdio' && this.supervision.healthIntervalMs > 0) {
      this.healthTimer = setInterval(() => {
        client.ping({ timeout: Math.min(10_000, this.supervision.healthIntervalMs) }).catch((error: unknown) => {
          if (generation === this.generation) void this.onLost(`ping failed: ${errorText(error)}`);
        });
      }, this.supervision.healthIntervalMs);
    }
  }

  /** For a server started by a package runner: notices a first run (runner output, package not cached) while this attempt starts. */
  private watchFirstRun(generation: number, giveLonger: () => void): void {
    const s = this.settings;
    if (s.transport !== 'stdio') return;
    const run = packageRun(s.command, s.args);
    if (!run) return;
    this.startWatch = { generation, run, giveLonger };
    void notYetInstalled(run, { ...this.opts.baseEnv, ...s.env }, s.cwd).then(
      (missing) => {
        if (missing) this.markInstalling(generation);
      },
      () => undefined,
    );
  }

  /** The attempt `generation` is a first run downloading its package: say so, and wait for it longer. */
  private markInstalling(generation: number): void {
    const watch = this.startWatch;
    if (!watch || watch.generation !== generation || generation !== this.generation || this.installing) return;
    this.installing = watch.run;
    watch.giveLonger();
    const minutes = Math.round(Math.max(this.supervision.startTimeoutMs, this.supervision.installTimeoutMs) / 60_000);
    this.opts.log.info(
      `first run: ${watch.run.runner} is downloading and installing ${watch.run.package ?? 'the server'}; it is given up to ${minutes} min to start`,
    );
    this.opts.onStatus();
  }

  /** The line its stderr gave as the reason it ended (not for a SIGKILL: the system's doing, whatever it printed before). */
  private errorLineOf(exit: ProcessExit | undefined): string | undefined {
    return exit && exit.signal !== 'SIGKILL' ? this.stderr.errorLine : undefined;
  }

  private async snapshotDescendants(generation: number): Promise<void> {
    if (this.pid === undefined) return;
    const pids = await listDescendants(this.pid);
    if (generation === this.generation) this.knownDescendants = pids;
  }

  /** The listed tools as served; what was left out is said once (again only when it changes). */
  private takeTools(list: ToolList): void {
    this.tools = list.tools;
    this.skipped = list.skipped;
    const said = JSON.stringify([list.skipped, list.cutShort]);
    const warning = skippedWarning(list);
    if (warning && said !== this.skippedSaid) this.opts.log.warn(warning);
    this.skippedSaid = said;
  }

  private async refreshTools(client: Client): Promise<void> {
    this.takeTools(await listAllTools(client));
    this.opts.log.info(`tool list changed: ${this.tools.length} tools`);
    this.opts.onTools();
    this.opts.onStatus();
  }

  /** A failure no retry can fix (the program is not there, credentials refused…): failed now, until the user acts. */
  private async giveUp(reason: string, cause: Problem): Promise<void> {
    ++this.generation;
    this.clearTimers();
    await this.teardown();
    this.lastError = reason;
    this.lastErrorCause = cause;
    this.opts.log.error(`${reason}; not retrying until it is restarted`);
    this.setState('failed');
  }

  /**
   * The server went away (crash, network, failed start): clean up and decide whether to try again.
   * `crashed: false` for a failure that is not the server's (a spawn refused for lack of resources):
   * it is retried with backoff but never counts towards giving up.
   */
  private async onLost(reason: string, cause?: Problem, { crashed = true }: { crashed?: boolean } = {}): Promise<void> {
    const generation = ++this.generation;
    this.clearTimers();
    const hadTools = this.tools.length > 0;
    const wasRunningFor = this.runningSince ? Date.now() - this.runningSince : 0;
    this.runningSince = 0;
    // Not running from now on: a call during the clean-up (seconds, with processes to stop) is
    // told the server is restarting, not that a "running" server is unavailable.
    this.setState('restarting');
    await this.teardown();
    if (generation !== this.generation) return;
    if (hadTools) this.opts.onTools();

    const lastLine = this.stderr.last;
    // A crash already says the line that tells why; otherwise the last one may help.
    const exit = lastLine !== undefined && cause?.code !== 'server.crashed' ? ` (last stderr: ${lastLine})` : '';
    this.lastError = reason;
    this.lastErrorCause = cause ?? failureCause(new Error(`${reason}${exit}`));
    if (wasRunningFor > this.supervision.crashWindowMs) {
      this.backoff.reset();
      this.crashTimes = [];
    }
    const now = Date.now();
    this.crashTimes = [...this.crashTimes.filter((t) => now - t < this.supervision.crashWindowMs), ...(crashed ? [now] : [])];
    if (this.settings.transport === 'stdio' && this.crashTimes.length >= this.supervision.maxCrashes) {
      this.opts.log.error(
        `failed ${this.crashTimes.length} times within ${Math.round(this.supervision.crashWindowMs / 1000)} s; giving up until restarted. Last error: ${reason}${exit}`,
      );
      this.setState('failed');
      return;
    }
    const delay = this.backoff.next();
    this.opts.log.warn(`${reason}${exit}; restarting in ${(delay / 1000).toFixed(1)} s`);
    this.restarts++;
    this.setState('restarting');
    this.restartTimer = setTimeout(() => {
      this.restartTimer = undefined;
      if (generation !== this.generation) return;
      // Not `onAttempt?.(this.connect())`: without a listener that would never connect.
      const attempt = this.connect('restarting');
      this.opts.onAttempt?.(attempt);
    }, delay);
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
      await this.closeClient(client, transport, pid, descendants, remember);
    } finally {
      for (const p of dying) this.dying.delete(p);
    }
  }

  private async closeClient(
    client: Client,
    transport: Transport | undefined,
    pid: number | undefined,
    known: number[],
    remember: (pids: number[]) => void,
  ): Promise<void> {
    let descendants = known;
    if (pid !== undefined && isAlive(pid)) {
      descendants = [...new Set([...descendants, ...(await listDescendants(pid))])];
      remember(descendants);
    }

    client.onclose = undefined;
    if (transport instanceof StdioClientTransport && pid !== undefined) {
      // Graceful first (stdin closed), then the whole tree, whatever the SDK's own schedule.
      const closing = client.close().catch(() => undefined);
      const gone = (await waitForExit([pid], this.supervision.stopGraceMs)).length === 0;
      if (!gone) await killTree(pid, descendants);
      await closing;
      signalAll(descendants.filter(isAlive), 'SIGKILL');
      await waitForExit([pid, ...descendants], 2000);
    } else {
      await client.close().catch(() => undefined);
      if (descendants.length > 0) signalAll(descendants.filter(isAlive), 'SIGKILL');
    }
  }
}

export class ServerUnavailableError extends Error {
  constructor(
    server: string,
    readonly state: ServerState,
  ) {
    super(`server "${server}" is ${state}`);
  }
}

/** The pid of a stdio child as soon as it is spawned (before `initialize` has been answered). */
function stdioPid(transport: Transport | undefined): number | undefined {
  return transport instanceof StdioClientTransport ? (transport.pid ?? undefined) : undefined;
}

export function errorText(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}
