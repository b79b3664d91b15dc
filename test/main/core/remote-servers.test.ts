import { afterEach, describe, expect, it } from 'vitest';

import { remoteHeaders } from '../../../src/main/core/io/remote-headers';
import { type Harness, logText, makeBridge } from '../../helpers/bridge-harness';
import { type HttpFixture, startSseFixture, startStreamableHttpFixture } from '../../helpers/http-fixtures';
import { waitFor } from '../../helpers/wait';

let fixtures: HttpFixture[] = [];
let harness: Harness | undefined;
afterEach(async () => {
  await harness?.bridge.stop();
  for (const f of fixtures) await f.close();
  fixtures = [];
  harness = undefined;
});

const server = (name: string) => harness!.bridge.state().servers.find((s) => s.name === name)!;

describe('remote servers', () => {
  it('serves tools of SSE and streamable-HTTP servers side by side, with their headers', async () => {
    const sse = await startSseFixture();
    const streamable = await startStreamableHttpFixture();
    fixtures = [sse, streamable];
    harness = makeBridge({
      servers: [
        { name: 'over-sse', transport: 'sse', url: sse.url, headers: { Authorization: 'Bearer sse-secret-token' } },
        { name: 'over-http', transport: 'streamable-http', url: streamable.url, headers: { 'X-Api-Key': 'http-secret-key' } },
      ],
    });
    harness.bridge.start();
    await harness.bridge.whenServersSettled();
    expect(server('over-sse').state).toBe('running');
    expect(server('over-http').state).toBe('running');
    // Same tool name on both: both get prefixed.
    const names = harness.bridge.toolHub
      .catalog()
      .map((t) => t.name)
      .sort();
    expect(names).toEqual(['over-http_remote_echo', 'over-sse_remote_echo']);
    expect((await harness.bridge.api.callTool({ name: 'over-sse_remote_echo', arguments: { text: 'a' } })).text).toBe('sse: a');
    expect((await harness.bridge.api.callTool({ name: 'over-http_remote_echo', arguments: { text: 'b' } })).text).toBe('http: b');
    expect(sse.requests.every((h) => h.authorization === 'Bearer sse-secret-token')).toBe(true);
    expect(streamable.requests.every((h) => h['x-api-key'] === 'http-secret-key')).toBe(true);
    const logs = logText(harness.logBook) + JSON.stringify(await harness.bridge.api.getSettings());
    expect(logs).not.toContain('sse-secret-token');
    expect(logs).not.toContain('http-secret-key');
  });

  it('rebuilds an expired streamable-HTTP session (404) and completes the call', async () => {
    const streamable = await startStreamableHttpFixture();
    fixtures = [streamable];
    harness = makeBridge({ servers: [{ name: 'remote', transport: 'streamable-http', url: streamable.url }] });
    harness.bridge.start();
    await harness.bridge.whenServersSettled();
    streamable.forgetSessions();
    const result = await harness.bridge.api.callTool({ name: 'remote_echo', arguments: { text: 'after expiry' } });
    expect(result).toMatchObject({ isError: false, text: 'http: after expiry' });
    expect(logText(harness.logBook)).toContain('session expired');
  });

  it('keeps retrying a remote server that is down, and connects when it comes up', async () => {
    const probe = await startStreamableHttpFixture();
    const url = probe.url;
    await probe.close();
    harness = makeBridge({ servers: [{ name: 'later', transport: 'streamable-http', url }] });
    harness.bridge.start();
    await waitFor(() => server('later').restarts >= 3, 10_000, 'several retries');
    // Remote servers are never given up on.
    expect(server('later').state).toBe('restarting');
    expect(server('later').lastError).toMatch(/ECONNREFUSED|fetch failed/);
    fixtures = [await startStreamableHttpFixture(Number(new URL(url).port))];
    await waitFor(() => server('later').state === 'running', 10_000, 'the server to be reached');
    expect((await harness.bridge.api.callTool({ name: 'remote_echo', arguments: { text: 'up' } })).text).toBe('http: up');
  });

  it('adds the ModelScope token only to ModelScope URLs without their own Authorization', () => {
    expect(remoteHeaders(new URL('https://mcp.api-inference.modelscope.net/abc/sse'), {}, 'ms-key')).toEqual({
      Authorization: 'Bearer ms-key',
    });
    expect(remoteHeaders(new URL('https://modelscope.cn/x'), { authorization: 'Bearer mine' }, 'ms-key')).toEqual({
      authorization: 'Bearer mine',
    });
    expect(remoteHeaders(new URL('https://example.com/mcp'), {}, 'ms-key')).toEqual({});
    expect(remoteHeaders(new URL('https://notmodelscope.cn/mcp'), {}, 'ms-key')).toEqual({});
  });
});

