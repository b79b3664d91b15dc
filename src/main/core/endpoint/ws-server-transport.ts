import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  InitializeRequestSchema,
  JSONRPCMessageSchema,
  ListToolsRequestSchema,
  type JSONRPCMessage,
} from '@modelcontextprotocol/sdk/types.js';
import type WebSocket from 'ws';
import type { Logger } from '../logs/log-book';

/**
 * The SDK's `Transport` over a client `ws` socket: one JSON-RPC message per text frame.
 * Whatever the other side sends that is not a valid message is answered or dropped here,
 * never allowed to close the link.
 */
export class WsServerTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private closed = false;
  private readonly onSocketMessage = (data: WebSocket.RawData, isBinary: boolean) => this.receive(data, isBinary);
  private readonly onSocketClose = () => this.handleClose();

  constructor(
    private readonly socket: WebSocket,
    private readonly log: Logger,
    private readonly maxMessageBytes: () => number,
  ) {}

  async start(): Promise<void> {
    this.socket.on('message', this.onSocketMessage);
    this.socket.on('close', this.onSocketClose);
  }

  send(message: JSONRPCMessage): Promise<void> {
    const text = JSON.stringify(message);
    const bytes = Buffer.byteLength(text);
    if (bytes > this.maxMessageBytes()) {
      this.log.warn(`sending a ${bytes}-byte message, over the ${this.maxMessageBytes()}-byte limit; the endpoint may drop it`);
    }
    return new Promise((resolve, reject) => {
      if (this.socket.readyState !== this.socket.OPEN) {
        reject(new Error('not connected'));
        return;
      }
      this.socket.send(text, (error) => (error ? reject(error) : resolve()));
    });
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
    const text = Array.isArray(data) ? Buffer.concat(data).toString('utf8') : Buffer.from(data as ArrayBuffer).toString('utf8');
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      this.log.warn(`dropped a ${isBinary ? 'binary' : 'text'} frame that is not JSON: ${preview(text)}`);
      return;
    }
    const result = JSONRPCMessageSchema.safeParse(parsed);
    if (result.success) {
      const invalid = invalidParams(result.data);
      if (invalid) {
        this.log.warn(`answered a ${invalid.method} request with invalid params (id ${JSON.stringify(invalid.id)}): ${invalid.message}`);
        void this.send({ jsonrpc: '2.0', id: invalid.id, error: { code: ErrorCode.InvalidParams, message: `Invalid params: ${invalid.message}` } }).catch(() => undefined);
        return;
      }
      this.onmessage?.(result.data);
      return;
    }
    const id = idOf(parsed);
    if (id === undefined) {
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

/** The SDK would report bad params of these as an internal error; they deserve -32602. */
const REQUEST_SCHEMAS = {
  initialize: InitializeRequestSchema,
  'tools/list': ListToolsRequestSchema,
  'tools/call': CallToolRequestSchema,
} as const;

function invalidParams(message: JSONRPCMessage): { id: string | number; method: string; message: string } | undefined {
  if (!('method' in message) || !('id' in message)) return undefined;
  const schema = REQUEST_SCHEMAS[message.method as keyof typeof REQUEST_SCHEMAS];
  if (!schema) return undefined;
  const parsed = schema.safeParse(message);
  if (parsed.success) return undefined;
  const issue = parsed.error.issues[0];
  const where = issue?.path.length ? `${issue.path.join('.')}: ` : '';
  return { id: message.id, method: message.method, message: `${where}${issue?.message ?? 'invalid'}` };
}

function idOf(value: unknown): string | number | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const id = (value as { id?: unknown }).id;
  return typeof id === 'string' || typeof id === 'number' ? id : undefined;
}

function preview(text: string): string {
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}
