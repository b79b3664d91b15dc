import { ErrorCode, type CallToolResult, type JSONRPCMessage, type Progress } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from '../logs/log-book';
import type { EndpointTools } from '../router/endpoint-catalogs';
import { CallAbort } from '../hub/call-signal';

export interface ToolCallRequest {
  id: string | number;
  params: { name: string; arguments?: Record<string, unknown>; _meta?: { progressToken?: string | number } };
}

export interface EndpointCallsOptions {
  tools: EndpointTools;
  catalogSettled: () => Promise<void>;
  caller: string;
  send: (message: JSONRPCMessage) => Promise<void>;
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

  constructor(private readonly opts: EndpointCallsOptions) {}

  handle(request: ToolCallRequest): void {
    const controller = new CallAbort();
    const { id } = request;
    this.inFlight.set(id, controller);
    this.answer(request, controller).then(
      (result) => this.finish(id, controller, { jsonrpc: '2.0', id, result } as unknown as JSONRPCMessage),
      (error: unknown) => {
        this.opts.log.warn(`call ${request.params.name} failed inside the bridge: ${error instanceof Error ? error.message : String(error)}`);
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
    for (const controller of controllers) controller.abort('the endpoint connection closed');
  }

  private async answer(request: ToolCallRequest, signal: CallAbort): Promise<CallToolResult> {
    const { name, arguments: args, _meta } = request.params;
    const { tools } = this.opts;
    // A tool of a server still starting (a broker calling from a list it kept) waits like a list.
    if (!tools.has(name)) await this.opts.catalogSettled();
    const token = _meta?.progressToken;
    return tools.call(name, args ?? {}, {
      caller: this.opts.caller,
      signal,
      idJson: JSON.stringify(request.id),
      ...(token !== undefined ? { onProgress: (progress: Progress) => this.progress(token, progress, signal) } : {}),
    });
  }

  private progress(progressToken: string | number, progress: Progress, signal: CallAbort): void {
    if (signal.aborted) return;
    this.opts.send({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken, ...progress } }).catch(() => undefined);
  }

  private finish(id: string | number, controller: CallAbort, message: JSONRPCMessage): void {
    if (controller.aborted) return;
    if (this.inFlight.get(id) === controller) this.inFlight.delete(id);
    this.opts.send(message).catch(() => undefined);
  }
}
