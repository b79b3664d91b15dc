import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { type CallToolResult, type LoggingLevel, type ServerCapabilities, SetLevelRequestSchema } from '@modelcontextprotocol/sdk/types.js';

import type { Logger } from '../../logs/log-book';
import { combinedInstructions } from './instructions';
import { ListCache } from './list-cache';
import { forwardedLog, logLine, LogLineBudget, type LogParams, mostVerbose, ServerLevels, wants } from './logging';
import { servePrompts } from './prompts';
import { dropSubscriptions, mappedContent, type ResourceSession, serveResources, tellUpdated } from './resources';
import { Subscriptions } from './subscriptions';
import { ANSWER_TIMEOUT_MS, type PassthroughServers, type ServerNotice, supports, type UpstreamServer } from './upstream';
import type { OwnedUri } from './uri-mapping';

/**
 * What local sessions get of their servers besides tools: resources, prompts, completion, log
 * messages and instructions, each session over the servers of its own set. Shared by the sessions
 * of one local server: the servers' lists, their subscriptions and the log level each was asked.
 */
export class Passthrough {
  private readonly sessions = new Set<PassthroughSession>();
  readonly lists: ListCache;
  readonly subscriptions = new Subscriptions();
  readonly levels: ServerLevels;
  private readonly logBudget = new LogLineBudget();
  private readonly unlisten: () => void;

  constructor(
    readonly servers: PassthroughServers,
    readonly log: Logger,
    /** The stream of a session's call in flight to a server, for what that server says meanwhile (see call-passthrough.ts). */
    readonly callStream?: (session: Server, server: string) => ((method: string, params: unknown) => void) | undefined,
  ) {
    this.lists = new ListCache(log);
    this.levels = new ServerLevels(log);
    this.unlisten = servers.onNotice((server, notice) => this.heard(server, notice));
  }

  /** What a new session's SDK server declares, and the instructions of its set's servers (as they are now). */
  opening(setId: string): { capabilities: ServerCapabilities; instructions?: string } {
    const instructions = combinedInstructions(this.servers.serversOf(setId));
    return {
      // All of it can be honoured whatever the servers offer: a set without resources lists none.
      capabilities: { resources: { subscribe: true, listChanged: true }, prompts: { listChanged: true }, completions: {}, logging: {} },
      ...(instructions ? { instructions } : {}),
    };
  }

  /** `stalled`: whether the session's client has stopped taking what its stream is sent. */
  attach(server: Server, setId: () => string, stalled: () => boolean = () => false): PassthroughSession {
    const session = new PassthroughSession(this, server, setId, stalled);
    this.sessions.add(session);
    return session;
  }

  detach(session: PassthroughSession): void {
    this.sessions.delete(session);
  }

  close(): void {
    this.unlisten();
  }

  /** The most verbose level a session including this server asked for. */
  wantedLevel(server: string): LoggingLevel | undefined {
    return mostVerbose([...this.sessions].filter((s) => s.includes(server)).map((s) => s.level));
  }

  private heard(server: string, notice: ServerNotice): void {
    switch (notice.kind) {
      case 'resources':
        this.lists.forget(server, ['resources', 'templates']);
        for (const session of this.sessions) if (session.includes(server)) session.resourcesChanged();
        return;
      case 'prompts':
        this.lists.forget(server, ['prompts']);
        for (const session of this.sessions) if (session.includes(server)) session.promptsChanged();
        return;
      case 'updated':
        for (const session of this.sessions) tellUpdated(session, server, notice.uri);
        return;
      case 'log':
        this.logOwn(server, notice.params);
        for (const session of this.sessions)
          if (wants(session.level, notice.params.level) && session.includes(server)) session.tell(server, notice.params);
        return;
      case 'availability':
        this.lists.forget(server);
        this.levels.forget(server);
        for (const session of this.sessions) session.refresh();
        void this.cameUp(server);
    }
  }

  /** Our own log's line for a server's message, bounded per server and minute. */
  private logOwn(server: string, params: LogParams): void {
    const { log, skipped } = this.logBudget.take(server);
    if (skipped > 0) this.log.debug(`server "${server}": ${skipped} more log messages were not written to this log`);
    if (log) this.log.debug(logLine(server, params));
  }

  /** A server (re)started: it holds no subscription and no level, whatever it held before. */
  private async cameUp(name: string): Promise<void> {
    let server: UpstreamServer | undefined;
    for (const session of this.sessions) server ??= session.upstreams().find((s) => s.name === name);
    if (!server) return;
    const up = server;
    if (supports(up, 'subscribe'))
      for (const uri of this.subscriptions.held(name))
        await up.client
          .subscribeResource({ uri }, { timeout: ANSWER_TIMEOUT_MS })
          .catch((error: unknown) => this.log.debug(`server "${name}": subscribing again failed: ${String(error)}`));
    if (supports(up, 'logging')) await this.levels.apply(up, this.wantedLevel(name));
  }
}

