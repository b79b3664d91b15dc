import { ErrorCode, type JSONRPCMessage, type Progress } from '@modelcontextprotocol/sdk/types.js';

import { type Language, translate } from '../../../shared/i18n/translate';
import { errorResult } from '../hub/result-shaping';
import type { CallAnswer } from '../hub/tool-hub';
import type { CallContext } from '../hub/tool-set-view';
import { CallAbort } from '../io/call-signal';
import type { Logger } from '../logs/log-book';
import type { BackgroundCalls } from '../long-calls/background-calls';
import { spokenTool, stillWorkingText } from '../long-calls/voice-texts';
import type { CallableTools } from '../serving/settling-tools';
import { LongCall } from './long-call';
import { onConnection, voiceSession } from './voice-session';

export interface ToolCallRequest {
  id: string | number;
  params: { name: string; arguments?: Record<string, unknown>; _meta?: { progressToken?: string | number } };
}

/**
 * xiaozhi calls a tool or two at a time. A peer that sends thousands at once would have this
 * process and the server hold every one: at most this many are in progress, the next ones wait
 * their turn (up to a count and a size), and past that a call is refused with an error result.
 */
export const CALL_LIMITS = { inProgress: 64, waiting: 1024, waitingBytes: 16 * 1024 * 1024 };

export interface EndpointCallsOptions {
  /** What the endpoint is served (a call of a tool of a server still starting waits in there). */
  tools: CallableTools;
  caller: string;
  /** Whose background tasks its calls are: the endpoint's id (two endpoints may share a name); absent, the caller. */
  owner?: string;
  /** Sends to the endpoint; nothing waits for it (a message that cannot go is lost with the link). */
  send: (message: JSONRPCMessage) => void;
  log: Logger;
  /** Long calls: a call still running past `answerAfterMs` is answered and goes on there. Absent: calls are awaited. */
  longCalls?: LongCallOptions;
  /** This connection (with the relay's conversation in a call's id, the voice session built-in tools bind what they hold to). */
  session?: string;
  /** The user's language, for what the bridge words itself (absent: English). */
  language?: () => Language;
}

export interface LongCallOptions {
  /** Read at each call (the endpoint's patience may change). */
  answerAfterMs: () => number;
  calls: BackgroundCalls;
  /** The language of what the model is told ("still working on…"). */
  language: () => Language;
  /** A connection closed: what was held for its voice sessions (calls waiting for confirmation) ends. */
  sessionClosed?: (belongs: (session: string) => boolean) => void;
}

/**
 * The endpoint's `tools/call` requests, answered below the SDK's `Protocol` (the frame was
 * checked by hand in the transport): a light abort signal per call in flight, cancellation by
 * `notifications/cancelled`, the server's progress passed on, and no answer to a cancelled call
 * (as the MCP spec asks, and as the SDK's `Server` did).
 */
export class EndpointCalls {
  /** The calls waiting or in progress, by request id; those in progress carry their watch for the caller's patience. */
  private readonly inFlight = new Map<string | number, EndpointAbort>();
  private running = 0;
  private readonly waiting: { request: ToolCallRequest; bytes: number; controller: EndpointAbort }[] = [];
  private waitingBytes = 0;
  private refusing = false;
  /**
   * One timer for the patience of every watched call, set for the earliest: a timer per call (made
   * and cleared for each, nearly all long before it fires) cost more than the watch itself.
   */
  private patienceTimer: NodeJS.Timeout | undefined;
  private patienceAt = Number.POSITIVE_INFINITY;

  constructor(private readonly opts: EndpointCallsOptions) {}

  /** A tools/call from the endpoint; `bytes`, the size of its frame (what waiting holds). */
  handle(request: ToolCallRequest, bytes = 0): void {
    const controller = new EndpointAbort();
    if (this.running < CALL_LIMITS.inProgress) {
      this.inFlight.set(request.id, controller);
      this.run(request, controller);
      return;
    }
    if (this.waiting.length >= CALL_LIMITS.waiting || this.waitingBytes + bytes > CALL_LIMITS.waitingBytes) {
      if (!this.refusing)
        this.opts.log.warn(
          `refusing tool calls: ${CALL_LIMITS.inProgress} are in progress and ${this.waiting.length} waiting on this connection`,
        );
      this.refusing = true;
      const text = translate(this.opts.language?.() ?? 'en', 'voice.call.busy', {
        running: CALL_LIMITS.inProgress,
        waiting: this.waiting.length,
      });
      this.opts.send({ jsonrpc: '2.0', id: request.id, result: errorResult(text) } as unknown as JSONRPCMessage);
      return;
    }
    // Cancellable while it waits, like one in progress.
    this.inFlight.set(request.id, controller);
    this.waiting.push({ request, bytes, controller });
    this.waitingBytes += bytes;
  }

