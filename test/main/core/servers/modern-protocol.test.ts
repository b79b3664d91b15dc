import fs from 'node:fs';
import path from 'node:path';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { type CallToolResult, LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';

import { sanitizeToolName } from '../../../../src/main/core/hub/tool-names';
import { clientToken } from '../../../../src/main/core/local-server/client-tokens';
import type { StdioServerSettings } from '../../../../src/shared/settings';
// @ts-expect-error: a plain-JavaScript fixture, without types.
import { startModernHttp } from '../../../fixtures/modern-server.mjs';
import { type Harness, logText, makeBridge, startServing, tearDown } from '../../../helpers/bridge-harness';
import type { FakeXiaozhi } from '../../../helpers/fake-xiaozhi';
import { refusingInitialize } from '../../../helpers/hostile-server';
import { startRawMcpHttp } from '../../../helpers/raw-mcp-http';
import { tempDirs } from '../../../helpers/temp-dirs';
import { scaled } from '../../../helpers/time-scale';
import { waitFor } from '../../../helpers/wait';

/**
 * Servers built with the MCP TypeScript SDK v2 and set to protocol 2026-07-28 only answer our 2025
 * `initialize` with -32022 (the versions they speak in its data). Before: refused ("Unsupported
 * protocol version: 2025-11-25") and restarted for ever. Now the bridge speaks 2026-07-28 to them
 * (server/discover, the _meta envelope, subscriptions/listen), and the old protocol to everyone else.
 */

interface ModernHttp {
  url: string;
  eras: string[];
  methods: string[];
  close(): Promise<void>;
}

const MODERN = path.resolve(__dirname, '../../../fixtures/modern-server.mjs');
const tempDir = tempDirs('xt-modern-');
let harness: Harness | undefined;
let xiaozhi: FakeXiaozhi | undefined;
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await tearDown(harness, xiaozhi);
  harness = undefined;
  xiaozhi = undefined;
  for (const close of closers.splice(0)) await close();
});

const supervision = { restartBaseMs: 50, restartMaxMs: 100, healthIntervalMs: 0, startTimeoutMs: 10_000, stopGraceMs: 500 };
const server = () => harness!.bridge.state().servers[0]!;

function modernStdio(env: Record<string, string> = {}): StdioServerSettings {
  return { name: 'modern', transport: 'stdio', command: process.execPath, args: [MODERN], env, enabled: true } as StdioServerSettings;
}

async function modernHttp(legacy: 'reject' | 'serve' = 'reject'): Promise<ModernHttp> {
  const fixture = (await startModernHttp({ legacy })) as ModernHttp;
  closers.push(fixture.close);
  return fixture;
}

const textOf = (answer: { result: { content: unknown[] } }) => (answer.result.content[0] as { text?: string }).text;

/** Starts a bridge with this one server and waits until it runs (or fails, which the expectation then shows). */
async function running(settings: Parameters<typeof makeBridge>[0]['servers'], overrides: Partial<typeof supervision> = {}): Promise<void> {
  harness = makeBridge({ servers: settings }, { ...supervision, ...overrides });
  harness.bridge.start();
  await waitFor(() => server().state === 'running' || server().state === 'failed' || server().restarts > 0, 15_000, 'the server to start');
  expect({ state: server().state, restarts: server().restarts, error: server().lastError }).toEqual({
    state: 'running',
    restarts: 0,
    error: undefined,
  });
}

async function listsCallsAndHearsChanges(): Promise<void> {
  const hub = harness!.bridge.toolHub;
  expect(hub.has('echo') && hub.has('add_tool')).toBe(true);
  expect(hub.has('extra')).toBe(false);
  expect(textOf(await hub.call('echo', { text: '你好 world' }, { caller: 'test' }))).toBe('modern: 你好 world');
  // Exposed to xiaozhi as a sanitised name; sent to the server as its own (Mcp-Name in Base64 over HTTP).
  expect(textOf(await hub.call(sanitizeToolName('问候'), {}, { caller: 'test' }))).toBe('你好');
  // Arguments the tool refuses: an error answer, and the server keeps running.
  const refused = await hub.call('echo', { text: 42 }, { caller: 'test' });
  expect(refused.result.isError).toBe(true);
  expect(textOf(refused)).toMatch(/text/);
  // A tool that asks the user first (input_required, in-band on this wire): an error that says why.
  const asking = await hub.call('confirm', {}, { caller: 'test' });
  expect(asking.result.isError).toBe(true);
  expect(textOf(asking)).toMatch(/elicitation/);
  expect(textOf(await hub.call('add_tool', {}, { caller: 'test' }))).toBe('added');
  await waitFor(() => hub.has('extra'), 10_000, 'the tool list change to reach the bridge');
  expect(textOf(await hub.call('extra', {}, { caller: 'test' }))).toBe('extra');
  expect(logText(harness!.logBook)).toContain('2026-07-28');
  expect(server()).toMatchObject({ state: 'running', restarts: 0 });
}

