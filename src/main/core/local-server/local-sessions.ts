import { randomUUID } from 'node:crypto';
import type http from 'node:http';

import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
  type CallToolRequest,
  CallToolRequestSchema,
  type ClientCapabilities,
  ListToolsRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';

import type { LocalSession } from '../../../shared/status';
import type { ToolSetView } from '../hub/tool-set-view';
import type { Logger } from '../logs/log-book';
import type { SettlingTools } from '../serving/settling-tools';
import { type CallExtra, DirectRequests } from './direct-requests';
import type { CallPassthrough, CallSession } from './passthrough/call-passthrough';
import { Passthrough, type PassthroughSession } from './passthrough/passthrough';
import type { PassthroughServers } from './passthrough/upstream';

export interface LocalSessionsOptions {
  /**
   * The set a client gets, by the client id of its path ('' for /mcp), waiting for servers still
   * starting; asked again whenever sets change (the same object while the set is the same).
   */
  viewFor(client: string): SettlingTools<ToolSetView>;
  /** The name history records for a call: the client's name, or what it called itself. */
  callerName(client: string, clientInfo: string | undefined): string;
  log: Logger;
  version: string;
  /** A session with no request and no open stream for this long is released. */
  sessionIdleMs: number;
  onSessionsChanged(): void;
  /** What a server asks during a call reaches its caller, and MCP tasks pass through (absent: neither). */
  calls?: CallPassthrough | undefined;
  /** The servers of each set: resources, prompts, completion, logs and instructions pass through (absent: tools only). */
  servers?: PassthroughServers | undefined;
}

export interface Session {
  id: string;
  client: string;
  transport: StreamableHTTPServerTransport;
  /** Its requests answered below the SDK's transport (the calls, the lists). */
  direct: DirectRequests;
  server: Server;
  view: SettlingTools<ToolSetView>;
  announced: number;
  since: number;
  lastSeen: number;
  /** Requests (and GET streams) still open: a session with one is not idle. */
  open: number;
  calls: number;
  clientInfo: string | undefined;
  /** Takes the session out of the calls' passthrough. */
  detachCalls?: (() => void) | undefined;
  passthrough?: PassthroughSession | undefined;
  /** Its open GET streams (where what the servers announce goes): one waiting to drain says the client is not reading. */
  streams: Set<http.ServerResponse>;
}

/** Sessions past this many are a misbehaving client: the least recently seen one goes. */
const MAX_SESSIONS = 100;
/** Characters of a client's own name that are kept. */
export const MAX_CLIENT_NAME = 64;

/**
 * The local server's MCP sessions, each its own SDK `Server` over the tool set its client's path
 * names: opened by an initialize, given each request of theirs (the calls and lists answered by
 * `DirectRequests`, the rest by the SDK's transport), told when their set changes, released when
 * their client goes quiet. What reaches them has passed the HTTP front's checks already.
 */
export class LocalSessions {
  private readonly sessions = new Map<string, Session>();
  private readonly passthrough: Passthrough | undefined;
  private sweeper: NodeJS.Timeout | undefined;

  constructor(private readonly opts: LocalSessionsOptions) {
    const calls = opts.calls;
    this.passthrough = opts.servers
      ? new Passthrough(opts.servers, opts.log, calls ? (session, server) => calls.callStream(session, server) : undefined)
      : undefined;
  }

  get size(): number {
    return this.sessions.size;
  }

  get(id: string): Session | undefined {
    return this.sessions.get(id);
  }

  /** Releases the sessions whose client vanished without saying goodbye, from now on. */
  startSweeping(): void {
    const every = Math.max(25, Math.min(30_000, Math.floor(this.opts.sessionIdleMs / 2)));
    this.sweeper = setInterval(() => this.sweep(), every);
    this.sweeper.unref();
  }

  /** Every session ends (the local server stops). */
  async closeAll(why: string): Promise<void> {
    if (this.sweeper) clearInterval(this.sweeper);
    this.sweeper = undefined;
    this.passthrough?.close();
    await Promise.all([...this.sessions.values()].map((session) => this.release(session, why)));
  }

