import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type WebSocket from 'ws';

import { forbiddenKeyPaths, formatKeyPath, mayHaveForbiddenKey } from '../../../shared/forbidden-keys';
import { isRecord } from '../../../shared/is-record';
import { type Corkable, corkForThisTurn } from '../io/cork';
import type { Logger } from '../logs/log-book';
import type { ToolCallRequest } from './endpoint-calls';

/** Answers not yet sent past which the other side is taken to have stopped reading (xiaozhi reads at once). */
const MAX_UNSENT_BYTES = 16 * 1024 * 1024;
const TEXT_FRAME = { binary: false } as const;

/**
 * The SDK's `Transport` over a client `ws` socket: one JSON-RPC message per text frame.
 * Whatever the other side sends that is not a valid message is answered or dropped here,
 * never allowed to close the link.
 */
export class WsServerTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** `tools/call` requests go here instead of to the SDK (the relay fast path), when set. */
  ontoolcall?: (request: ToolCallRequest, bytes: number) => void;
  /** A message has been written to the socket (sends are corked for a turn of the event loop). */
  onsent?: (message: JSONRPCMessage) => void;
  /** A `notifications/cancelled`: true when the call it names was one of `ontoolcall`'s. */
  oncancelled?: (requestId: unknown, reason: unknown) => boolean;

  private closed = false;
  /** Ids of requests we sent; a response to anything else is unsolicited and dropped. */
  private readonly outgoing = new Set<string | number>();
  private readonly onSocketMessage = (data: WebSocket.RawData, isBinary: boolean) => this.receive(data, isBinary);
  private readonly onSocketClose = () => this.handleClose();

  constructor(
    private readonly socket: WebSocket,
    private readonly log: Logger,
    private readonly maxMessageBytes: () => number,
    /** The TCP (or TLS) socket under `socket` (its upgrade response's, see `upgradedSocket`): a turn's frames leave corked in one write. */
    private readonly raw?: Corkable,
  ) {}

  async start(): Promise<void> {
    this.socket.on('message', this.onSocketMessage);
    this.socket.on('close', this.onSocketClose);
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve, reject) => {
      if (!this.post(message, (error) => (error ? reject(error) : resolve()))) reject(new Error('not connected'));
    });
  }

  /**
   * `send` without a promise, for answers nobody waits on (the relay's): false when the message
   * could not be sent. `done` is called once the socket has taken it.
   */
  post(message: JSONRPCMessage, done?: (error?: Error) => void): boolean {
    if ('method' in message && 'id' in message) this.outgoing.add(message.id);
    // Encoded once: its size is the buffer's length, and ws sends the buffer as it is.
    const data = Buffer.from(JSON.stringify(message));
    if (data.length > this.maxMessageBytes()) {
      this.log.warn(`sending a ${data.length}-byte message, over the ${this.maxMessageBytes()}-byte limit; the endpoint may drop it`);
    }
    if (this.socket.readyState !== this.socket.OPEN) return false;
    if (this.socket.bufferedAmount > MAX_UNSENT_BYTES) {
      // A peer that sends requests but stops reading the answers would have us hold every
      // answer in memory without end (an 8 KB page for each 70-byte tools/list). Closed first:
      // the link reconnects, and the warning is not sent to a socket that is going.
      const megabytes = Math.round(this.socket.bufferedAmount / (1024 * 1024));
      this.socket.terminate();
      this.log.warn(
        `the endpoint stopped reading: ${megabytes} MB of answers were waiting to be sent; closed the connection (it reconnects)`,
      );
      return false;
    }
    corkForThisTurn(this.raw);
    const onsent = this.onsent;
    this.socket.send(
      data,
      TEXT_FRAME,
      done || onsent
        ? (error) => {
            if (!error) onsent?.(message);
            done?.(error);
          }
        : undefined,
    );
    return true;
  }

  async close(): Promise<void> {
    if (this.socket.readyState === this.socket.OPEN || this.socket.readyState === this.socket.CONNECTING) {
      this.socket.close(1000, 'closing');
    }
    this.handleClose();
  }

  private handleClose(): void {
    if (this.closed) return;
    this.closed = true;
    this.socket.off('message', this.onSocketMessage);
    this.socket.off('close', this.onSocketClose);
    this.onclose?.();
  }

  private receive(data: WebSocket.RawData, isBinary: boolean): void {
    const text = Buffer.isBuffer(data)
      ? data.toString('utf8')
      : Array.isArray(data)
        ? Buffer.concat(data).toString('utf8')
        : Buffer.from(data).toString('utf8');
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      this.log.warn(`dropped a ${isBinary ? 'binary' : 'text'} frame that is not JSON: ${preview(text)}`);
      return;
    }
    if (mayHaveForbiddenKey(text)) {
      const refused = forbiddenKeyPaths(parsed, 1)[0];
      if (refused) {
        const where = formatKeyPath(refused);
        const id = idOf(parsed);
        this.log.warn(`refused a frame with the key "${String(refused[refused.length - 1])}" at ${where}`);
        if (id !== undefined && invalidId(parsed) === undefined) {
          void this.send({
            jsonrpc: '2.0',
            id,
            error: { code: ErrorCode.InvalidParams, message: `Invalid params: the key at ${where} is not allowed` },
          }).catch(() => undefined);
        }
        return;
      }
    }
    const badId = invalidId(parsed);
    if (badId) {
      this.log.warn(`answered a frame with ${badId.why} with an error`);
      void this.send({
        jsonrpc: '2.0',
        id: badId.echo,
        error: { code: ErrorCode.InvalidRequest, message: `Invalid Request: ${badId.why}` },
      } as unknown as JSONRPCMessage).catch(() => undefined);
      return;
    }
    if (isMessage(parsed)) {
      if (!('method' in parsed)) {
        // We play the server: the other side answers only requests we sent. Anything else is
        // dropped here, before the SDK would copy it whole into an error message.
        if (parsed.id === undefined || !this.outgoing.delete(parsed.id)) {
          this.log.warn(`dropped an unsolicited response (id ${preview(JSON.stringify(parsed.id), 60)}, ${text.length} characters)`);
          return;
        }
      }
      const invalid = invalidParams(parsed);
      if (invalid) {
        this.log.warn(`answered a ${invalid.method} request with invalid params (id ${JSON.stringify(invalid.id)}): ${invalid.message}`);
        void this.send({
          jsonrpc: '2.0',
          id: invalid.id,
          error: { code: ErrorCode.InvalidParams, message: `Invalid params: ${invalid.message}` },
        }).catch(() => undefined);
        return;
      }
      if ('method' in parsed) {
        if (this.ontoolcall && parsed.method === 'tools/call' && 'id' in parsed) {
          this.ontoolcall(parsed as unknown as ToolCallRequest, text.length);
          return;
        }
        if (
          this.oncancelled &&
          parsed.method === 'notifications/cancelled' &&
          this.oncancelled(parsed.params?.requestId, parsed.params?.reason)
        )
          return;
      }
      this.onmessage?.(parsed);
      return;
    }
    const id = idOf(parsed);
    if (id === undefined) {
      // A request whose id JSON-RPC does not allow (null, true, an object), or a batch: the error
      // goes back with a null id, as the spec says for a request whose id cannot be read.
      const unanswerable = Array.isArray(parsed)
        ? 'batches are not supported: send one message per frame'
        : isRecord(parsed) && 'id' in parsed && 'method' in parsed
          ? 'the id must be a string or an integer'
          : undefined;
      if (unanswerable) {
        this.log.warn(`answered a frame with an error (${unanswerable}): ${preview(text)}`);
        void this.send({
          jsonrpc: '2.0',
          id: null,
          error: { code: ErrorCode.InvalidRequest, message: `Invalid Request: ${unanswerable}` },
        } as unknown as JSONRPCMessage).catch(() => undefined);
        return;
      }
      this.log.warn(`dropped a frame that is not a JSON-RPC message: ${preview(text)}`);
      return;
    }
    this.log.warn(`answered an invalid request (id ${JSON.stringify(id)}) with an error: ${preview(text)}`);
    void this.send({
      jsonrpc: '2.0',
      id,
      error: { code: ErrorCode.InvalidRequest, message: 'Invalid Request: not a JSON-RPC 2.0 request or notification' },
    }).catch(() => undefined);
  }
}

