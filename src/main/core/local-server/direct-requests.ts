import type http from 'node:http';

import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  type CallToolRequest,
  ErrorCode,
  type JSONRPCMessage,
  type JSONRPCRequest,
  McpError,
  type ServerNotification,
  type ServerRequest,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '@modelcontextprotocol/sdk/types.js';

import { type CallHandler, plainToolCall, servedCallResult } from './direct-calls';

/** A request on its way: the answer not started yet (JSON still possible) or started as an event stream. */
interface Open {
  res: http.ServerResponse;
  streaming: boolean;
  /** Switches a request still unanswered to an event stream, then keeps the stream alive. */
  timer: NodeJS.Timeout | undefined;
  /** A call run here (not by the SDK's Protocol): aborted when its client cancels it or the session ends. */
  abort?: AbortController | undefined;
}

export type CallExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** How long an answer may be in the making before the headers go out, as an event stream. */
export const STREAM_AFTER_MS = 1000;
/** A comment line this often on a long answer's stream, as the SDK's transport sends (its DEFAULT_SSE_KEEP_ALIVE_MS). */
export const KEEP_ALIVE_MS = 15_000;

const REQUEST_KEYS = new Set(['jsonrpc', 'id', 'method', 'params']);

/**
 * A request POSTed to a session that is open already (a tool call, a list), answered here rather
 * than by the SDK's streamable-HTTP transport: that one turns each Node request into a web Request,
 * parses the message with zod, and answers through a ReadableStream piped back by @hono/node-server
 * as an event stream the client then parses again, about 1 ms per call on this machine. Here the
 * message goes straight to the session's SDK `Server` (its Protocol: handlers, cancellation,
 * progress) and its answer straight to the response: as JSON when the answer is the first thing to
 * send, as an event stream once anything comes first (progress, a server's question during the
 * call), or once the answer takes longer than STREAM_AFTER_MS (a client's fetch may give up waiting
 * for headers that do not come). Both are what the spec lets a server answer a POST with.
 *
 * A plain `tools/call` skips the Protocol too (`direct-calls.ts`): its handler runs here, with
 * what the Protocol would give it (a signal its cancellation aborts, notifications and requests
 * that ride its response).
 *
 * Anything else (initialize, notifications, batches, GET streams, DELETE, a request that is not
 * plainly well formed, headers the SDK would refuse) still goes to the SDK's transport, which checks
 * it and answers it as before.
 */
export class DirectRequests {
  private readonly open = new Map<string | number, Open>();
  private calls: CallHandler<CallExtra> | undefined;

  constructor(
    private readonly transport: StreamableHTTPServerTransport,
    private readonly sessionId: string,
    private readonly server: Server,
  ) {
    // Called by the Protocol (which keeps it when it connects) before it handles each message: a
    // cancellation of a call run here aborts it, as the Protocol aborts the calls it runs.
    transport.onmessage = (message) => {
      if (!('method' in message) || message.method !== 'notifications/cancelled') return;
      const params = message.params as { requestId?: unknown; reason?: unknown } | undefined;
      const id = params?.requestId;
      if (typeof id === 'string' || typeof id === 'number') this.open.get(id)?.abort?.abort(params?.reason);
    };
    const send = transport.send.bind(transport);
    // The session's Server sends everything through its transport: what answers (or belongs to) a
    // request taken here is written here, the rest goes on to the SDK's transport.
    transport.send = (message, options) => {
      const id = 'method' in message ? options?.relatedRequestId : 'id' in message ? message.id : undefined;
      const open = id === undefined ? undefined : this.open.get(id);
      if (!open) return send(message, options);
      this.write(id as string | number, open, message, !('method' in message));
      return Promise.resolve();
    };
  }

