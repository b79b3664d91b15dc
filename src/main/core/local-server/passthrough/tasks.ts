import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CancelTaskRequestSchema,
  type CreateTaskResult,
  CreateTaskResultSchema,
  ErrorCode,
  GetTaskPayloadRequestSchema,
  GetTaskRequestSchema,
  ListTasksRequestSchema,
  McpError,
  RELATED_TASK_META_KEY,
  ResultSchema,
  type Task,
  type TaskStatusNotification,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';

import type { LocalAsker, ServerRequests } from './server-requests';
import { passedOn } from './upstream';

/** Tasks remembered (whose they are, who hears their status), in all; past this the oldest of the client with the most is forgotten. */
export const MAX_TASKS = 1000;
/** Tasks remembered per local client: past this it forgets its own oldest, never another client's. */
export const MAX_TASKS_PER_CLIENT = 200;
/** Pages of a server's `tasks/list` read for one list. */
const MAX_LIST_PAGES = 10;
/** How long `tasks/result` may wait for a task to end (it blocks until then). */
const RESULT_WAIT_MS = 30 * 60_000;
const ID_PREFIX = 'xt1.';

/** The capability a session's server declares to a client that takes tasks: tools/call as a task, tasks listed and cancelled. */
export const TASKS_CAPABILITY = { list: {}, cancel: {}, requests: { tools: { call: {} } } };

/** A server's task id as a local client sees it: it names the server, and reads back (`upstreamTask`). */
export function hubTaskId(server: string, taskId: string): string {
  return ID_PREFIX + Buffer.from(JSON.stringify([server, taskId]), 'utf8').toString('base64url');
}

export function upstreamTask(id: string): { server: string; taskId: string } | undefined {
  if (!id.startsWith(ID_PREFIX)) return undefined;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(id.slice(ID_PREFIX.length), 'base64url').toString('utf8'));
    if (Array.isArray(parsed) && parsed.length === 2 && typeof parsed[0] === 'string' && typeof parsed[1] === 'string')
      return { server: parsed[0], taskId: parsed[1] };
  } catch {
    // Not one of ours.
  }
  return undefined;
}

/** A server's request with its related task (if it names one) named by the id the client knows. */
function relatedTo(params: unknown, id: string): unknown {
  const meta = (params as { _meta?: Record<string, unknown> } | undefined)?._meta;
  if (!meta?.[RELATED_TASK_META_KEY]) return params;
  return { ...(params as object), _meta: { ...meta, [RELATED_TASK_META_KEY]: { taskId: id } } };
}

/** True when the server takes `tools/call` as a task (MCP 2025-11-25). */
export function serverTakesTasks(client: Client | undefined): boolean {
  return client?.getServerCapabilities()?.tasks?.requests?.tools?.call !== undefined;
}

/**
 * The tools as a session lists them: a client that takes tasks sees a tool's task support when its
 * server can run it as one; for any other client a task-only tool is a plain one (the hub runs the
 * task and answers with its result: the SDK's client refuses to call a tool listed as task-only).
 */
export function servedTaskSupport(tools: Tool[], clientTakesTasks: boolean, takesTasks: (tool: string) => boolean): Tool[] {
  return tools.map((tool) => {
    const support = tool.execution?.taskSupport;
    if (support === undefined || support === 'forbidden') return tool;
    if (clientTakesTasks && takesTasks(tool.name)) return tool;
    if (support !== 'required') return tool;
    const { execution: _execution, ...rest } = tool;
    return rest;
  });
}

/** The local session a task belongs to. */
export interface TaskSession {
  /** The client path the session came in by: a task is reachable from that client's sessions only. */
  client: string;
  /** Tells the session's client a task's status (`notifications/tasks/status`). */
  notify(params: TaskStatusNotification['params']): void;
}

interface Owner {
  server: string;
  client: string;
  /** The session that created it, while open: it hears the task's status. */
  session: TaskSession | undefined;
}

/**
 * MCP tasks of servers passed through to local clients: a tool called as a task creates the task
 * on its server, and the client's `tasks/*` requests reach that server under ids that name it.
 */
export class TaskPassthrough {
  private readonly owners = new Map<string, Owner>();

  constructor(
    private readonly clientOf: (server: string) => Client | undefined,
    private readonly requests: ServerRequests,
  ) {}

  /** `tools/call` with `task`: the task created on the tool's server, its id as the client sees it. */
  async create(
    server: string,
    tool: string,
    args: Record<string, unknown>,
    task: { ttl?: number | undefined },
    session: TaskSession,
    caller: LocalAsker,
    signal: AbortSignal,
  ): Promise<CreateTaskResult> {
    const client = this.clientOf(server);
    if (!client) throw new McpError(ErrorCode.InternalError, `server "${server}" is not running`);
    if (!serverTakesTasks(client)) throw new McpError(ErrorCode.MethodNotFound, `server "${server}" does not run tools as tasks`);
    const leave = this.requests.enter(server, caller);
    try {
      const created = await passedOn(() =>
        client.request({ method: 'tools/call', params: { name: tool, arguments: args } }, CreateTaskResultSchema, {
          signal,
          task: task.ttl !== undefined ? { ttl: task.ttl } : {},
        }),
      );
      const id = this.remember(server, created.task.taskId, session);
      return { ...created, task: { ...created.task, taskId: id } };
    } finally {
      leave();
    }
  }