/** Relay ids look like "3f2a…-uuid_n_1"; anything far longer is not an id worth storing or echoing. */
export const MAX_ID_LENGTH = 256;

const isId = (v: unknown): v is string | number => typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v));

/**
 * An id JSON-RPC does not allow (a fraction, a number past 2^53) or too long to hold: answered
 * with Invalid Request. A long id is not echoed (`null`), so it is neither stored nor sent back.
 */
function invalidId(value: unknown): { why: string; echo: string | number | null } | undefined {
  if (!isRecord(value) || !('id' in value)) return undefined;
  const id = value.id;
  if (typeof id === 'number' && !Number.isSafeInteger(id))
    return { why: `the id ${preview(String(id), 40)} is not an integer JSON-RPC can carry`, echo: Number.isFinite(id) ? id : null };
  if (typeof id === 'string' && id.length > MAX_ID_LENGTH)
    return { why: `an id of ${id.length} characters (at most ${MAX_ID_LENGTH})`, echo: null };
  return undefined;
}

/**
 * The shape of a JSON-RPC 2.0 message, checked by hand: this runs for every frame, and the SDK
 * validates the details again behind us, so a full schema parse here would only cost time.
 */
function isMessage(v: unknown): v is JSONRPCMessage {
  if (!isRecord(v) || v.jsonrpc !== '2.0') return false;
  if (v.params !== undefined && !isRecord(v.params)) return false;
  if (typeof v.method === 'string') return v.id === undefined || isId(v.id);
  return isId(v.id) && ('result' in v ? isRecord(v.result) : isRecord(v.error));
}

