import { randomBytes } from 'node:crypto';

import { own } from '../../../shared/own';
import { type Problem, problem } from '../../../shared/problem';
import type { LocalServerSettings, Settings } from '../../../shared/settings';
import type { LocalServerStatus } from '../../../shared/status';
import { AddToClientSchema, localClientName } from '../../../shared/tool-set-api';
import type { ToolSetView } from '../hub/tool-set-view';
import { hostWithPort, isLoopbackHost, isWildcardHost } from '../io/http-gate';
import type { Logger } from '../logs/log-book';
import type { SettlingTools } from '../serving/settling-tools';
import { clientToken } from './client-tokens';
import { ListenError } from './listen-failure';
import type { LocalMcpServer } from './local-mcp-server';
import type { CallPassthrough } from './passthrough/call-passthrough';
import type { PassthroughServers } from './passthrough/upstream';
import { rememberedToken, rememberToken, removeStateFile, writeStateFile } from './state-file';

/** What the command line says for this run only (`run --mcp-port N --mcp-token-file FILE`); never saved. */
export interface LocalServerOverrides {
  enabled?: boolean;
  port?: number;
  token?: string;
  host?: string;
}

export interface LocalServerControllerOptions {
  /** A tool set's view by id (the default set's when it names none), waiting for servers still starting. */
  toolSet(id: string | undefined): SettlingTools<ToolSetView>;
  settings(): Settings;
  log: Logger;
  version: string;
  /** Where the state file for `xiaozhi-tray connect` goes; none when undefined. */
  stateDir: string | undefined;
  overrides?: LocalServerOverrides;
  /**
   * Saves a newly generated token; false when the settings cannot be saved (it then lasts this run).
   * Never asked while this run's flags turn the server on: flags do not write the config.
   */
  saveToken(token: string): boolean;
  /** The token clients must send changed without a settings change (one made for this run): mask it too. */
  onTokenChanged?(): void;
  onStatus(): void;
  /** What servers ask during a local client's call, and MCP tasks, passed through to local clients. */
  calls?: CallPassthrough;
  /** The servers of each set, for what sessions get besides tools (absent: tools only). */
  servers?: PassthroughServers;
}

interface Wanted {
  host: string;
  port: number;
  token: string;
}

export const newLocalServerToken = (): string => randomBytes(24).toString('base64url');

/**
 * Runs the local MCP server as the settings (and this run's flags) say: starts, moves or stops it,
 * keeps the state file in step, and points each session at its client's tool set.
 */
export class LocalServerController {
  private server: LocalMcpServer | undefined;
  private running: Wanted | undefined;
  private state: LocalServerStatus['state'] = 'off';
  private lastError: string | undefined;
  private lastErrorCause: Problem | undefined;
  private runToken: string | undefined;
  private readonly overrides: LocalServerOverrides;
  private queue: Promise<void> = Promise.resolve();

  constructor(private readonly opts: LocalServerControllerOptions) {
    this.overrides = { ...opts.overrides };
  }

  /** The settings with this run's flags applied. */
  effective(): LocalServerSettings & { enabled: boolean } {
    const base = this.opts.settings().localServer;
    const token = this.overrides.token ?? base.token ?? this.runToken;
    return {
      ...base,
      enabled: this.overrides.enabled ?? base.enabled,
      port: this.overrides.port ?? base.port,
      host: this.overrides.host ?? base.host,
      ...(token !== undefined ? { token } : {}),
    };
  }

  /** The user changed this in the window: from now on the settings decide it, not the command line. */
  dropOverride(key: keyof LocalServerOverrides): void {
    delete this.overrides[key];
    if (key === 'token') this.runToken = undefined;
  }

  /** The token clients must send (generated if there is none yet). */
  token(): string {
    return this.ensureToken();
  }

  /** The token as it is now (the flag's, the settings', or one made for this run), for the known secrets. */
  currentToken(): string | undefined {
    return this.effective().token;
  }

  /**
   * The tokens clients may send now, for the known secrets: the app's, and each client's own
   * (derived from it) for the clients "Add to …" knows and those with a set of their own.
   */
  currentTokens(): string[] {
    const token = this.currentToken();
    if (token === undefined) return [];
    const clients = new Set([...AddToClientSchema.options, ...Object.keys(this.opts.settings().localServer.clients)]);
    return [token, ...[...clients].map((client) => clientToken(token, client))];
  }

  /** The base URL clients are given: the listening port, or the configured one while off. */
  baseUrl(): string {
    if (this.server) return this.server.url;
    const { host, port } = this.effective();
    return `http://${hostWithPort(isWildcardHost(host) ? '127.0.0.1' : host, port)}/mcp`;
  }

  status(): LocalServerStatus {
    const given = this.opts.overrides ?? {};
    const overridden = (['enabled', 'port', 'host', 'token'] as const).filter((key) => given[key] !== undefined);
    return {
      state: this.state,
      ...(overridden.length > 0 ? { overridden } : {}),
      ...(this.server ? { url: this.server.url } : {}),
      ...(this.lastError !== undefined ? { lastError: this.lastError } : {}),
      ...(this.lastErrorCause !== undefined ? { lastErrorCause: this.lastErrorCause } : {}),
      sessions: this.server?.sessionList() ?? [],
    };
  }

