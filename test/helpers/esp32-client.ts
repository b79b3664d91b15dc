import type { FakeSession, JsonMessage } from './fake-xiaozhi';

/**
 * A stand-in for xiaozhi-esp32-server's MCP endpoint client, as it reads us (see
 * /work/shared/XIAOZHI-ENDPOINT.md, "How the self-hosted server's client reads us"):
 * - it sends initialize, notifications/initialized and tools/list back to back, follows nextCursor,
 *   and never lists again in that session;
 * - it refuses, on its own side, to call a name that was not in that one list;
 * - from a result it reads `content[0].text`, and on `isError` only the non-standard `error` field;
 * - it waits 30 s for a call, then gives up.
 * `say(...)` returns what its model receives, word for word as the client builds it.
 */
export const NO_DETAIL = '工具调用返回错误，但未提供具体错误信息';
export const TIMED_OUT = '工具调用请求超时';

export class Esp32Client {
  /** The names of its one list, in order. */
  readonly names: string[] = [];
  readonly tools: NonNullable<NonNullable<JsonMessage['result']>['tools']> = [];
  private nextId = 1;

  private constructor(
    readonly session: FakeSession,
    private readonly patienceMs: number,
  ) {}

  /** Opens the session as the client does: the handshake and the one list, sent without waiting. */
  static async open(session: FakeSession, patienceMs = 30_000): Promise<Esp32Client> {
    const client = new Esp32Client(session, patienceMs);
    const init = session.response(client.nextId);
    session.send({
      jsonrpc: '2.0',
      id: client.nextId++,
      method: 'initialize',
      params: { protocolVersion: '2024-11-05', capabilities: {}, clientInfo: { name: 'xiaozhi-mcp-endpoint', version: '1.0' } },
    });
    session.send({ jsonrpc: '2.0', method: 'notifications/initialized', params: {} });
    let cursor: string | undefined;
    const first = session.response(client.nextId);
    session.send({ jsonrpc: '2.0', id: client.nextId++, method: 'tools/list', params: {} });
    await init;
    let page = await first;
    for (let pages = 0; pages < 100; pages++) {
      for (const tool of page.result?.tools ?? []) {
        client.tools.push(tool);
        client.names.push(tool.name);
      }
      cursor = page.result?.nextCursor;
      if (cursor === undefined) break;
      page = await session.request(client.nextId++, 'tools/list', { cursor });
    }
    return client;
  }

  /** The raw response to a call (or undefined when it refused the name itself, or gave up waiting). */
  async call(name: string, args: Record<string, unknown> = {}): Promise<JsonMessage | undefined> {
    if (!this.names.includes(name)) return undefined;
    try {
      return await this.session.request(this.nextId++, 'tools/call', { name, arguments: args }, this.patienceMs);
    } catch {
      return undefined;
    }
  }

  /** What its model receives for a call: the tool's first text, or the error as the client words it. */
  async say(name: string, args: Record<string, unknown> = {}): Promise<string> {
    if (!this.names.includes(name)) return `工具 ${name} 不存在`;
    const response = await this.call(name, args);
    if (!response) return TIMED_OUT;
    return Esp32Client.read(response);
  }

  static read(response: JsonMessage): string {
    if (response.error) return `工具调用错误: ${response.error.message}`;
    const result = response.result as (JsonMessage['result'] & { error?: unknown }) | undefined;
    if (result?.isError === true) return `工具调用错误: ${typeof result.error === 'string' && result.error ? result.error : NO_DETAIL}`;
    return result?.content?.[0]?.text ?? '';
  }
}
