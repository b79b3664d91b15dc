import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  type CallToolRequest,
  type CallToolResult,
  type ClientCapabilities,
  type CreateTaskResult,
  ErrorCode,
  McpError,
  ResultSchema,
  RootsListChangedNotificationSchema,
  type ServerCapabilities,
  type ServerNotification,
  type ServerRequest,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';

import type { ToolSetView } from '../../hub/tool-set-view';
import type { CallHistory } from '../../logs/call-history';
import { errorText } from '../../problems/error-text';
import type { ServerAsks } from '../../servers/server-asks';
import { type LocalAsker, ServerRequests } from './server-requests';
import { servedTaskSupport, serverTakesTasks, TaskPassthrough, TASKS_CAPABILITY, type TaskSession } from './tasks';

/** How long a local client may take to answer a server's question during a call (a person may be answering). */
const ANSWER_WAIT_MS = 10 * 60_000;
/** Servers are told of a local client's roots change at most this often. */
export const ROOTS_GAP_MS = 250;

export interface CallPassthroughOptions {
  /** A running server's SDK client, by server name. */
  clientOf(server: string): Client | undefined;
  /** Every running server's SDK client (told when a local client's roots change). */
  clients(): Iterable<Client>;
  /** Where a task's creation is recorded, as a call is. */
  history?: CallHistory | undefined;
}

/** A local session as the passthrough sees it. */
export interface CallSession {
  server: Server;
  /** The client path it came in by. */
  client: string;
  /** Its server declared tasks (see `capabilities`). */
  tasks: boolean;
  view(): ToolSetView;
  /** The name history records for its calls. */
  caller(): string;
}

type CallExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/**
 * What passes between local clients and the servers besides plain tool calls: what a server asks
 * during a call (sampling, elicitation, roots) reaches the caller, and MCP tasks pass through.
 */
export class CallPassthrough {
  private readonly requests: ServerRequests;
  private readonly tasks: TaskPassthrough;
  private readonly taskSessions = new WeakMap<Server, TaskSession>();
  private rootsTold = Number.NEGATIVE_INFINITY;
  private rootsTimer: NodeJS.Timeout | undefined;

  constructor(private readonly opts: CallPassthroughOptions) {
    this.requests = new ServerRequests((server, params) => this.tasks.status(server, params));
    this.tasks = new TaskPassthrough(opts.clientOf, this.requests);
  }

  /** For the servers' clients: where their requests go. */
  get asks(): ServerAsks {
    return this.requests;
  }

  /**
   * For what a server tells a session during that session's call to it (a log message): that call's
   * stream (undefined: no call of that session is in flight to that server).
   */
  callStream(session: Server, server: string): ((method: string, params: unknown) => void) | undefined {
    return this.requests.callStream(session, server);
  }

  /** What a session's server declares besides tools: tasks, to a client that said it takes them. */
  capabilities(client: ClientCapabilities | undefined): ServerCapabilities {
    return client?.tasks !== undefined ? { tasks: TASKS_CAPABILITY } : {};
  }

  /** Wires a session in (its roots, its tasks); the function returned takes it out. */
  attach(session: CallSession): () => void {
    const { server } = session;
    const capabilities = () => server.getClientCapabilities();
    const leave = this.requests.addSession({
      capabilities,
      send: (method, params, signal) =>
        server.request({ method, params } as never, ResultSchema, { signal }) as Promise<Record<string, unknown>>,
    });
    server.setNotificationHandler(RootsListChangedNotificationSchema, () => this.rootsChanged());
    if (session.tasks) this.tasks.install(server, this.taskSession(session), (send) => ({ capabilities, send }));
    return () => {
      leave();
      const known = this.taskSessions.get(server);
      if (known) this.tasks.forget(known);
    };
  }

  /**
   * Tells every server, at most once per ROOTS_GAP_MS (the last change of a burst told at its end):
   * a client's storm of changes is not multiplied by the servers, each of which lists roots again.
   */
  private rootsChanged(): void {
    if (this.rootsTimer) return;
    const tell = () => {
      this.rootsTold = performance.now();
      for (const client of this.opts.clients()) client.sendRootsListChanged().catch(() => undefined);
    };
    const wait = this.rootsTold + ROOTS_GAP_MS - performance.now();
    if (wait <= 0) return tell();
    this.rootsTimer = setTimeout(() => {
      this.rootsTimer = undefined;
      tell();
    }, wait);
    this.rootsTimer.unref();
  }

  /** The tools as the session lists them (task support shown to a client that takes tasks). */
  listed(session: CallSession, tools: Tool[]): Tool[] {
    const view = session.view();
    return servedTaskSupport(tools, session.tasks, (name) => {
      const server = view.identityOf(name)?.server;
      return server !== undefined && serverTakesTasks(this.opts.clientOf(server));
    });
  }

  /**
   * A session's `tools/call`: with `task`, the task is created on the tool's server; otherwise
   * `plain` runs it, the caller taking what the server asks meanwhile.
   */
  async call(
    session: CallSession,
    request: CallToolRequest,
    extra: CallExtra,
    plain: () => Promise<CallToolResult>,
  ): Promise<CallToolResult | CreateTaskResult> {
    const { name, task } = request.params;
    const view = session.view();
    const identity = view.identityOf(name);
    const caller: LocalAsker = {
      capabilities: () => session.server.getClientCapabilities(),
      // On the call's own stream (relatedRequestId): on streamable HTTP it rides that call's response.
      send: (method, params, signal) =>
        extra.sendRequest({ method, params } as never, ResultSchema, { signal, timeout: ANSWER_WAIT_MS }) as Promise<
          Record<string, unknown>
        >,
      session: session.server,
      notify: (method, params) => void extra.sendNotification({ method, params } as never).catch(() => undefined),
    };
    if (task) {
      const args = request.params.arguments ?? {};
      // The checks every call passes (the tool switched on, its arguments), without listing the whole set.
      const admitted = view.admit(name, args);
      const tool = 'identity' in admitted ? admitted.identity : identity;
      const started = performance.now();
      const record = (outcome: 'ok' | 'error', result: string) =>
        this.opts.history?.add({
          caller: session.caller(),
          tool: name,
          originalTool: tool?.tool ?? name,
          server: tool?.server ?? '',
          arguments: args,
          durationMs: Math.round((performance.now() - started) * 100) / 100,
          outcome,
          result,
        });
      if ('refused' in admitted) {
        record('error', admitted.said);
        throw new McpError(ErrorCode.InvalidParams, admitted.said);
      }
      try {
        const created = await this.tasks.create(
          admitted.identity.server,
          admitted.identity.tool,
          args,
          task,
          this.taskSession(session),
          caller,
          extra.signal,
        );
        record('ok', `started as an MCP task (${created.task.status})`);
        return created;
      } catch (error) {
        record('error', `could not start as an MCP task: ${errorText(error)}`);
        throw error;
      }
    }
    const leave = identity ? this.requests.enter(identity.server, caller) : undefined;
    try {
      return await plain();
    } finally {
      leave?.();
    }
  }

  /** The session as its tasks know it: one per session, so that its end can be told (`forget`). */
  private taskSession(session: CallSession): TaskSession {
    let known = this.taskSessions.get(session.server);
    if (!known) {
      known = {
        client: session.client,
        notify: (params) => void session.server.notification({ method: 'notifications/tasks/status', params }).catch(() => undefined),
      };
      this.taskSessions.set(session.server, known);
    }
    return known;
  }
}