describe('a server that speaks only protocol 2026-07-28 (SDK v2)', () => {
  it('on stdio: connects, lists, calls with arguments, and hears its tool list change', async () => {
    const eras = path.join(tempDir(), 'eras');
    await running([modernStdio({ MODERN_ERA_FILE: eras })]);
    await listsCallsAndHearsChanges();
    expect(fs.readFileSync(eras, 'utf8').trim().split('\n')).toEqual(['modern']);
  });

  it('over streamable HTTP: the same', async () => {
    const modern = await modernHttp();
    await running([{ name: 'modern', transport: 'streamable-http', url: modern.url }], { healthIntervalMs: scaled(500) });
    await listsCallsAndHearsChanges();
    // The health check's ping (gone in 2026-07-28) is asked as server/discover, and answered.
    const discovers = () => modern.methods.filter((m) => m === 'server/discover').length;
    const before = discovers();
    await waitFor(() => discovers() >= before + 2, 10_000, 'health checks');
    expect(server()).toMatchObject({ state: 'running', restarts: 0 });
    expect(new Set(modern.eras)).toEqual(new Set(['modern']));
    // One initialize refused, then the 2026 way: discover, and requests that each carry the envelope.
    expect(modern.methods.filter((m) => m === 'initialize')).toHaveLength(1);
    expect(modern.methods).toContain('server/discover');
    expect(modern.methods).toContain('subscriptions/listen');
  });

  it('keeps the old protocol toward xiaozhi: its initialize still gets 2024-11-05, a call reaches the modern server, its list change reaches xiaozhi', async () => {
    const serving = await startServing({ servers: [modernStdio()] }, {}, supervision);
    ({ harness, xiaozhi } = serving);
    const first = await serving.xiaozhi.connection(0);
    const handshake = first.received.find((m) => m.id === 0);
    expect(handshake?.result?.protocolVersion).toBe('2024-11-05');
    await waitFor(() => harness!.bridge.toolHub.has('echo'), 10_000, 'the modern server tools');
    const answer = await serving.session.request(7, 'tools/call', { name: 'echo', arguments: { text: 'from xiaozhi' } });
    expect(answer.result?.content?.[0]?.text).toBe('modern: from xiaozhi');
    // The modern server's tool list change reaches xiaozhi the old way.
    const mark = serving.session.mark();
    await serving.session.request(8, 'tools/call', { name: 'add_tool', arguments: {} });
    await serving.session.waitForNotification('notifications/tools/list_changed', mark);
    const { tools } = await serving.session.listAllTools();
    expect(tools.map((t) => t.name)).toContain('extra');
  });
});