  /** The request when this class answers it (else undefined: the SDK's transport does). */
  accepts(req: http.IncomingMessage, body: unknown): JSONRPCRequest | undefined {
    if (req.method !== 'POST' || typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
    const message = body as Record<string, unknown>;
    const { id, method, params } = message;
    if (message.jsonrpc !== '2.0' || typeof method !== 'string' || method === 'initialize') return undefined;
    // An integer id the SDK's schema takes (a safe one): anything else is the SDK's to refuse.
    if (typeof id !== 'string' && !Number.isSafeInteger(id)) return undefined;
    if (params !== undefined && (typeof params !== 'object' || params === null || Array.isArray(params))) return undefined;
    for (const key in message) if (!REQUEST_KEYS.has(key)) return undefined;
    if (this.open.has(id as string | number)) return undefined;
    const accept = req.headers.accept ?? '';
    if (!accept.includes('application/json') || !accept.includes('text/event-stream')) return undefined;
    if (!/^application\/json\s*(?:;|$)/i.test(req.headers['content-type'] ?? '')) return undefined;
    const version = req.headers['mcp-protocol-version'];
    if (version !== undefined && (typeof version !== 'string' || !SUPPORTED_PROTOCOL_VERSIONS.includes(version))) return undefined;
    return body as JSONRPCRequest;
  }

  /** The session's `tools/call` handler, run here for a plain call (the Server keeps it for the rest). */
  answerCallsWith(handler: CallHandler<CallExtra>): void {
    this.calls = handler;
  }

  /**
   * Runs a plain call's handler here, or hands the request to the session's Server; the answer
   * comes back through the transport's send.
   */
  take(req: http.IncomingMessage, res: http.ServerResponse, request: JSONRPCRequest): void {
    const open: Open = { res, streaming: false, timer: undefined };
    open.timer = setTimeout(() => this.stream(open), STREAM_AFTER_MS);
    this.open.set(request.id, open);
    res.once('close', () => this.forget(request.id, open));
    if (this.calls !== undefined && plainToolCall(request)) this.call(this.calls, req, open, request);
    else this.transport.onmessage?.(request, { requestInfo: { headers: req.headers } });
  }

  /** The session ends: requests still open end with it (their client hears the connection go), and their calls stop. */
  close(): void {
    for (const [id, open] of this.open) {
      this.forget(id, open);
      open.abort?.abort();
      open.res.destroy();
    }
  }

  /**
   * A call as the SDK's Protocol and Server run it: the handler with its extra, the result checked;
   * a call aborted meanwhile gets no answer, an error is answered with its code (else internal).
   */
  private call(handler: CallHandler<CallExtra>, req: http.IncomingMessage, open: Open, request: JSONRPCRequest & CallToolRequest): void {
    const { id } = request;
    const abort = new AbortController();
    open.abort = abort;
    const { signal } = abort;
    const server = this.server;
    const extra: CallExtra = {
      signal,
      sessionId: this.sessionId,
      _meta: request.params._meta,
      requestId: id,
      requestInfo: { headers: req.headers },
      sendNotification: async (notification) => {
        if (!signal.aborted) await server.notification(notification, { relatedRequestId: id });
      },
      sendRequest: async (asked, schema, options) => {
        if (signal.aborted) throw new McpError(ErrorCode.ConnectionClosed, 'Request was cancelled');
        return server.request(asked, schema, { ...options, relatedRequestId: id });
      },
    };
    const answer = (message: JSONRPCMessage) => {
      if (signal.aborted) return;
      const now = this.open.get(id);
      if (now === open) this.write(id, open, message, true);
    };
    handler(request, extra)
      .then((result) => servedCallResult(result))
      .then(
        (result) => answer({ result, jsonrpc: '2.0', id }),
        (error: unknown) => {
          const { code, message, data } = (error ?? {}) as { code?: unknown; message?: unknown; data?: unknown };
          answer({
            jsonrpc: '2.0',
            id,
            error: {
              code: Number.isSafeInteger(code) ? (code as number) : ErrorCode.InternalError,
              message: (message as string | undefined) ?? 'Internal error',
              ...(data !== undefined ? { data } : {}),
            },
          });
        },
      );
  }

  private write(id: string | number, open: Open, message: JSONRPCMessage, last: boolean): void {
    const { res } = open;
    if (res.destroyed || res.writableEnded) return this.forget(id, open);
    if (last && !open.streaming) {
      this.forget(id, open);
      // With its length (not chunked): the headers and the body leave in one write, and the client has no chunks to decode.
      const body = JSON.stringify(message);
      res
        .writeHead(200, {
          'Content-Type': 'application/json',
          'Content-Length': Buffer.byteLength(body),
          'mcp-session-id': this.sessionId,
        })
        .end(body);
      return;
    }
    this.stream(open);
    res.write(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
    if (last) {
      this.forget(id, open);
      res.end();
    }
  }

  /** The answer goes on as an event stream: headers now, a comment now and then to keep it alive. */
  private stream(open: Open): void {
    if (open.streaming) return;
    open.streaming = true;
    clearTimeout(open.timer);
    const { res } = open;
    if (res.destroyed || res.writableEnded) return;
    res.writeHead(200, {
      'Content-Type': 'text/event-stream',
      'Cache-Control': 'no-cache, no-transform',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
      'mcp-session-id': this.sessionId,
    });
    res.flushHeaders();
    open.timer = setInterval(() => res.write(': keepalive\n\n'), KEEP_ALIVE_MS);
    open.timer.unref();
  }

  private forget(id: string | number, open: Open): void {
    clearTimeout(open.timer);
    clearInterval(open.timer);
    if (this.open.get(id) === open) this.open.delete(id);
  }
}
