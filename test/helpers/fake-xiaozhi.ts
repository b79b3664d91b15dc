import { once } from 'node:events';

import { type WebSocket, WebSocketServer } from 'ws';

import { scaled } from './time-scale';
import { waitFor } from './wait';

export interface JsonMessage {
  jsonrpc?: string;
  id?: string | number | null;
  method?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown> & {
    tools?: { name: string; description?: string; inputSchema?: unknown }[];
    nextCursor?: string;
    content?: { type: string; text?: string }[];
    isError?: boolean;
  };
  error?: { code: number; message: string };
}

/** One connection the bridge made to the fake endpoint. */
export class FakeSession {
  readonly received: JsonMessage[] = [];
  readonly rawFrames: string[] = [];
  /** Set false for load (benchmarks): nothing is kept but what a waiter asked for. */
  record = true;
  private readonly responses = new Map<string | number, JsonMessage>();
  private readonly waiters = new Map<string | number, { resolve: (message: JsonMessage) => void; reject: (error: Error) => void }>();
  private closed = false;

  constructor(readonly socket: WebSocket) {
    socket.on('message', (data) => {
      const text = data.toString();
      const message = JSON.parse(text) as JsonMessage;
      if (this.record) {
        this.rawFrames.push(text);
        this.received.push(message);
      }
      const id = message.id;
      if (id !== undefined && id !== null && (message.result !== undefined || message.error !== undefined)) {
        // Responses are handed over the moment they arrive (no polling, so timings are honest).
        const waiter = this.waiters.get(id);
        if (waiter) {
          this.waiters.delete(id);
          waiter.resolve(message);
        } else if (this.record) this.responses.set(id, message);
      }
    });
    socket.on('close', (code) => {
      this.closed = true;
      // No answer comes on a closed connection: say so now rather than time out later.
      for (const [id, waiter] of this.waiters)
        waiter.reject(new Error(`the connection closed (code ${code}) before the response to id ${JSON.stringify(id)}`));
      this.waiters.clear();
    });
  }

  get isClosed(): boolean {
    return this.closed;
  }

  sendRaw(text: string): void {
    this.socket.send(text);
  }

  send(message: JsonMessage): void {
    this.socket.send(JSON.stringify(message));
  }

  /** Waits for the response with this id (compared exactly, type included); `timeoutMs` times TIME_SCALE. */
  response(id: string | number, timeoutMs = 20_000): Promise<JsonMessage> {
    const already = this.responses.get(id);
    if (already) return Promise.resolve(already);
    if (this.closed) return Promise.reject(new Error(`the connection is closed: no response to id ${JSON.stringify(id)} will come`));
    const limit = scaled(timeoutMs);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters.delete(id);
        reject(new Error(`timed out after ${limit} ms waiting for the response to id ${JSON.stringify(id)}`));
      }, limit);
      this.waiters.set(id, {
        resolve: (message) => {
          clearTimeout(timer);
          resolve(message);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      });
    });
  }

  request(id: string | number, method: string, params: Record<string, unknown> = {}, timeoutMs?: number): Promise<JsonMessage> {
    const response = this.response(id, timeoutMs);
    this.send({ jsonrpc: '2.0', id, method, params });
    return response;
  }

  /** The handshake xiaozhi.me's broker does (id 0!). */
  async initialize(): Promise<JsonMessage> {
    const response = await this.request(0, 'initialize', {
      protocolVersion: '2024-11-05',
      capabilities: { sampling: {}, roots: { listChanged: false } },
      clientInfo: { name: 'xz-mcp-broker', version: '0.0.1' },
    });
    this.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    return response;
  }

  /**
   * The handshake of the self-hosted xiaozhi-esp32-server: initialize (id 1) and initialized back to
   * back, without waiting for the answer (read it with `response(1)`).
   */
  sendSelfHostedHandshake(): void {
    this.send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2024-11-05', capabilities: {}, clientInfo: { name: 'xiaozhi-esp32-server', version: '1' } },
    });
    this.send({ jsonrpc: '2.0', method: 'notifications/initialized', params: {} });
  }

  /** Follows nextCursor like the device firmware and the self-hosted server do. */
  async listAllTools(idBase = 1000): Promise<{ tools: NonNullable<NonNullable<JsonMessage['result']>['tools']>; pages: JsonMessage[] }> {
    const tools: NonNullable<NonNullable<JsonMessage['result']>['tools']> = [];
    const pages: JsonMessage[] = [];
    let cursor: string | undefined;
    let id = idBase;
    do {
      const page = await this.request(id++, 'tools/list', cursor === undefined ? {} : { cursor });
      pages.push(page);
      tools.push(...(page.result?.tools ?? []));
      cursor = page.result?.nextCursor;
    } while (cursor !== undefined);
    return { tools, pages };
  }

  /** Waits for `method` among the messages received after the first `after` ones. */
  async waitForNotification(method: string, after = 0, timeoutMs = 20_000): Promise<JsonMessage> {
    const find = () => this.received.slice(after).find((m) => m.method === method);
    await waitFor(() => find() !== undefined, timeoutMs, `notification ${method}`);
    return find() as JsonMessage;
  }

  /** A mark to pass to waitForNotification: only what arrives from now on counts. */
  mark(): number {
    return this.received.length;
  }

  close(code = 1000, reason = ''): void {
    this.socket.close(code, reason);
  }
}

/** A WebSocket server on 127.0.0.1 that plays the xiaozhi side. */
export class FakeXiaozhi {
  readonly sessions: FakeSession[] = [];
  private readonly waiting: ((s: FakeSession) => void)[] = [];

  private constructor(readonly server: WebSocketServer) {
    server.on('connection', (socket) => {
      const session = new FakeSession(socket);
      this.sessions.push(session);
      for (const resolve of this.waiting.splice(0)) resolve(session);
    });
  }

  /** A port nothing listens on now (a fake's, closed): the endpoint is unreachable until `start({ port })`. */
  static async freePort(): Promise<number> {
    const probe = await FakeXiaozhi.start();
    const port = probe.port;
    await probe.close();
    return port;
  }

  static async start(options: { autoPong?: boolean; port?: number } = {}): Promise<FakeXiaozhi> {
    const server = new WebSocketServer({ host: '127.0.0.1', port: options.port ?? 0, autoPong: options.autoPong ?? true });
    await once(server, 'listening');
    return new FakeXiaozhi(server);
  }

  get port(): number {
    return (this.server.address() as { port: number }).port;
  }

  url(token = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ0ZXN0In0.c2VjcmV0LXNpZ25hdHVyZQ'): string {
    return `ws://127.0.0.1:${this.port}/mcp/?token=${token}`;
  }

  /** The next connection (or the one at `index` if it already happened). */
  async connection(index = this.sessions.length, timeoutMs = 20_000): Promise<FakeSession> {
    await waitFor(() => this.sessions.length > index, timeoutMs, `connection #${index + 1}`);
    return this.sessions[index] as FakeSession;
  }

  async close(): Promise<void> {
    for (const client of this.server.clients) client.terminate();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