  private run(request: ToolCallRequest, controller: EndpointAbort): void {
    const { id } = request;
    this.running++;
    const long = this.opts.longCalls ? this.watch(request, controller, this.opts.longCalls) : undefined;
    controller.long = long;
    let answer: Promise<CallAnswer>;
    try {
      answer = this.callTool(request, controller, long);
    } catch (error) {
      answer = Promise.reject(error);
    }
    answer.then(
      ({ result }) => {
        if (long) {
          long.finish(controller.aborted ? 'cancelled' : result.isError ? 'failed' : 'done', result);
          if (long.answered) return;
        }
        // Cancelled here (the window) rather than by the endpoint: the endpoint still waits for its answer.
        this.finish(id, controller, { jsonrpc: '2.0', id, result } as unknown as JSONRPCMessage, long?.cancelledHere === true);
      },
      (error: unknown) => {
        const message = error instanceof Error ? error.message : String(error);
        this.opts.log.warn(`call ${request.params.name} failed inside the bridge: ${message}`);
        long?.finish('failed', message);
        if (long?.answered) return;
        this.finish(id, controller, { jsonrpc: '2.0', id, error: { code: ErrorCode.InternalError, message: 'Internal error' } });
      },
    );
  }

  /** A call watched for the caller's patience: past it, answered at once and left to finish in the background. */
  private watch(request: ToolCallRequest, controller: CallAbort, options: LongCallOptions): LongCall {
    const { caller, owner } = this.opts;
    const long = new LongCall(request, controller, options.calls, caller, owner ?? caller, performance.now() + options.answerAfterMs());
    if (long.due < this.patienceAt) this.checkPatienceAt(long.due);
    return long;
  }

  /** Answers the watched calls whose caller's patience is nearly over, then waits for the next one's. */
  private checkPatience(): void {
    this.patienceTimer = undefined;
    this.patienceAt = Number.POSITIVE_INFINITY;
    const options = this.opts.longCalls;
    if (!options) return;
    const now = performance.now();
    let next = Number.POSITIVE_INFINITY;
    // A call answered here leaves the map and may start a waiting one (a Map's iteration allows both).
    for (const { long } of this.inFlight.values()) {
      if (!long || long.answered || long.controller.aborted) continue;
      if (long.due <= now) this.answerLater(long.request, long.controller, long, options);
      else next = Math.min(next, long.due);
    }
    if (next !== Number.POSITIVE_INFINITY) this.checkPatienceAt(next);
  }

  /** Not holding the process open (the connection does); left set when the calls end, as the next call would set it again. */
  private checkPatienceAt(at: number): void {
    clearTimeout(this.patienceTimer);
    this.patienceAt = at;
    this.patienceTimer = setTimeout(() => this.checkPatience(), Math.max(1, Math.ceil(at - performance.now())));
    this.patienceTimer.unref();
  }

  /**
   * The caller's patience is nearly over: it is told the call goes on (with the id to ask about it),
   * and the call leaves this connection (its place, its cancellation by the endpoint, its end with
   * the connection): from now on only the built-in cancel, or the bridge stopping, stops it.
   */
  private answerLater(
    request: ToolCallRequest,
    controller: CallAbort,
    long: LongCall,
    options: LongCallOptions,
    say?: (taskId: string) => string,
  ): void {
    if (controller.aborted || long.answered) return;
    const taskId = long.watched().answerLater();
    if (taskId === undefined) {
      // Too many run in the background already. Awaited, it would end in the caller's timeout (工具调用请求超时);
      // answered in time instead, and stopped: nobody could ask for its result.
      if (!say) this.tooMany(request, controller, long, options);
      return;
    }
    long.answered = true;
    long.background.id = taskId;
    this.opts.log.info(
      say
        ? `call ${long.tool} asks the user a question; answered with it, the call goes on as task ${taskId}`
        : `call ${long.tool} is still running after ${options.answerAfterMs()} ms; answered, it goes on as task ${taskId}`,
    );
    const text = say ? say(taskId) : stillWorkingText(options.language(), long.tool, taskId);
    this.finish(request.id, controller, {
      jsonrpc: '2.0',
      id: request.id,
      result: { content: [{ type: 'text', text }] },
    } as unknown as JSONRPCMessage);
  }

  /** Past the bound of background tasks: the caller hears so, in time, and the call is stopped. */
  private tooMany(request: ToolCallRequest, controller: CallAbort, long: LongCall, options: LongCallOptions): void {
    long.answered = true;
    this.opts.log.warn(`call ${long.tool} is still running, but too many tasks run in the background; it was stopped`);
    const text = translate(options.language(), 'voice.task.tooMany', { tool: spokenTool(long.tool) });
    this.finish(request.id, controller, { jsonrpc: '2.0', id: request.id, result: errorResult(text) } as unknown as JSONRPCMessage);
    controller.abort('too many tasks run in the background');
  }

  /** A `notifications/cancelled` from the endpoint: true when it named a call of ours. */
  cancel(requestId: unknown, reason: unknown): boolean {
    if (typeof requestId !== 'string' && typeof requestId !== 'number') return false;
    const controller = this.inFlight.get(requestId);
    if (!controller) return false;
    this.inFlight.delete(requestId);
    controller.abort(typeof reason === 'string' ? reason.slice(0, 200) : 'cancelled by the endpoint');
    return true;
  }

