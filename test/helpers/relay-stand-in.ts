import { createCipheriv, createDecipheriv, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import http from 'node:http';
import type { Duplex } from 'node:stream';

import { WebSocket, WebSocketServer } from 'ws';

import { FakeSession } from './fake-xiaozhi';
import { waitFor } from './wait';

/**
 * The self-hosted MCP endpoint relay (xinnan-tech/mcp-endpoint-server), as its source behaves:
 *
 * - src/server.py: the tool side (us) connects at `/mcp_endpoint/mcp/?token=…`, xiaozhi's side at
 *   `/mcp_endpoint/call/?token=…`; the WebSocket is accepted first, then the token is read: none
 *   closes with 1008 "缺少token参数", one that does not decrypt with 1008 "token解密失败", one
 *   without an agentId with 1008 "无对应agentId". When a tool connection ends, for whatever reason,
 *   `unregister_tool_connection(agent_id)` runs.
 * - src/utils/aes_utils.py: a token is base64(AES-ECB(key zero-padded to 32 bytes, PKCS7)) of
 *   `{"agentId": …}`, printed URL-quoted by server.py's lifespan.
 * - src/core/connection_manager.py: one tool connection per agent; registering a new one closes the
 *   old with 1000 "新连接替换" (awaiting its close under the manager's lock) and registers the new.
 *   Unregistering deletes the agent's entry whichever connection it holds: so when a replaced
 *   connection's handler ends, the agent is forgotten though the new connection stays open. Ids of
 *   xiaozhi's messages are rewritten `<uuid>_n_<id>` / `<uuid>_s_<id>` (a falsy id, like 0, is left
 *   as it is) and restored on the way back.
 * - src/handlers/websocket_handler.py: a message from xiaozhi's side while no tool connection is
 *   registered is answered with JSON-RPC error -32001 "工具端未连接"; a tool message whose id does
 *   not restore (a notification, a number) is dropped.
 * - src/utils/jsonrpc.py: error responses are dataclasses dumped whole: `{"result": null, "error":
 *   {"code", "message", "data"}, "id", "jsonrpc"}`.
 */
export class RelayStandIn {
  /** What the relay logged, in its own words (src/core/connection_manager.py). */
  readonly log: string[] = [];
  /** Tool connections by agent, as `ConnectionManager.tool_connections`. */
  private readonly tools = new Map<string, WebSocket>();
  private readonly robots = new Map<string, WebSocket>();
  /** The manager's asyncio.Lock: register and unregister run one at a time, in order. */
  private lock: Promise<void> = Promise.resolve();
  private readonly wss = new WebSocketServer({ noServer: true });
  private readonly sockets = new Set<WebSocket>();
  /** Every tool-side connection ever made (open or not), newest last. */
  readonly toolSockets: WebSocket[] = [];

  private constructor(
    private server: http.Server,
    readonly key: string,
  ) {
    this.attach(server);
  }

  static async start(options: { port?: number; key?: string } = {}): Promise<RelayStandIn> {
    const server = http.createServer((_req, res) => res.writeHead(404).end());
    server.listen(options.port ?? 0, '127.0.0.1');
    await once(server, 'listening');
    return new RelayStandIn(server, options.key ?? '0123456789abcdef0123456789abcdef');
  }

  get port(): number {
    return (this.server.address() as { port: number }).port;
  }

  /** The agent's token, URL-quoted as the relay prints it (base64 may hold +, / and =). */
  token(agentId = 'single_module'): string {
    const key = Buffer.alloc(32);
    Buffer.from(this.key, 'utf8').copy(key, 0, 0, 32);
    const cipher = createCipheriv('aes-256-ecb', key, null);
    const sealed = Buffer.concat([cipher.update(JSON.stringify({ agentId }), 'utf8'), cipher.final()]).toString('base64');
    return encodeURIComponent(sealed);
  }

  /** The endpoint URL the user pastes (the tool side). */
  toolUrl(agentId?: string): string {
    return `ws://127.0.0.1:${this.port}/mcp_endpoint/mcp/?token=${this.token(agentId)}`;
  }

  /** What xiaozhi-esp32-server connects to: the same URL with /mcp/ made /call/ (its app.py). */
  callUrl(agentId?: string): string {
    return this.toolUrl(agentId).replace('/mcp/', '/call/');
  }

  /** The agent's registered tool connection, if the relay still knows one. */
  registered(agentId = 'single_module'): WebSocket | undefined {
    return this.tools.get(agentId);
  }

  /** Waits until the relay has (or has not) a tool connection registered for the agent. */
  async whenRegistered(registered: boolean, agentId = 'single_module', timeoutMs = 10_000): Promise<void> {
    await waitFor(
      () => this.tools.has(agentId) === registered,
      timeoutMs,
      `the relay ${registered ? 'to know' : 'to forget'} agent ${agentId}`,
    );
  }

  /** A device session of xiaozhi's side (xiaozhi-esp32-server's client connects per device session). */
  async device(agentId?: string): Promise<FakeSession> {
    const socket = new WebSocket(this.callUrl(agentId));
    await once(socket, 'open');
    return new FakeSession(socket);
  }

  /** The relay process killed and started again on the same port: every connection dropped, nothing remembered. */
  async restart(downMs = 0): Promise<void> {
    const port = this.port;
    await this.close();
    if (downMs > 0) await new Promise((resolve) => setTimeout(resolve, downMs));
    this.tools.clear();
    this.robots.clear();
    this.lock = Promise.resolve();
    const server = http.createServer((_req, res) => res.writeHead(404).end());
    server.listen(port, '127.0.0.1');
    await once(server, 'listening');
    this.server = server;
    this.attach(server);
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.terminate();
    this.sockets.clear();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private attach(server: http.Server): void {
    server.on('upgrade', (request: http.IncomingMessage, socket: Duplex, head: Buffer) => {
      const url = new URL(request.url ?? '/', 'http://relay');
      const side = url.pathname === '/mcp_endpoint/mcp/' ? 'tool' : url.pathname === '/mcp_endpoint/call/' ? 'robot' : undefined;
      // FastAPI answers an upgrade to a path it has no route for with 403.
      if (!side) {
        socket.end('HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n');
        return;
      }
      this.wss.handleUpgrade(request, socket, head, (ws) => {
        this.sockets.add(ws);
        ws.on('close', () => this.sockets.delete(ws));
        ws.on('error', () => undefined);
        // Accepted first, the token read after (server.py's validate_token_and_get_agent_id).
        const agentId = this.agentOf(url.searchParams.get('token'), ws);
        if (agentId === undefined) return;
        if (side === 'tool') this.toolSide(agentId, ws);
        else this.robotSide(agentId, ws);
      });
    });
  }

  private agentOf(token: string | null, ws: WebSocket): string | undefined {
    if (!token) {
      ws.close(1008, '缺少token参数');
      return undefined;
    }
    let data: unknown;
    try {
      const key = Buffer.alloc(32);
      Buffer.from(this.key, 'utf8').copy(key, 0, 0, 32);
      const decipher = createDecipheriv('aes-256-ecb', key, null);
      data = JSON.parse(Buffer.concat([decipher.update(Buffer.from(token, 'base64')), decipher.final()]).toString('utf8'));
    } catch {
      ws.close(1008, 'token解密失败');
      return undefined;
    }
    const agentId = typeof data === 'object' && data !== null ? (data as { agentId?: unknown }).agentId : undefined;
    if (typeof agentId !== 'string' || !agentId) {
      ws.close(1008, '无对应agentId');
      return undefined;
    }
    return agentId;
  }

  /** One at a time, in order, like the manager's asyncio.Lock. */
  private locked(work: () => Promise<void> | void): Promise<void> {
    const run = this.lock.then(work);
    this.lock = run.catch(() => undefined);
    return run;
  }

  private toolSide(agentId: string, ws: WebSocket): void {
    this.toolSockets.push(ws);
    void this.locked(async () => {
      const old = this.tools.get(agentId);
      if (old && old.readyState === WebSocket.OPEN) {
        const closed = once(old, 'close');
        old.close(1000, '新连接替换');
        // websockets waits for the closing handshake (close_timeout, 10 s) before the call returns.
        await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, 10_000))]);
      }
      this.tools.set(agentId, ws);
      this.log.push(`工具端连接已注册: ${agentId}`);
    });
    ws.on('message', (data) => this.fromTool(data.toString()));
    // server.py's finally: whichever connection the agent holds now is what gets unregistered.
    ws.on('close', () => {
      void this.locked(() => {
        if (this.tools.delete(agentId)) this.log.push(`工具端连接已注销: ${agentId}`);
      });
    });
  }

  private robotSide(agentId: string, ws: WebSocket): void {
    const uuid = randomUUID();
    this.robots.set(uuid, ws);
    ws.on('close', () => this.robots.delete(uuid));
    ws.on('message', (data) => this.fromRobot(agentId, uuid, data.toString()));
  }

  private fromRobot(agentId: string, uuid: string, text: string): void {
    let requestId: unknown;
    let forwarded = text;
    try {
      const message = JSON.parse(text) as Record<string, unknown>;
      requestId = message.id;
      if ('id' in message && message.id) {
        const id = message.id;
        message.id = typeof id === 'number' ? `${uuid}_n_${id}` : `${uuid}_s_${String(id)}`;
      }
      forwarded = JSON.stringify(message);
    } catch {
      // Not JSON: forwarded as it is (after the check below).
    }
    const tool = this.tools.get(agentId);
    const robot = this.robots.get(uuid);
    if (!tool) {
      this.log.push(`工具端未连接: ${agentId}`);
      robot?.send(errorResponse(-32001, '工具端未连接', { agent_id: agentId, details: '请求的工具端连接不存在或已断开' }, requestId));
      return;
    }
    if (tool.readyState !== WebSocket.OPEN) {
      void this.locked(() => void this.tools.delete(agentId));
      robot?.send(errorResponse(-32002, '转发消息失败', { agent_id: agentId, details: '消息转发过程中发生错误' }, requestId));
      return;
    }
    tool.send(forwarded);
  }

  private fromTool(text: string): void {
    let message: Record<string, unknown>;
    try {
      message = JSON.parse(text) as Record<string, unknown>;
    } catch {
      return;
    }
    const id = message.id;
    // A notification, or an id that is not one of ours: "没有特定目标，无法转发消息".
    if (typeof id !== 'string' || !id.includes('_')) return;
    const [uuid, kind, rest] = splitTwice(id);
    if (rest === undefined) return;
    const restored = kind === 'n' ? (Number.isInteger(Number(rest)) ? Number(rest) : rest) : kind === 's' && rest === 'null' ? null : rest;
    this.robots.get(uuid)?.send(JSON.stringify({ ...message, id: restored }));
  }
}

/** Python's `str.split("_", 2)`. */
function splitTwice(id: string): [string, string | undefined, string | undefined] {
  const first = id.indexOf('_');
  const second = first < 0 ? -1 : id.indexOf('_', first + 1);
  if (second < 0) return [id, undefined, undefined];
  return [id.slice(0, first), id.slice(first + 1, second), id.slice(second + 1)];
}

function errorResponse(code: number, message: string, data: unknown, id: unknown): string {
  return JSON.stringify({ result: null, error: { code, message, data }, id: id ?? null, jsonrpc: '2.0' });
}