  /** A server told a task's status: the session that created it hears it under its own id. */
  status(server: string, params: TaskStatusNotification['params']): void {
    const id = hubTaskId(server, params.taskId);
    const owner = this.owners.get(id);
    owner?.session?.notify({ ...params, taskId: id });
  }

  /** Answers `tasks/get`, `tasks/result`, `tasks/list` and `tasks/cancel` on a session's server. */
  install(server: Server, session: TaskSession, callerFor: (sendRequest: LocalAsker['send']) => LocalAsker): void {
    server.setRequestHandler(GetTaskRequestSchema, async (request, extra) => {
      const { owner, client, taskId } = this.reach(request.params.taskId, session);
      const task = await passedOn(() => client.experimental.tasks.getTask(taskId, { signal: extra.signal }));
      return { ...task, taskId: hubTaskId(owner.server, task.taskId) };
    });
    server.setRequestHandler(GetTaskPayloadRequestSchema, async (request, extra) => {
      const { owner, client, taskId } = this.reach(request.params.taskId, session);
      // It blocks until the task ends; what the server asks meanwhile goes to this client.
      // The question names the task by the id this client knows.
      const send: LocalAsker['send'] = (method, params, signal) =>
        extra.sendRequest({ method, params: relatedTo(params, request.params.taskId) } as never, ResultSchema, {
          signal,
          timeout: RESULT_WAIT_MS,
        }) as Promise<Record<string, unknown>>;
      const leave = this.requests.enter(owner.server, { ...callerFor(send), task: taskId });
      try {
        const result = await passedOn(() =>
          client.request({ method: 'tasks/result', params: { taskId } }, ResultSchema, { signal: extra.signal, timeout: RESULT_WAIT_MS }),
        );
        const meta = { ...result._meta, [RELATED_TASK_META_KEY]: { taskId: request.params.taskId } };
        return { ...result, _meta: meta } as never;
      } finally {
        leave();
      }
    });
    server.setRequestHandler(ListTasksRequestSchema, async (_request, extra) => {
      const tasks: Task[] = [];
      for (const name of new Set([...this.owners.values()].filter((o) => o.client === session.client).map((o) => o.server))) {
        const client = this.clientOf(name);
        if (!client) continue;
        let cursor: string | undefined;
        for (let page = 0; page < MAX_LIST_PAGES; page++) {
          const listed = await client.experimental.tasks.listTasks(cursor, { signal: extra.signal }).catch(() => undefined);
          for (const task of listed?.tasks ?? []) {
            const id = hubTaskId(name, task.taskId);
            if (this.owners.get(id)?.client === session.client) tasks.push({ ...task, taskId: id });
          }
          cursor = listed?.nextCursor;
          if (!cursor) break;
        }
      }
      return { tasks };
    });
    server.setRequestHandler(CancelTaskRequestSchema, async (request, extra) => {
      const { owner, client, taskId } = this.reach(request.params.taskId, session);
      const task = await passedOn(() => client.experimental.tasks.cancelTask(taskId, { signal: extra.signal }));
      return { ...task, taskId: hubTaskId(owner.server, task.taskId) };
    });
  }

  /** A session closed: its tasks stay its client's (another session of it reaches them), no longer its to hear. */
  forget(session: TaskSession): void {
    for (const owner of this.owners.values()) if (owner.session === session) owner.session = undefined;
  }

  private remember(server: string, taskId: string, session: TaskSession): string {
    const id = hubTaskId(server, taskId);
    this.owners.delete(id);
    this.owners.set(id, { server, client: session.client, session });
    // A client that creates task after task forgets its own oldest: it cannot make the hub forget another's.
    if (this.count(session.client) > MAX_TASKS_PER_CLIENT) this.forgetOldestOf(session.client);
    // Many clients at their bound: the one holding the most gives up its oldest.
    if (this.owners.size > MAX_TASKS) this.forgetOldestOf(this.busiestClient());
    return id;
  }

  private count(client: string): number {
    let count = 0;
    for (const owner of this.owners.values()) if (owner.client === client) count++;
    return count;
  }

  private busiestClient(): string {
    const counts = new Map<string, number>();
    for (const owner of this.owners.values()) counts.set(owner.client, (counts.get(owner.client) ?? 0) + 1);
    let busiest = '';
    let most = -1;
    for (const [client, count] of counts) if (count > most) [busiest, most] = [client, count];
    return busiest;
  }

  private forgetOldestOf(client: string): void {
    for (const [id, owner] of this.owners)
      if (owner.client === client) {
        this.owners.delete(id);
        return;
      }
  }

  /** The task's server and its own id, for a task this session's client created; otherwise "not found" (as the spec says). */
  private reach(id: string, session: TaskSession): { owner: Owner; client: Client; taskId: string } {
    const upstream = upstreamTask(id);
    const owner = this.owners.get(id);
    if (!upstream || !owner || owner.client !== session.client) throw new McpError(ErrorCode.InvalidParams, `Task not found: ${id}`);
    const client = this.clientOf(upstream.server);
    if (!client) throw new McpError(ErrorCode.InvalidParams, `Task not found: ${id} (server "${upstream.server}" is not running)`);
    return { owner, client, taskId: upstream.taskId };
  }
}
