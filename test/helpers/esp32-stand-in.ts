import type { FakeSession, JsonMessage } from './fake-xiaozhi';

/** What xiaozhi-esp32-server's client tells its model when a call outlasts its patience. */
export const GAVE_UP = '工具调用请求超时';
/** What it tells its model for an error result without an `error` field. */
export const NO_ERROR_TEXT = '工具调用错误: 工具调用返回错误，但未提供具体错误信息';
/** What its executor tells the model when the tool list never came (mcp_endpoint_executor.py): e.g. the relay said "工具端未连接". */
export const NOT_READY = 'MCP接入点客户端未准备就绪';

/**
 * Plays xiaozhi-esp32-server's MCP endpoint client over one connection, as measured and as its source
 * (main/xiaozhi-server/core/providers/tools/mcp_endpoint/) does: it lists the tools once per session
 * (following nextCursor), becomes ready only when the list came (an error answer, such as the relay's
 * "工具端未连接", leaves it not ready for the whole session), calls only names from that list, waits
 * `patienceMs` for an answer and then gives up (a connection that closes meanwhile does not end the
 * wait: its listener only marks the client not ready), and hands its model `content[0].text`, or on
 * `isError` the non-standard `error` field. `call` answers what the model would receive.
 */
export class Esp32StandIn {
  private names = new Set<string>();
  private nextId = 1;
  /** The tool list came (mcp_endpoint_handler.py sets ready on the last page). */
  ready = false;

  constructor(
    private readonly session: FakeSession,
    private readonly patienceMs: number,
  ) {}

  /** initialize, initialized and one list, back to back, as it does. */
  async open(): Promise<string[]> {
    await this.session.request(this.nextId++, 'initialize', {
      protocolVersion: '2024-11-05',
      capabilities: {},
      clientInfo: { name: 'XiaozhiClient', version: '1.0.0' },
    });
    this.session.send({ jsonrpc: '2.0', method: 'notifications/initialized', params: {} });
    const names: string[] = [];
    let id = this.nextId;
    this.nextId += 100;
    let page = await this.session.request(id++, 'tools/list', {});
    for (let pages = 0; pages < 100; pages++) {
      // An error (the relay's "工具端未连接") or no result: never ready in this session.
      if (page.error || !page.result) return [];
      names.push(...(page.result.tools ?? []).map((tool) => tool.name));
      const cursor = page.result.nextCursor;
      if (cursor === undefined) break;
      page = await this.session.request(id++, 'tools/list', { cursor });
    }
    this.names = new Set(names);
    this.ready = true;
    return [...this.names];
  }

  /** What the model receives for a call. */
  async call(name: string, args: Record<string, unknown> = {}): Promise<string> {
    if (!this.ready) return NOT_READY;
    if (!this.names.has(name)) return `工具 ${name} 不存在`;
    const id = this.nextId++;
    const started = Date.now();
    let response: JsonMessage;
    try {
      response = await this.session.request(id, 'tools/call', { name, arguments: args }, this.patienceMs);
    } catch {
      // A closed connection does not end its wait: the model hears the timeout when the patience is over.
      const left = this.patienceMs - (Date.now() - started);
      if (left > 0) await new Promise((resolve) => setTimeout(resolve, left));
      return GAVE_UP;
    }
    if (response.error) return `工具调用错误: ${response.error.message}`;
    const result = response.result as { content?: { text?: string }[]; isError?: boolean; error?: unknown } | undefined;
    if (result?.isError) return typeof result.error === 'string' ? `工具调用错误: ${result.error}` : NO_ERROR_TEXT;
    return result?.content?.[0]?.text ?? '';
  }
}
