import { afterEach, describe, expect, it } from 'vitest';

import { fixtureServer, type Harness, logText, makeBridge, tearDown } from '../../helpers/bridge-harness';
import { FakeXiaozhi } from '../../helpers/fake-xiaozhi';
import { waitFor } from '../../helpers/wait';

let xiaozhi: FakeXiaozhi | undefined;
let harness: Harness | undefined;

afterEach(async () => {
  await tearDown(harness, xiaozhi);
  harness = xiaozhi = undefined;
});

async function setup(extra: Record<string, string> = {}) {
  xiaozhi = await FakeXiaozhi.start();
  harness = makeBridge({
    endpoints: [{ id: 'e1', name: 'home', url: xiaozhi.url() }],
    servers: [fixtureServer('fx', extra)],
  });
  harness.bridge.start();
  await harness.bridge.whenServersSettled();
  const session = await xiaozhi.connection(0);
  return session;
}

describe('endpoint link: the MCP server side, as xiaozhi talks to it', () => {
  it('answers the broker handshake with id 0 and advertises tools.listChanged', async () => {
    const session = await setup();
    const init = await session.initialize();
    expect(init.id).toBe(0);
    expect(init.result?.protocolVersion).toBe('2024-11-05');
    expect(init.result?.capabilities).toMatchObject({ tools: { listChanged: true } });
    expect(init.result?.serverInfo).toMatchObject({ name: 'xiaozhi-tray' });
    const ping = await session.request(2, 'ping');
    expect(ping.result).toEqual({});
  });

  it('handles back-to-back initialize, initialized and tools/list without waiting (self-hosted server)', async () => {
    const session = await setup();
    session.sendSelfHostedHandshake();
    session.send({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} });
    const list = await session.response(2);
    expect(list.result?.tools?.map((t) => t.name)).toContain('echo');
    // Each served tool carries only what xiaozhi keeps.
    const echo = list.result?.tools?.find((t) => t.name === 'echo');
    expect(Object.keys(echo ?? {}).sort()).toEqual(['description', 'inputSchema', 'name']);
    expect(echo?.inputSchema).toEqual({ type: 'object', properties: { text: { type: 'string' } }, required: ['text'] });
  });

  it('round-trips string ids untouched and ignores unknown params like serialNumber', async () => {
    const session = await setup();
    await session.initialize();
    const id = '3f2a9c1e-5b7d-4e2a-9f1c-0a1b2c3d4e5f_n_1';
    const result = await session.request(id, 'tools/call', { name: 'echo', arguments: { text: '你好' }, serialNumber: null });
    expect(result.id).toBe(id);
    expect(result.result?.content).toEqual([{ type: 'text', text: 'fx: 你好' }]);
  });

  it('exposes names xiaozhi accepts and maps them back exactly', async () => {
    const session = await setup();
    await session.initialize();
    const { tools } = await session.listAllTools();
    for (const tool of tools) expect(tool.name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    expect(tools.map((t) => t.name)).toContain('weather_get');
    const result = await session.request(77, 'tools/call', { name: 'weather_get', arguments: { city: '上海' } });
    expect(result.result?.content?.[0]?.text).toBe('上海：晴，25°C');
  });

  it('survives malformed frames and answers what deserves an answer', async () => {
    const session = await setup();
    await session.initialize();
    session.sendRaw('this is not json');
    session.sendRaw('{"jsonrpc": "2.0", "id": 5');
    session.sendRaw('[1, 2, 3]');
    session.sendRaw(JSON.stringify({ id: 9, params: {} }));
    const invalid = await session.response(9);
    expect(invalid.error?.code).toBe(-32600);
    const unknown = await session.request(10, 'no/such/method');
    expect(unknown.error?.code).toBe(-32601);
    const badParams = await session.request(11, 'tools/call', { arguments: {} });
    expect(badParams.error?.code).toBe(-32602);
    // The link is still up and serving.
    const echo = await session.request(12, 'tools/call', { name: 'echo', arguments: { text: 'still here' } });
    expect(echo.result?.content?.[0]?.text).toBe('fx: still here');
    expect(session.isClosed).toBe(false);
    expect(logText(harness!.logBook)).toContain('not JSON');
  });

  it('returns readable isError results for unknown, disabled and failing tools', async () => {
    const session = await setup();
    await session.initialize();
    const unknown = await session.request(1, 'tools/call', { name: 'nope', arguments: {} });
    expect(unknown.result?.isError).toBe(true);
    expect(unknown.result?.content?.[0]?.text).toMatch(/There is no tool called "nope"/);

    const failing = await session.request(2, 'tools/call', { name: 'fail', arguments: {} });
    expect(failing.result).toEqual({ content: [{ type: 'text', text: 'it went wrong' }], isError: true, error: 'it went wrong' });

    const thrown = await session.request(3, 'tools/call', { name: 'throw', arguments: {} });
    expect(thrown.result?.isError).toBe(true);
    expect(thrown.result?.content?.[0]?.text).toMatch(/deliberate failure/);

    await harness!.bridge.api.setToolEnabled({ server: 'fx', tool: 'echo', enabled: false });
    const disabled = await session.request(4, 'tools/call', { name: 'echo', arguments: { text: 'x' } });
    expect(disabled.result?.isError).toBe(true);
    expect(disabled.result?.content?.[0]?.text).toMatch(/switched off/);
  });

  it('drops a switched-off tool from tools/list and announces list_changed', async () => {
    const session = await setup();
    await session.initialize();
    const before = await session.listAllTools(100);
    expect(before.tools.map((t) => t.name)).toContain('echo');
    const mark = session.mark();
    await harness!.bridge.api.setToolEnabled({ server: 'fx', tool: 'echo', enabled: false });
    await session.waitForNotification('notifications/tools/list_changed', mark);
    const after = await session.listAllTools(200);
    expect(after.tools.map((t) => t.name)).not.toContain('echo');
    expect(after.tools.length).toBe(before.tools.length - 1);
  });

  it('turns images and resources into words and merges text into the first item', async () => {
    const session = await setup();
    await session.initialize();
    const result = await session.request(1, 'tools/call', { name: 'picture', arguments: {} });
    expect(result.result?.content).toHaveLength(1);
    const text = result.result?.content?.[0]?.text ?? '';
    expect(text).toContain('Here is the chart.');
    expect(text).toMatch(/\[image: image\/png, 2\.9 KB\]/);
    expect(text).toContain('[resource: file:///tmp/report.pdf, application/pdf]');
  });

  it('keeps every tools/call response within the size limit, with a visible truncation marker', async () => {
    const session = await setup();
    await session.initialize();
    for (const [id, char] of [
      [1, 'x'],
      [2, '汉'],
      [3, '"'],
    ] as const) {
      const response = await session.request(id, 'tools/call', { name: 'big', arguments: { n: 50_000, char } });
      const frame = session.rawFrames.find((f) => JSON.parse(f).id === id) as string;
      expect(Buffer.byteLength(frame)).toBeLessThanOrEqual(8192);
      expect(Buffer.byteLength(frame)).toBeGreaterThan(8000);
      expect(response.result?.content?.[0]?.text).toMatch(/…\[truncated: showing \d+ of \d+ bytes\]$/);
    }
  });

  it('cancels the child call when the endpoint cancels its request', async () => {
    const session = await setup();
    await session.initialize();
    session.send({ jsonrpc: '2.0', id: 50, method: 'tools/call', params: { name: 'slow', arguments: { ms: 20_000 } } });
    await waitFor(() => logText(harness!.logBook).includes('slow call started'), 5000, 'the call to reach the child');
    session.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 50, reason: 'user left' } });
    await waitFor(() => logText(harness!.logBook).includes('slow call cancelled'), 5000, 'the child to see the cancel');
    await waitFor(async () => (await harness!.bridge.api.getHistory()).some((r) => r.tool === 'slow'), 5000, 'the call in the history');
    const history = await harness!.bridge.api.getHistory();
    expect(history.find((r) => r.tool === 'slow')?.outcome).toBe('cancelled');
  });
});