  list(): LocalSession[] {
    return [...this.sessions.values()].map((s) => ({
      id: s.id.slice(0, 8),
      client: s.client,
      clientInfo: s.clientInfo ?? '',
      toolSet: s.view.current.id,
      since: s.since,
      calls: s.calls,
    }));
  }

  /**
   * Sets or their catalogs changed: each session follows its client's set, and hears
   * `list_changed` when what it is served is different from what it last learned.
   */
  refresh(): void {
    for (const session of this.sessions.values()) {
      const view = this.opts.viewFor(session.client);
      const moved = view !== session.view;
      session.view = view;
      if (moved || view.current.version !== session.announced) {
        session.announced = view.current.version;
        session.server.sendToolListChanged().catch(() => undefined);
      }
      session.passthrough?.refresh();
    }
    this.opts.onSessionsChanged();
  }

  /**
   * A request of an open session: the calls and lists answered directly, the rest (GET streams,
   * notifications, DELETE) by the SDK's transport. Resolves once it is handed on.
   */
  async serve(session: Session, req: http.IncomingMessage, res: http.ServerResponse, body: unknown): Promise<void> {
    session.open++;
    session.lastSeen = Date.now();
    const direct = session.direct.accepts(req, body);
    if (req.method === 'GET') session.streams.add(res);
    const asked = direct ? [direct.id] : requestIds(body);
    res.once('close', () => this.requestClosed(session, res, asked));
    if (direct) session.direct.take(req, res, direct);
    else await session.transport.handleRequest(req, res, body);
  }

  private requestClosed(session: Session, res: http.ServerResponse, asked: (string | number)[]): void {
    session.streams.delete(res);
    session.open--;
    session.lastSeen = Date.now();
    // The client went away before its answer: its calls are cancelled now, not when the
    // session is released (the SDK hears a cancellation as if the client had sent it).
    if (!res.writableFinished)
      for (const id of asked)
        session.transport.onmessage?.({
          jsonrpc: '2.0',
          method: 'notifications/cancelled',
          params: { requestId: id, reason: 'the client closed the request' },
        });
  }

