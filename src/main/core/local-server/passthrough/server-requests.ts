import {
  type ClientCapabilities,
  ErrorCode,
  McpError,
  RELATED_TASK_META_KEY,
  type TaskStatusNotification,
} from '@modelcontextprotocol/sdk/types.js';

import type { AskedMethod, ServerAsks } from '../../servers/server-asks';
import { passedOn } from './upstream';

type Answer = Record<string, unknown>;

/** A local client as a server's request reaches it: during one of its calls, or (roots) its session. */
export interface LocalAsker {
  /** What its client declared at initialize. */
  capabilities(): ClientCapabilities | undefined;
  /** Sends the request to that client (during a call: on that call's own stream). */
  send(method: AskedMethod, params: unknown, signal: AbortSignal): Promise<Answer>;
  /** The server's own id of the task whose result it waits on (`tasks/result`): a request related to that task is its. */
  task?: string;
  /** The local session it belongs to (its SDK server). */
  session?: unknown;
  /** Sends a notification on the call's own stream (during a call only). */
  notify?(method: string, params: unknown): void;
}

/** How long `roots/list` outside a call waits for the session asked (it may have no stream open to hear it). */
const ROOTS_WAIT_MS = 5000;

/** True when the client declared what answering this request takes. */
export function canAnswer(capabilities: ClientCapabilities | undefined, method: AskedMethod, params: unknown): boolean {
  if (method === 'sampling/createMessage')
    // Tools in a sampling request need the client's word that it takes them.
    return (params as { tools?: unknown } | undefined)?.tools === undefined
      ? capabilities?.sampling !== undefined
      : capabilities?.sampling?.tools !== undefined;
  if (method === 'roots/list') return capabilities?.roots !== undefined;
  const elicitation = capabilities?.elicitation;
  if (!elicitation) return false;
  // An empty `elicitation: {}` means form mode (MCP 2025-11-25).
  if ((params as { mode?: unknown } | undefined)?.mode === 'url') return elicitation.url !== undefined;
  return elicitation.form !== undefined || elicitation.url === undefined;
}

/**
 * What a server asks its client during a call goes to the local client that made the call.
 *
 * A plain request does not say which of our calls it belongs to, so the calls in flight to that
 * server decide (the rule): a request related to a task (its `_meta`) goes to the caller waiting on
 * that task's result; otherwise one local call in flight, its caller; several, the most recent caller that
 * declared the capability (the one most likely waiting on this answer), else the most recent. A
 * caller without the capability gets the spec's answer at once: sampling and roots "method not
 * found", elicitation "decline". No local call in flight: undefined (an elicitation then goes to
 * the window or the voice, as for a call by xiaozhi), except roots, which any time get the roots
 * of the most recent local session that declared them, or an empty list.
 */
export class ServerRequests implements ServerAsks {
  private readonly inFlight = new Map<string, LocalAsker[]>();
  /** Sessions whose client declared roots, the most recent last. */
  private readonly rootsHolders: LocalAsker[] = [];

  constructor(private readonly onTaskStatus: (server: string, params: TaskStatusNotification['params']) => void = () => undefined) {}

  /** A local call to `server` began: until `leave`, that server's requests may be put to `caller`. */
  enter(server: string, caller: LocalAsker): () => void {
    let calls = this.inFlight.get(server);
    if (!calls) this.inFlight.set(server, (calls = []));
    calls.push(caller);
    return () => {
      const list = this.inFlight.get(server);
      const at = list?.indexOf(caller) ?? -1;
      if (!list || at < 0) return;
      list.splice(at, 1);
      if (list.length === 0) this.inFlight.delete(server);
    };
  }

  /** A session opened whose client may hold roots: asked for them outside calls (when it declared them). */
  addSession(session: LocalAsker): () => void {
    this.rootsHolders.push(session);
    return () => {
      const at = this.rootsHolders.indexOf(session);
      if (at >= 0) this.rootsHolders.splice(at, 1);
    };
  }

  ask(server: string, method: AskedMethod, params: unknown, signal: AbortSignal): Promise<Answer> | undefined {
    const calls = this.inFlight.get(server) ?? [];
    if (calls.length === 0) return method === 'roots/list' ? this.rootsOutsideCalls(signal) : undefined;
    const task = (params as { _meta?: Record<string, { taskId?: unknown } | undefined> } | undefined)?._meta?.[RELATED_TASK_META_KEY]
      ?.taskId;
    const waiting = task !== undefined ? calls.find((c) => c.task === task) : undefined;
    const able = calls.filter((c) => canAnswer(c.capabilities(), method, params));
    const caller = waiting ?? (calls.length === 1 ? calls[0] : (able[able.length - 1] ?? calls[calls.length - 1]));
    if (caller && canAnswer(caller.capabilities(), method, params)) return passedOn(() => caller.send(method, params, signal));
    if (method === 'elicitation/create') return Promise.resolve({ action: 'decline' });
    const what = method === 'roots/list' ? 'roots' : 'sampling';
    return Promise.reject(new McpError(ErrorCode.MethodNotFound, `the client that made this call does not support ${what}`));
  }

  /**
   * Where a notice of `server` for `session` goes while that session has a call in flight to it
   * (its most recent): that call's own stream, which on streamable HTTP reaches a client that opened
   * no other. Undefined without one.
   */
  callStream(session: unknown, server: string): ((method: string, params: unknown) => void) | undefined {
    const calls = this.inFlight.get(server) ?? [];
    return calls.findLast((c) => c.session === session && c.notify !== undefined)?.notify;
  }

  taskStatus(server: string, params: TaskStatusNotification['params']): void {
    this.onTaskStatus(server, params);
  }

  private async rootsOutsideCalls(signal: AbortSignal): Promise<Answer> {
    const holder = [...this.rootsHolders].reverse().find((s) => canAnswer(s.capabilities(), 'roots/list', undefined));
    if (!holder) return { roots: [] };
    const wait = AbortSignal.any([signal, AbortSignal.timeout(ROOTS_WAIT_MS)]);
    try {
      return await holder.send('roots/list', {}, wait);
    } catch {
      // Not heard (no stream open) or refused: as if no client had roots.
      return { roots: [] };
    }
  }
}
