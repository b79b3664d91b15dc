import { randomBytes } from 'node:crypto';

import { type WebSocket, WebSocketServer } from 'ws';

export interface RpcResponse {
  jsonrpc: '2.0';
  id: number | string;
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: unknown };
}

/** A response as it arrived: the frame's exact text and what it says. */
export interface ReceivedFrame {
  text: string;
  message: RpcResponse;
}

/**
 * The xiaozhi side of an endpoint, played on 127.0.0.1 by the CLI itself: the bridge connects to it
 * as to xiaozhi.me, so `call` goes through the same link, hub and server as a real call. Only a
 * client that knows the random path may connect.
 */
export class LoopbackXiaozhi {
  private readonly sessions: LoopbackSession[] = [];
  private readonly waiting: ((session: LoopbackSession) => void)[] = [];

  private constructor(
    private readonly wss: WebSocketServer,
    readonly url: string,
  ) {}

  static async start(): Promise<LoopbackXiaozhi> {
    const secret = randomBytes(12).toString('hex');
    const wss = new WebSocketServer({
      host: '127.0.0.1',
      port: 0,
      maxPayload: 64 * 1024 * 1024,
      verifyClient: (info: { req: { url?: string } }) => info.req.url === `/mcp/${secret}`,
    });
    await new Promise<void>((resolve, reject) => {
      wss.once('listening', resolve);
      wss.once('error', reject);
    });
    const { port } = wss.address() as { port: number };
    const loopback = new LoopbackXiaozhi(wss, `ws://127.0.0.1:${port}/mcp/${secret}`);
    wss.on('connection', (socket) => loopback.accept(new LoopbackSession(socket)));
    return loopback;
  }

  /** The first connection the bridge makes (waits for it). */
  connection(timeoutMs: number): Promise<LoopbackSession> {
    const first = this.sessions[0];
    if (first) return Promise.resolve(first);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the bridge did not connect within ${timeoutMs / 1000} s`)), timeoutMs);
      this.waiting.push((session) => {
        clearTimeout(timer);
        resolve(session);
      });
    });
  }

  async close(): Promise<void> {
    for (const client of this.wss.clients) client.terminate();
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
  }

  private accept(session: LoopbackSession): void {
    this.sessions.push(session);
    for (const waiter of this.waiting.splice(0)) waiter(session);
  }
}

/** One connection, seen from xiaozhi's side: requests out, responses matched by id. */
export class LoopbackSession {
  /** xiaozhi.me starts at id 0, so do we. */
  private nextId = 0;
  private readonly pending = new Map<number | string, (frame: ReceivedFrame) => void>();
  private closedReason: string | undefined;
  private readonly onClose: (() => void)[] = [];

  constructor(private readonly socket: WebSocket) {
    socket.on('message', (data) => {
      const text = data.toString();
      let message: RpcResponse;
      try {
        message = JSON.parse(text) as RpcResponse;
      } catch {
        return;
      }
      const resolve = message.id !== undefined ? this.pending.get(message.id) : undefined;
      if (resolve && ('result' in message || 'error' in message)) {
        this.pending.delete(message.id);
        resolve({ text, message });
      }
    });
    socket.on('close', (code) => {
      this.closedReason = `the bridge closed the connection (code ${code})`;
      for (const listener of this.onClose.splice(0)) listener();
    });
    socket.on('error', () => undefined);
  }

  notify(method: string, params: Record<string, unknown> = {}): void {
    this.socket.send(JSON.stringify({ jsonrpc: '2.0', method, params }));
  }

  request(method: string, params: Record<string, unknown>, timeoutMs: number): Promise<ReceivedFrame> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      if (this.closedReason) {
        reject(new Error(this.closedReason));
        return;
      }
      const fail = (why: string) => {
        clearTimeout(timer);
        this.pending.delete(id);
        reject(new Error(why));
      };
      const timer = setTimeout(() => fail(`no answer to ${method} within ${Math.round(timeoutMs / 1000)} s`), timeoutMs);
      this.onClose.push(() => fail(this.closedReason as string));
      this.pending.set(id, (frame) => {
        clearTimeout(timer);
        resolve(frame);
      });
      this.socket.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
    });
  }
}