/** List changes announced within this long are told to a session once. */
export const LIST_CHANGED_COALESCE_MS = 100;

/** One local session's passthrough: its handlers, its subscriptions and log level. */
export class PassthroughSession implements ResourceSession {
  readonly subscribed = new Map<string, OwnedUri>();
  level: LoggingLevel | undefined;
  /** The servers it was last served (running, in its set): a change means new lists to hear of. */
  private served: string;
  private closed = false;
  private missedLogs = 0;
  private readonly pendingChanges = new Set<'resources' | 'prompts'>();
  private changeTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly hub: Passthrough,
    readonly server: Server,
    private readonly setId: () => string,
    private readonly stalled: () => boolean,
  ) {
    this.served = this.servedNames();
    serveResources(this);
    servePrompts(this);
    server.setRequestHandler(SetLevelRequestSchema, async (request) => {
      this.level = request.params.level;
      await Promise.all(
        this.upstreams()
          .filter((up) => supports(up, 'logging'))
          .map((up) => this.hub.levels.apply(up, this.hub.wantedLevel(up.name))),
      );
      return {};
    });
  }

  get lists(): Passthrough['lists'] {
    return this.hub.lists;
  }

  get log(): Logger {
    return this.hub.log;
  }

  get subscriptions(): Subscriptions {
    return this.hub.subscriptions;
  }

  upstreams(): UpstreamServer[] {
    return this.closed ? [] : this.hub.servers.serversOf(this.setId());
  }

  includes(server: string): boolean {
    return this.upstreams().some((s) => s.name === server);
  }

  /** Resource links and embedded resources in a tool's result, with the URIs this client reads them by. */
  mappedResult(server: string | undefined, result: CallToolResult): Promise<CallToolResult> {
    return server === undefined ? Promise.resolve(result) : mappedContent(this, server, result);
  }

  /** Its set, or the servers running in it, changed: it hears that resources and prompts may have too. */
  refresh(): void {
    const now = this.servedNames();
    if (now === this.served) return;
    this.served = now;
    this.resourcesChanged();
    this.promptsChanged();
  }

  resourcesChanged(): void {
    this.changed('resources');
  }

  promptsChanged(): void {
    this.changed('prompts');
  }

  /**
   * Told once for the announcements of a short while: a server announcing thousands of changes
   * had each told to every client (5,000 of 5,000), and each client listing again re-read it all.
   */
  private changed(kind: 'resources' | 'prompts'): void {
    if (this.closed) return;
    this.pendingChanges.add(kind);
    this.changeTimer ??= setTimeout(() => {
      this.changeTimer = undefined;
      if (this.pendingChanges.has('resources')) this.server.sendResourceListChanged().catch(() => undefined);
      if (this.pendingChanges.has('prompts')) this.server.sendPromptListChanged().catch(() => undefined);
      this.pendingChanges.clear();
    }, LIST_CHANGED_COALESCE_MS);
  }

  /**
   * A server's log message, unless the client has stopped taking what its stream is sent (past
   * the socket's buffers): a flooding server's messages would pile up in our memory (200 MB for
   * 2,000 of 60 kB). It hears how many it missed once it reads again.
   */
  tell(server: string, params: LogParams): void {
    if (this.stalled()) {
      this.missedLogs++;
      return;
    }
    if (this.missedLogs > 0) {
      const data = `${this.missedLogs} log messages were left out: this client was not reading them`;
      this.missedLogs = 0;
      this.server
        .notification({ method: 'notifications/message', params: { level: 'warning', logger: 'xiaozhi-tray', data } })
        .catch(() => undefined);
    }
    const forwarded = forwardedLog(server, params);
    // During this session's call to that server: on the call's own stream (a client may have no other open).
    const onCall = this.hub.callStream?.(this.server, server);
    if (onCall) onCall('notifications/message', forwarded);
    else this.server.notification({ method: 'notifications/message', params: forwarded }).catch(() => undefined);
  }

  close(): void {
    if (this.closed) return;
    clearTimeout(this.changeTimer);
    this.changeTimer = undefined;
    dropSubscriptions(this);
    this.closed = true;
    this.hub.detach(this);
  }

  private servedNames(): string {
    return JSON.stringify(this.upstreams().map((s) => s.name));
  }
}
