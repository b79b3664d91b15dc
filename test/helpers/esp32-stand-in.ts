import type { FakeSession, JsonMessage } from './fake-xiaozhi';

/** What xiaozhi-esp32-server's client tells its model when a call outlasts its patience. */
export const GAVE_UP = '工具调用请求超时';
/** What it tells its model for an error result without an `error` field. */
export const NO_ERROR_TEXT = '工具调用错误: 工具调用返回错误，但未提供具体错误信息';

/**
 * Plays xiaozhi-esp32-server's MCP endpoint client over one connection, as measured: it lists the
 * tools once per session (following nextCursor), calls only names from that list, waits `patienceMs`
 * for an answer and then gives up, and hands its model `content[0].text`, or on `isError` the
 * non-standard `error` field. `call` answers what the model would receive.
 */
export class Esp32StandIn {
  private names = new Set<string>();
  private nextId = 1;

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
    const { tools } = await this.session.listAllTools(this.nextId);
    this.nextId += 100;
    this.names = new Set(tools.map((tool) => tool.name));
    return [...this.names];
  }

  /** What the model receives for a call. */
  async call(name: string, args: Record<string, unknown> = {}): Promise<string> {
    if (!this.names.has(name)) return `工具 ${name} 不存在`;
    const id = this.nextId++;
    let response: JsonMessage;
    try {
      response = await this.session.request(id, 'tools/call', { name, arguments: args }, this.patienceMs);
    } catch {
      return GAVE_UP;
    }
    if (response.error) return `工具调用错误: ${response.error.message}`;
    const result = response.result as { content?: { text?: string }[]; isError?: boolean; error?: unknown } | undefined;
    if (result?.isError) return typeof result.error === 'string' ? `工具调用错误: ${result.error}` : NO_ERROR_TEXT;
    return result?.content?.[0]?.text ?? '';
  }
}