/** The SDK reports bad params of these as an internal error (-32603); they deserve -32602. */
function invalidParams(message: JSONRPCMessage): { id: string | number; method: string; message: string } | undefined {
  if (!('method' in message) || !('id' in message)) return undefined;
  const params = (message.params ?? {}) as Record<string, unknown>;
  let problem: string | undefined;
  const meta = params._meta;
  if (
    meta !== undefined &&
    (!isRecord(meta) ||
      (meta.progressToken !== undefined && typeof meta.progressToken !== 'string' && typeof meta.progressToken !== 'number'))
  ) {
    problem = 'params._meta.progressToken must be a string or a number';
  }
  switch (problem ? '' : message.method) {
    case 'tools/call':
      if (typeof params.name !== 'string') problem = 'params.name must be a string';
      else if (params.arguments !== undefined && !isRecord(params.arguments)) problem = 'params.arguments must be an object';
      break;
    case 'tools/list':
      if (params.cursor !== undefined && typeof params.cursor !== 'string') problem = 'params.cursor must be a string';
      break;
    case 'initialize': {
      const info = params.clientInfo;
      if (typeof params.protocolVersion !== 'string') problem = 'params.protocolVersion must be a string';
      else if (!isRecord(params.capabilities)) problem = 'params.capabilities must be an object';
      else if (!isRecord(info) || typeof info.name !== 'string' || typeof info.version !== 'string')
        problem = 'params.clientInfo must have a name and a version';
      break;
    }
  }
  return problem ? { id: message.id, method: message.method, message: problem } : undefined;
}

function idOf(value: unknown): string | number | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const id = (value as { id?: unknown }).id;
  return typeof id === 'string' || typeof id === 'number' ? id : undefined;
}

function preview(text: string, max = 200): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/**
 * The network socket a WebSocket client will run over, once upgraded (ws keeps its own private):
 * the upgrade response's, which is the same socket. Call before the socket opens.
 */
export function upgradedSocket(ws: WebSocket): () => Corkable | undefined {
  let raw: Corkable | undefined;
  ws.once('upgrade', (response) => (raw = response.socket));
  return () => raw;
}