describe('remote servers that misbehave', () => {
  it('drops a server whose event stream sends an endless line, and the others keep serving', async () => {
    const { randomUUID } = await import('node:crypto');
    const http = await import('node:http');
    const { Server } = await import('@modelcontextprotocol/sdk/server/index.js');
    const { StreamableHTTPServerTransport } = await import('@modelcontextprotocol/sdk/server/streamableHttp.js');
    const { ListToolsRequestSchema } = await import('@modelcontextprotocol/sdk/types.js');
    const transports = new Map<string, InstanceType<typeof StreamableHTTPServerTransport>>();
    let streamed = 0;
    const server = http.createServer(async (req, res) => {
      const id = req.headers['mcp-session-id'];
      if (req.method === 'GET') {
        // The notification stream: one line that never ends.
        res.writeHead(200, { 'Content-Type': 'text/event-stream' });
        res.write('data: ');
        const chunk = 'x'.repeat(64 * 1024);
        const pump = () => {
          let more = true;
          while (!res.destroyed && more) {
            more = res.write(chunk);
            streamed += chunk.length;
          }
          if (!res.destroyed) res.once('drain', pump);
        };
        pump();
        return;
      }
      const existing = typeof id === 'string' ? transports.get(id) : undefined;
      if (existing) return existing.handleRequest(req, res);
      const transport: InstanceType<typeof StreamableHTTPServerTransport> = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (sid) => void transports.set(sid, transport),
      });
      const mcp = new Server({ name: 'endless', version: '1' }, { capabilities: { tools: {} } });
      mcp.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [{ name: 'noop', inputSchema: { type: 'object' } }] }));
      await mcp.connect(transport);
      await transport.handleRequest(req, res);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    fixtures.push({
      url: '',
      requests: [],
      forgetSessions: () => undefined,
      close: () =>
        new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
    });
    const port = (server.address() as { port: number }).port;
    const { fixtureServer } = await import('../../helpers/bridge-harness');
    harness = makeBridge(
      {
        servers: [{ name: 'endless', transport: 'streamable-http', url: `http://127.0.0.1:${port}/mcp`, headers: {} }, fixtureServer('fx')],
      },
      { restartBaseMs: 5000, restartMaxMs: 5000, maxRemoteMessageBytes: 1024 * 1024, healthIntervalMs: 0 },
    );
    harness.bridge.start();
    await waitFor(() => /more than 1 MB/.test(server_('endless').lastError ?? ''), 20_000, 'the endless stream to be dropped');
    expect(server_('endless').state).toBe('restarting');
    expect(streamed).toBeGreaterThan(1024 * 1024);
    expect((await harness.bridge.api.callTool({ name: 'echo', arguments: { text: 'fine' } })).text).toBe('fx: fine');
  });
});
const server_ = (name: string) => harness!.bridge.state().servers.find((s) => s.name === name)!;

describe("a remote server's whole answer is bounded", () => {
  it('drops a server whose JSON answer passes the limit in pieces separated by blank lines, and says why', async () => {
    const { startRawMcpHttp, pump } = await import('../../helpers/raw-mcp-http');
    const entry = `{"type":"text","text":"${'x'.repeat(256 * 1024)}"}`;
    let sent = 0;
    const raw = await startRawMcpHttp((message, res) => {
      if (message.method !== 'tools/call') return false;
      // Valid JSON: blank lines are whitespace between the entries, and each piece is under the limit.
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.write(`{"jsonrpc":"2.0","id":${JSON.stringify(message.id)},"result":{"content":[${entry}`);
      pump(res, `,\n\n${entry}`, 40, (n) => (sent += n), ']}}');
      return true;
    });
    fixtures.push({ url: raw.url, requests: [], forgetSessions: () => undefined, close: raw.close });
    harness = makeBridge(
      { servers: [{ name: 'huge', transport: 'streamable-http', url: raw.url }] },
      { restartBaseMs: 5000, restartMaxMs: 5000, maxRemoteMessageBytes: 1024 * 1024, healthIntervalMs: 0 },
    );
    harness.bridge.start();
    await harness.bridge.whenServersSettled();
    expect(server_('huge').state).toBe('running');
    const result = await harness.bridge.api.callTool({ name: 'noop', arguments: {} });
    // Before: the 10 MB answer was taken whole (a 300 MB one took the bridge to 1.3 GB).
    expect(result.isError).toBe(true);
    await waitFor(() => /answer of more than 1 MB/.test(server_('huge').lastError ?? ''), 20_000, 'the server to be dropped');
    expect(server_('huge').state).toBe('restarting');
    expect(sent).toBeGreaterThan(1024 * 1024);
  });
});