  /** Brings the server in line with the settings; calls are queued so restarts never overlap. */
  sync(bridgeRunning: boolean): Promise<void> {
    this.queue = this.queue
      .then(() => this.apply(bridgeRunning))
      .catch((error: unknown) => this.opts.log.error(`local MCP server: ${String(error)}`));
    return this.queue;
  }

  /** Resolves when every change asked for so far has been applied. */
  settled(): Promise<void> {
    return this.queue;
  }

  /** Catalogs or set choices changed: sessions follow their sets and hear `list_changed`. */
  refreshSessions(): void {
    this.server?.refreshSessions();
  }

  stop(): Promise<void> {
    return this.sync(false);
  }

  private viewFor(client: string): SettlingTools<ToolSetView> {
    const local = this.opts.settings().localServer;
    return this.opts.toolSet(own(local.clients, client)?.toolSet ?? local.toolSet);
  }

  private ensureToken(): string {
    const existing = this.effective().token;
    if (existing) return existing;
    // The one an earlier run listened with, if any: a client entry made then keeps working.
    const token = (this.opts.stateDir ? rememberedToken(this.opts.stateDir) : undefined) ?? newLocalServerToken();
    // On because of `--mcp-port`: the token lives as long as the run (and its state file, for `connect`).
    const byFlags = this.overrides.enabled !== undefined || this.overrides.port !== undefined || this.overrides.host !== undefined;
    if (byFlags || !this.opts.saveToken(token)) {
      this.runToken = token;
      this.opts.onTokenChanged?.();
    }
    return token;
  }

  private async apply(bridgeRunning: boolean): Promise<void> {
    const settings = this.effective();
    const wanted: Wanted | undefined =
      bridgeRunning && settings.enabled ? { host: settings.host, port: settings.port, token: this.ensureToken() } : undefined;
    const same =
      wanted &&
      this.running &&
      wanted.host === this.running.host &&
      wanted.port === this.running.port &&
      wanted.token === this.running.token;
    if (same && this.server) {
      this.server.refreshSessions();
      return;
    }
    await this.shutdown();
    if (!wanted) {
      this.setState('off');
      return;
    }
    this.setState('starting');
    // Loaded when first turned on: the SDK's HTTP server side is memory most users never need.
    const { LocalMcpServer } = await import('./local-mcp-server');
    const server = new LocalMcpServer({
      ...wanted,
      viewFor: (client) => this.viewFor(client),
      callerName: (client, clientInfo) => localClientName(client) ?? clientInfo ?? 'local client',
      log: this.opts.log,
      version: this.opts.version,
      sessionIdleMs: settings.sessionIdleMs,
      onSessionsChanged: () => this.opts.onStatus(),
      ...(this.opts.calls ? { calls: this.opts.calls } : {}),
      ...(this.opts.servers ? { servers: this.opts.servers } : {}),
    });
    try {
      await server.start();
    } catch (error) {
      this.lastError = error instanceof Error ? error.message : String(error);
      // Its problem, for the window and the CLI to word with what to do (another port in Settings → Local server).
      this.lastErrorCause = error instanceof ListenError ? error.problem : problem('other', { detail: this.lastError });
      this.opts.log.error(
        `the local MCP server could not listen on ${hostWithPort(wanted.host, wanted.port)}: ${this.lastError}`,
        this.lastErrorCause,
      );
      this.setState('failed');
      return;
    }
    this.server = server;
    this.running = wanted;
    this.lastError = undefined;
    this.lastErrorCause = undefined;
    if (wanted.token.length < 16)
      this.opts.log.warn('the local MCP server token is shorter than 16 characters: easy to guess; make a new one in Settings');
    if (!isLoopbackHost(wanted.host))
      this.opts.log.warn(`the local MCP server listens on ${wanted.host}: anyone who can reach it and has the token can call your tools`);
    this.opts.log.info(`local MCP server listening at ${server.url}`, problem('log.localListening', { url: server.url }));
    if (this.opts.stateDir) {
      try {
        const { heldBy } = await writeStateFile(this.opts.stateDir, {
          pid: process.pid,
          url: server.url,
          token: wanted.token,
          version: this.opts.version,
          startedAt: Date.now(),
        });
        // A second copy with the same folder: the first keeps `connect` (its file is neither taken over nor, on exit, removed).
        if (heldBy)
          this.opts.log.warn(
            `another copy of Xiaozhi Tray (pid ${heldBy.pid}) already serves "xiaozhi-tray connect" from ${this.opts.stateDir}; this copy serves at ${server.url} but leaves that file alone. To run two copies side by side, give this one its own folder: XIAOZHI_TRAY_STATE_DIR`,
          );
        else await rememberToken(this.opts.stateDir, wanted.token);
      } catch (error) {
        this.opts.log.warn(`could not write the state file for "xiaozhi-tray connect": ${String(error)}`);
      }
    }
    this.setState('listening');
  }

  private async shutdown(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    this.running = undefined;
    if (!server) return;
    await server.stop();
    if (this.opts.stateDir) removeStateFile(this.opts.stateDir);
    this.opts.log.info('local MCP server stopped');
  }

  private setState(state: LocalServerStatus['state']): void {
    this.state = state;
    this.opts.onStatus();
  }
}