  /**
   * The connection closed (`keepCalls`: it was lost, not stopped). A call in progress that may go on in the background does: it becomes a
   * task of this endpoint (within the bound of tasks), so the next session's `task_status` knows it
   * and its result. The others (calls still waiting for a place, or that nobody could ask about)
   * are cancelled: nobody is left to read their answers.
   */
  abortAll(keepCalls = true): void {
    const waiting = new Set(this.waiting.map((w) => w.controller));
    const calls = [...this.inFlight.values()];
    this.inFlight.clear();
    this.waiting.length = 0;
    this.waitingBytes = 0;
    for (const controller of calls) {
      const { long } = controller;
      if (keepCalls && long && !waiting.has(controller) && !long.answered && !controller.aborted && this.goOnAlone(long)) continue;
      controller.abort(keepCalls ? 'the endpoint connection closed' : 'the endpoint was stopped');
    }
    clearTimeout(this.patienceTimer);
    this.patienceTimer = undefined;
    this.patienceAt = Number.POSITIVE_INFINITY;
    if (this.opts.session !== undefined) this.opts.longCalls?.sessionClosed?.(onConnection(this.opts.session));
  }

  /** A call whose connection closed goes on as a task of its endpoint; false when too many run in the background already. */
  private goOnAlone(long: LongCall): boolean {
    const taskId = long.watched().answerLater();
    if (taskId === undefined) return false;
    long.answered = true;
    long.background.id = taskId;
    long.background.disconnected = true;
    this.opts.log.info(`the connection closed while ${long.tool} ran; it goes on as task ${taskId} (task_status tells the next session)`);
    return true;
  }

  /**
   * Not async: the hub's promise is passed on as it is (an async wrapper cost two more turns of microtasks).
   * The context is made in one literal with every part it may get (absent ones undefined): parts
   * added one by one, and the name a session binds later, grew its property store two or three times per call.
   */
  private callTool(request: ToolCallRequest, signal: CallAbort, long: LongCall | undefined): Promise<CallAnswer> {
    const { name, arguments: args, _meta } = request.params;
    const { caller, owner, session } = this.opts;
    const token = _meta?.progressToken;
    const context: CallContext = {
      caller,
      signal,
      idJson: typeof request.id === 'number' ? String(request.id) : JSON.stringify(request.id),
      owner,
      // One device's conversation: behind the self-hosted relay, many share this connection.
      session: session === undefined ? undefined : voiceSession(session, request.id),
      onProgress: undefined,
      background: long?.background,
      answerNow: undefined,
      nameTask: undefined,
      boundTo: undefined,
    };
    if (long) {
      // Asked of the server whether the endpoint asked or not: the window shows it while the call runs.
      context.onProgress = (progress) => {
        long.progress(progress);
        if (token !== undefined && !long.answered) this.progress(token, progress, signal);
      };
      context.answerNow = (say) => this.answerNow(request, signal, long, say);
      context.nameTask = (tool) => long.rename(tool);
    } else if (token !== undefined) context.onProgress = (progress) => this.progress(token, progress, signal);
    return this.opts.tools.call(name, args ?? {}, context);
  }

  /** The call's caller is answered now with `say` (a server's question during the call), the call going on as a task; its id, or undefined. */
  private answerNow(request: ToolCallRequest, controller: CallAbort, long: LongCall, say: (taskId: string) => string): string | undefined {
    // Answered already (a second question in the same call): the caller cannot hear this one; the window asks it.
    if (long.answered || !this.opts.longCalls) return undefined;
    this.answerLater(request, controller, long, this.opts.longCalls, say);
    return long.answered ? long.background.id : undefined;
  }

  private progress(progressToken: string | number, progress: Progress, signal: CallAbort): void {
    if (signal.aborted) return;
    // A server's progress message is for a person; a long one would push the frame past the endpoint's limit.
    const message =
      typeof progress.message === 'string' && progress.message.length > 200 ? `${progress.message.slice(0, 200)}…` : progress.message;
    const params = { progressToken, ...progress, ...(message !== undefined ? { message } : {}) };
    this.opts.send({ jsonrpc: '2.0', method: 'notifications/progress', params });
  }

  /** The call leaves this connection's places (answered, or answered early); its answer is sent unless cancelled. */
  private finish(id: string | number, controller: CallAbort, message: JSONRPCMessage, evenIfAborted = false): void {
    this.running--;
    this.next();
    if (controller.aborted && !evenIfAborted) return;
    if (this.inFlight.get(id) === controller) this.inFlight.delete(id);
    this.opts.send(message);
  }

  /** The next waiting call that was not cancelled meanwhile takes the free place. */
  private next(): void {
    while (this.running < CALL_LIMITS.inProgress && this.waiting.length > 0) {
      const { request, bytes, controller } = this.waiting.shift()!;
      this.waitingBytes -= bytes;
      if (controller.aborted) continue;
      this.refusing = false;
      this.run(request, controller);
    }
  }
}

/** A call's abort signal, with its watch for the caller's patience once it runs (a second map by id held the watches). */
class EndpointAbort extends CallAbort {
  long: LongCall | undefined = undefined;
}
