import { ErrorCode, type JSONRPCMessage, type Progress } from '@modelcontextprotocol/sdk/types.js';
import type { CallAnswer } from '../hub/tool-hub';
import type { Logger } from '../logs/log-book';
import type { CallableTools } from '../router/settling-tools';
import { CallAbort } from '../hub/call-signal';

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
  /** Sends to the endpoint; nothing waits for it (a message that cannot go is lost with the link). */
  send: (message: JSONRPCMessage) => void;
  log: Logger;
}

/**
 * The endpoint's `tools/call` requests, answered below the SDK's `Protocol` (the frame was
 * checked by hand in the transport): a light abort signal per call in flight, cancellation by
 * `notifications/cancelled`, the server's progress passed on, and no answer to a cancelled call
 * (as the MCP spec asks, and as the SDK's `Server` did).
 */
export class EndpointCalls {
  private readonly inFlight = new Map<string | number, CallAbort>();
  private running = 0;
  private readonly waiting: { request: ToolCallRequest; bytes: number; controller: CallAbort }[] = [];
  private waitingBytes = 0;
  private refusing = false;

  constructor(private readonly opts: EndpointCallsOptions) {}

  /** A tools/call from the endpoint; `bytes`, the size of its frame (what waiting holds). */
  handle(request: ToolCallRequest, bytes = 0): void {
    const controller = new CallAbort();
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
      const text = `${CALL_LIMITS.inProgress} calls are in progress already and ${this.waiting.length} are waiting; try again when one has finished.`;
      this.opts.send({
        jsonrpc: '2.0',
        id: request.id,
        result: { content: [{ type: 'text', text }], isError: true },
      } as unknown as JSONRPCMessage);
      return;
    }
    // Cancellable while it waits, like one in progress.
    this.inFlight.set(request.id, controller);
    this.waiting.push({ request, bytes, controller });
    this.waitingBytes += bytes;
  }

  private run(request: ToolCallRequest, controller: CallAbort): void {
    const { id } = request;
    this.running++;
    let answer: Promise<CallAnswer>;
    try {
      answer = this.callTool(request, controller);
    } catch (error) {
      answer = Promise.reject(error);
    }
    answer.then(
      ({ result }) => this.finish(id, controller, { jsonrpc: '2.0', id, result } as unknown as JSONRPCMessage),
      (error: unknown) => {
        this.opts.log.warn(
          `call ${request.params.name} failed inside the bridge: ${error instanceof Error ? error.message : String(error)}`,
        );
        this.finish(id, controller, { jsonrpc: '2.0', id, error: { code: ErrorCode.InternalError, message: 'Internal error' } });
      },
    );
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

  /** The connection closed: calls in flight are cancelled (nobody is left to read their answers). */
  abortAll(): void {
    const controllers = [...this.inFlight.values()];
    this.inFlight.clear();
    this.waiting.length = 0;
    this.waitingBytes = 0;
    for (const controller of controllers) controller.abort('the endpoint connection closed');
  }

  /** Not async: the hub's promise is passed on as it is (an async wrapper cost two more turns of microtasks). */
  private callTool(request: ToolCallRequest, signal: CallAbort): Promise<CallAnswer> {
    const { name, arguments: args, _meta } = request.params;
    const token = _meta?.progressToken;
    return this.opts.tools.call(name, args ?? {}, {
      caller: this.opts.caller,
      signal,
      idJson: JSON.stringify(request.id),
      ...(token !== undefined ? { onProgress: (progress: Progress) => this.progress(token, progress, signal) } : {}),
    });
  }

  private progress(progressToken: string | number, progress: Progress, signal: CallAbort): void {
    if (signal.aborted) return;
    // A server's progress message is for a person; a long one would push the frame past the endpoint's limit.
    const message =
      typeof progress.message === 'string' && progress.message.length > 200 ? `${progress.message.slice(0, 200)}…` : progress.message;
    const params = { progressToken, ...progress, ...(message !== undefined ? { message } : {}) };
    this.opts.send({ jsonrpc: '2.0', method: 'notifications/progress', params });
  }

  private finish(id: string | number, controller: CallAbort, message: JSONRPCMessage): void {
    this.running--;
    this.next();
    if (controller.aborted) return;
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