describe('a 2026-07-28 server whose server/discover fails', () => {
  it('fails the start at once with why, not at the start deadline, and is retried', async () => {
    const broken = await startRawMcpHttp((message, res) => {
      if (message.method === 'initialize') {
        const error = { code: -32022, message: 'Unsupported protocol version', data: { supported: ['2026-07-28'] } };
        res.writeHead(400, { 'Content-Type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: message.id, error }));
        return true;
      }
      if (message.method !== 'server/discover') return false;
      res.writeHead(503, { 'Content-Type': 'text/plain' }).end('overloaded');
      return true;
    });
    closers.push(broken.close);
    harness = makeBridge(
      { servers: [{ name: 'modern', transport: 'streamable-http', url: broken.url }] },
      { ...supervision, startTimeoutMs: 120_000 },
    );
    harness.bridge.start();
    await waitFor(() => server().restarts > 0, 5000, 'the start to fail');
    expect(server().lastError).toMatch(/server\/discover could not be sent: .*overloaded/);
  });
});

describe('local clients of a bridge serving a 2026-07-28 server', () => {
  it('still get the old protocol from the local MCP server, and reach the modern server through it', async () => {
    const token = 'local-test-token-0123456789abcdef';
    harness = makeBridge({ servers: [modernStdio()], localServer: { enabled: true, port: 0, token } }, supervision);
    harness.bridge.start();
    await harness.bridge.whenServersSettled();
    await waitFor(() => harness!.bridge.state().localServer?.state === 'listening', 10_000, 'the local server to listen');
    const url = new URL(harness.bridge.state().localServer?.url as string);
    const secret = clientToken(token, /\/mcp\/([^/]+)$/.exec(url.pathname)?.[1] ?? '');
    const local = new Client({ name: 'cursor', version: '1.0.0' }, { capabilities: {} });
    const transport = new StreamableHTTPClientTransport(url, { requestInit: { headers: { Authorization: `Bearer ${secret}` } } });
    closers.push(() => local.close());
    await local.connect(transport);
    expect(transport.protocolVersion).toBe(LATEST_PROTOCOL_VERSION);
    const result = (await local.callTool({ name: 'echo', arguments: { text: 'from Cursor' } })) as CallToolResult;
    expect(result.content[0]).toEqual({ type: 'text', text: 'modern: from Cursor' });
  });
});

describe('servers that speak both protocols', () => {
  // The old protocol stays first: it is what every server and the whole bridge (elicitation
  // forwarding, tasks, sessions) were built and tested on; 2026-07-28 is asked for only when refused.
  it('on stdio: gets the old protocol (initialize answered, no server/discover)', async () => {
    const eras = path.join(tempDir(), 'eras');
    await running([modernStdio({ MODERN_LEGACY: 'serve', MODERN_ERA_FILE: eras })]);
    expect(textOf(await harness!.bridge.toolHub.call('echo', { text: 'old' }, { caller: 'test' }))).toBe('modern: old');
    expect(fs.readFileSync(eras, 'utf8').trim().split('\n')).toEqual(['legacy']);
    expect(logText(harness!.logBook)).not.toContain('2026-07-28');
  });

  it('over streamable HTTP: the same', async () => {
    const modern = await modernHttp('serve');
    await running([{ name: 'modern', transport: 'streamable-http', url: modern.url }]);
    expect(textOf(await harness!.bridge.toolHub.call('echo', { text: 'old' }, { caller: 'test' }))).toBe('modern: old');
    expect(modern.methods).not.toContain('server/discover');
    expect(new Set(modern.eras)).toEqual(new Set(['legacy']));
  });
});

describe('a server that refuses initialize with -32022 and speaks only versions we do not', () => {
  it('over streamable HTTP (HTTP 400): is failed once, naming its versions, not retried for ever', async () => {
    const future = await startRawMcpHttp((message, res) => {
      if (message.method !== 'initialize') return false;
      const requested = message.params?.protocolVersion;
      const error = {
        code: -32022,
        message: `Unsupported protocol version: ${String(requested)}`,
        data: { supported: ['2099-01-01'], requested },
      };
      res.writeHead(400, { 'Content-Type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: message.id, error }));
      return true;
    });
    closers.push(future.close);
    harness = makeBridge(
      { servers: [{ name: 'future', transport: 'streamable-http', url: future.url }] },
      { ...supervision, maxCrashes: 5 },
    );
    harness.bridge.start();
    await waitFor(() => server().state === 'failed', 5000, 'the server to be failed');
    expect(server().lastErrorCause).toEqual({ code: 'server.protocolUnsupported', params: { version: '2099-01-01' } });
    expect(server().restarts).toBe(0);
    expect(future.requests.filter((r) => r.includes('initialize'))).toHaveLength(1);
  });

  it('on stdio: the same', async () => {
    harness = makeBridge({ servers: [refusingInitialize('future', -32022, true)] }, { ...supervision, maxCrashes: 5 });
    harness.bridge.start();
    await waitFor(() => server().state === 'failed', 5000, 'the server to be failed');
    expect(server().lastErrorCause).toEqual({ code: 'server.protocolUnsupported', params: { version: '2099-01-01' } });
    expect(server().restarts).toBe(0);
  });
});