  /** A new session for a client: its own SDK server over the set its path names. */
  async open(client: string, declared: ClientCapabilities): Promise<Session> {
    if (this.sessions.size >= MAX_SESSIONS) {
      const oldest = [...this.sessions.values()].sort((a, b) => a.lastSeen - b.lastSeen)[0] as Session;
      await this.release(oldest, 'too many sessions');
    }
    const id = randomUUID();
    const view = this.opts.viewFor(client);
    const calls = this.opts.calls;
    const offered = calls?.capabilities(declared) ?? {};
    const more = this.passthrough?.opening(view.current.id);
    const server = new Server(
      { name: 'xiaozhi-tray', version: this.opts.version },
      {
        capabilities: { tools: { listChanged: true }, ...more?.capabilities, ...offered },
        ...(more?.instructions ? { instructions: more.instructions } : {}),
      },
    );
    // What the SDK's transport answers, it answers as an event stream (its default): a JSON answer has
    // no room for the progress notifications a call sends before its result, and it would drop them.
    // Requests of an open session are answered by DirectRequests, which chooses per answer.
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => id });
    const now = Date.now();
    const session: Session = {
      id,
      client,
      transport,
      direct: new DirectRequests(transport, id, server),
      server,
      view,
      announced: view.current.version,
      since: now,
      lastSeen: now,
      open: 0,
      calls: 0,
      clientInfo: undefined,
      streams: new Set(),
    };
    server.setRequestHandler(ListToolsRequestSchema, () =>
      session.view.list(() => {
        // The set as it is once the wait is over: the client's set may have moved meanwhile.
        const view = session.view.current;
        session.announced = view.version;
        return { tools: calls ? calls.listed(link, view.fullTools()) : view.fullTools() };
      }),
    );
    const link: CallSession = {
      server,
      client,
      tasks: offered.tasks !== undefined,
      view: () => session.view.current,
      caller: () => this.opts.callerName(client, session.clientInfo),
    };
    const callTool = async (request: CallToolRequest, extra: CallExtra) => {
      session.calls++;
      return calls ? calls.call(link, request, extra, () => plainCall(request, extra)) : plainCall(request, extra);
    };
    server.setRequestHandler(CallToolRequestSchema, callTool);
    session.direct.answerCallsWith(callTool);
    const plainCall = async (request: CallToolRequest, extra: CallExtra) => {
      const progressToken = request.params._meta?.progressToken;
      const { result } = await session.view.call(request.params.name, request.params.arguments ?? {}, {
        caller: this.opts.callerName(client, session.clientInfo),
        signal: extra.signal,
        shape: false,
        // The server's progress reaches the client that asked for it.
        ...(progressToken !== undefined
          ? {
              onProgress: (progress) =>
                void extra
                  .sendNotification({ method: 'notifications/progress', params: { progressToken, ...progress } })
                  .catch(() => undefined),
            }
          : {}),
      });
      // Its resource links and embedded resources carry the URIs this client reads them by.
      return session.passthrough?.mappedResult(session.view.current.identityOf(request.params.name)?.server, result) ?? result;
    };
    session.passthrough = this.passthrough?.attach(
      server,
      () => session.view.current.id,
      // Written to a stream its client does not read: our writes wait for a drain that does not come.
      () => [...session.streams].some((res) => res.writableNeedDrain),
    );
    server.oninitialized = () => {
      session.clientInfo = clientName(server.getClientVersion()?.name);
      this.opts.log.info(
        `session ${id.slice(0, 8)} opened by ${session.clientInfo ?? 'a client'}${client ? ` at /mcp/${client}` : ''} (tool set ${view.current.id})`,
      );
      this.opts.onSessionsChanged();
    };
    transport.onclose = () => {
      session.direct.close();
      session.detachCalls?.();
      session.passthrough?.close();
      if (this.sessions.delete(id)) this.opts.onSessionsChanged();
    };
    server.onerror = (error) => this.opts.log.debug(`session ${id.slice(0, 8)}: ${error.message}`);
    await server.connect(transport);
    session.detachCalls = calls?.attach(link);
    this.sessions.set(id, session);
    return session;
  }

  private async release(session: Session, why: string): Promise<void> {
    if (!this.sessions.delete(session.id)) return;
    session.detachCalls?.();
    this.opts.log.info(`session ${session.id.slice(0, 8)} released (${why})`);
    await session.server.close().catch(() => undefined);
    this.opts.onSessionsChanged();
  }

  /** A client that vanished without saying goodbye leaves an idle session: release it. */
  private sweep(): void {
    const cutoff = Date.now() - this.opts.sessionIdleMs;
    for (const session of this.sessions.values()) {
      if (session.open <= 0 && session.lastSeen < cutoff) void this.release(session, 'its client went quiet');
    }
  }
}

/**
 * What a client calls itself, as history, status and logs keep it: any client can send megabytes
 * there, and every session's name is kept. Control characters go, the length is capped.
 */
export function clientName(name: unknown): string | undefined {
  if (typeof name !== 'string') return undefined;
  // Only the head is looked at (a few characters per code point at most): never the whole of it.
  const head = name.slice(0, MAX_CLIENT_NAME * 4);
  const chars = [...head.replace(/[\p{Cc}\p{Cf}]+/gu, ' ').trim()];
  if (chars.length === 0) return undefined;
  const cut = chars.length > MAX_CLIENT_NAME || head.length < name.length;
  return cut ? `${chars.slice(0, MAX_CLIENT_NAME - 1).join('')}…` : chars.join('');
}

/**
 * The ids of the requests in a body (one message, or a batch): a message with a method and an id
 * (a string or an integer). Read by hand: the SDK's zod check cost more than the rest of the front.
 */
export function requestIds(body: unknown): (string | number)[] {
  const ids: (string | number)[] = [];
  for (const message of Array.isArray(body) ? (body as unknown[]) : [body]) {
    if (typeof message !== 'object' || message === null) continue;
    const { jsonrpc, method, id } = message as Record<string, unknown>;
    if (jsonrpc === '2.0' && typeof method === 'string' && (typeof id === 'string' || Number.isInteger(id)))
      ids.push(id as string | number);
  }
  return ids;
}
