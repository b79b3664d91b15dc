import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';

import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { type CallToolResult, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';

import { Bridge } from '../../../../src/main/core/bridge/bridge';
import { MemorySettingsStore } from '../../../../src/main/core/config/settings-store';
import { clientToken, tokenProof } from '../../../../src/main/core/local-server/client-tokens';
import {
  clientName,
  LocalMcpServer,
  type LocalMcpServerOptions,
  MAX_CLIENT_NAME,
} from '../../../../src/main/core/local-server/local-mcp-server';
import { readStateFile } from '../../../../src/main/core/local-server/state-file';
import { CallHistory, MAX_CALLERS, OTHER_CALLERS } from '../../../../src/main/core/logs/call-history';
import { LogBook } from '../../../../src/main/core/logs/log-book';
import { translator } from '../../../../src/shared/i18n/translate';
import { problemMessage } from '../../../../src/shared/problem-words';
import { type SettingsInput, SettingsSchema } from '../../../../src/shared/settings';
import { startBareLocalServer } from '../../../helpers/bare-local-server';
import { fastSupervision, fixtureServer, logText, testConnection } from '../../../helpers/bridge-harness';
import { dribble, heldSocket, slowBodies, statusOf } from '../../../helpers/raw-http';
import { tempDirs } from '../../../helpers/temp-dirs';
import { scaled } from '../../../helpers/time-scale';
import { waitFor } from '../../../helpers/wait';

const TOKEN = 'local-test-token-0123456789abcdef';
const ROOT = path.resolve(__dirname, '../../../..');

let bridge: Bridge | undefined;
let logBook: LogBook | undefined;
const clients: Client[] = [];
const tempDir = tempDirs('xt-local-');

afterEach(async () => {
  for (const client of clients.splice(0)) await client.close().catch(() => undefined);
  await bridge?.stop();
  bridge = undefined;
});

/**
 * A bridge with two servers, two sets and the local server on (port 0, a known token); resolves once it
 * listens and, unless `settled` is false, once its servers have started.
 */
async function start(extra: SettingsInput = {}, { settled = true } = {}): Promise<{ bridge: Bridge; url: string; stateDir: string }> {
  const stateDir = tempDir();
  const settings = SettingsSchema.parse({
    connection: testConnection,
    servers: [fixtureServer('weather'), fixtureServer('notes')],
    toolSets: [
      { name: 'kitchen', servers: ['weather'], tools: { weather: { crash: { enabled: false } } } },
      { name: 'study', servers: ['notes'] },
    ],
    localServer: { enabled: true, port: 0, token: TOKEN, clients: { cursor: { toolSet: 'kitchen' }, vscode: { toolSet: 'study' } } },
    ...extra,
  });
  logBook = new LogBook();
  bridge = new Bridge({
    store: new MemorySettingsStore(settings),
    logBook,
    supervision: fastSupervision,
    listChangedDebounceMs: 20,
    stateDir,
  });
  bridge.start();
  if (settled) await bridge.whenServersSettled();
  await waitFor(() => bridge!.state().localServer?.state === 'listening', 10_000, 'the local server to listen');
  return { bridge, url: bridge.state().localServer?.url as string, stateDir };
}

/** The token of a URL's path: a client's own at /mcp/<client>, the app's at /mcp. */
const tokenOf = (url: string) => clientToken(TOKEN, /\/mcp\/([^/]+)$/.exec(new URL(url).pathname)?.[1] ?? '');

async function connect(url: string, options: { token?: string | null; headers?: Record<string, string> } = {}): Promise<Client> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token !== null) headers.Authorization = `Bearer ${options.token ?? tokenOf(url)}`;
  const client = new Client({ name: 'test-client', version: '1.0.0' }, { capabilities: {} });
  clients.push(client);
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  return client;
}

/** A raw request, for what fetch will not send (a foreign Host header). */
function rawRequest(url: string, headers: Record<string, string>, body = '{}'): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      url,
      { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...headers } },
      (res) => {
        let text = '';
        res.on('data', (d: Buffer) => (text += d.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

const initialize = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});

describe('the local MCP server (streamable HTTP, the SDK on both sides)', () => {
  it('answers the first tools/list with servers still starting once they are ready', async () => {
    const { bridge, url } = await start(
      {
        servers: [fixtureServer('slow', { FIXTURE_START_DELAY_MS: '1500' })],
        toolSets: [],
        localServer: { enabled: true, port: 0, token: TOKEN },
      },
      { settled: false },
    );
    expect(bridge.state().servers[0]?.state).toBe('starting');
    const client = await connect(url);
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('echo');
  });

  it("lists the client's set with the servers' own schemas, and calls tools with results unshaped", async () => {
    const { url } = await start();
    const client = await connect(`${url}/cursor`);
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    expect(names).toContain('echo');
    expect(names).not.toContain('crash');
    expect(tools.find((t) => t.name === 'weather_get')?.inputSchema).toEqual({
      type: 'object',
      properties: { city: { type: 'string', description: '城市' } },
    });
    expect(((await client.callTool({ name: 'echo', arguments: { text: '本地' } })) as CallToolResult).content).toEqual([
      { type: 'text', text: 'weather: 本地' },
    ]);
    // Every content item, at full size: shaping is for xiaozhi only.
    const picture = (await client.callTool({ name: 'picture', arguments: {} })) as CallToolResult;
    expect(picture.content.map((c) => c.type)).toEqual(['text', 'image', 'resource']);
    const big = (await client.callTool({ name: 'big', arguments: { n: 50_000 } })) as CallToolResult;
    expect((big.content[0] as { text: string }).text).toHaveLength(50_000);
    // Outside the set: refused like an unknown tool.
    const outside = (await client.callTool({ name: 'notes_echo', arguments: {} })) as CallToolResult;
    expect(outside.isError).toBe(true);
    expect((outside.content[0] as { text: string }).text).toMatch(/^There is no tool called "notes_echo"/);
    const history = await bridge!.api.getHistory();
    expect(new Set(history.map((h) => h.caller))).toEqual(new Set(['Cursor']));
  });

  it('answers a server result the SDK would refuse with a readable error result, not a protocol error', async () => {
    const { url } = await start({ servers: [fixtureServer('weather', { FIXTURE_RELAY_TOOLS: '1' }), fixtureServer('notes')] });
    const client = await connect(`${url}/cursor`);
    const answer = (await client.callTool({
      name: 'answer_raw',
      arguments: { result: { content: [{ type: 'text', text: 5 }] } },
    })) as CallToolResult;
    expect(answer.isError).toBe(true);
    expect((answer.content[0] as { text: string }).text).toMatch(
      /^The tool "answer_raw" failed\. The server answered the call with a malformed result: content\[0\]/,
    );
    expect((await bridge!.api.getHistory()).find((h) => h.tool === 'answer_raw')?.outcome).toBe('error');
  });

  it("passes the server's progress on to a client that asked for it", async () => {
    const { url } = await start({ servers: [fixtureServer('weather', { FIXTURE_RELAY_TOOLS: '1' }), fixtureServer('notes')] });
    const client = await connect(`${url}/cursor`);
    const progress: unknown[] = [];
    const result = (await client.callTool({ name: 'progress', arguments: { steps: 3 } }, undefined, {
      onprogress: (p) => progress.push(p),
    })) as CallToolResult;
    expect(result.content).toEqual([{ type: 'text', text: 'progressed 3' }]);
    expect(progress).toEqual([1, 2, 3].map((i) => ({ progress: i, total: 3, message: `step ${i}` })));
  });

  it('refuses a request without the token, or with a wrong one', async () => {
    const { url } = await start();
    await expect(connect(`${url}/cursor`, { token: null })).rejects.toMatchObject({
      code: 401,
      message: expect.stringMatching(/Missing or wrong bearer token/),
    });
    await expect(connect(`${url}/cursor`, { token: 'wrong-token-0123456789abcdef-xx' })).rejects.toMatchObject({ code: 401 });
    const raw = await rawRequest(url, {}, initialize);
    expect(raw.status).toBe(401);
    expect(JSON.parse(raw.body).error.message).toMatch(/bearer token/);
    expect(bridge!.state().localServer?.sessions).toEqual([]);
    expect(logText(logBook!)).toMatch(/refused a request from 127\.0\.0\.1: Missing or wrong bearer token/);
    expect(logText(logBook!)).not.toContain(TOKEN);
  });

  it('tells a client that tries OAuth sign-in after a wrong token (mcp-remote, the Inspector) that it wants its bearer token', async () => {
    const { url } = await start();
    // What such clients hold: no registration, no tokens, so a 401 starts discovery and registration.
    const signIn: OAuthClientProvider = {
      redirectUrl: 'http://127.0.0.1:1/callback',
      clientMetadata: { redirect_uris: ['http://127.0.0.1:1/callback'], client_name: 'test' },
      clientInformation: () => undefined,
      saveClientInformation: () => undefined,
      tokens: () => undefined,
      saveTokens: () => undefined,
      redirectToAuthorization: () => undefined,
      saveCodeVerifier: () => undefined,
      codeVerifier: () => '',
    };
    const client = new Client({ name: 'test-client', version: '1.0.0' }, { capabilities: {} });
    clients.push(client);
    const transport = new StreamableHTTPClientTransport(new URL(`${url}/cursor`), {
      authProvider: signIn,
      requestInit: { headers: { Authorization: 'Bearer wrong-token-0123456789abcdef-xx' } },
    });
    const failure = await client.connect(transport).then(
      () => undefined,
      (error: Error) => error.message,
    );
    expect(failure).toMatch(/no OAuth sign-in/);
    expect(failure).toMatch(/Authorization: Bearer/);
    expect(failure).toMatch(/export --format/);
  });

  it("takes each client's own token at its own path only: the token in Cursor's file does not open /mcp/vscode", async () => {
    const { url } = await start();
    const cursorToken = clientToken(TOKEN, 'cursor');
    expect(cursorToken).not.toBe(TOKEN);
    expect(cursorToken).not.toBe(clientToken(TOKEN, 'vscode'));
    expect((await (await connect(`${url}/cursor`, { token: cursorToken })).listTools()).tools.map((t) => t.name)).toContain('echo');
    // One path edit away: refused, as any wrong token is.
    await expect(connect(`${url}/vscode`, { token: cursorToken })).rejects.toMatchObject({
      code: 401,
      message: expect.stringMatching(/Missing or wrong bearer token/),
    });
    await expect(connect(url, { token: cursorToken })).rejects.toMatchObject({ code: 401 });
    expect((await rawRequest(url.replace(/\/mcp$/, '/status'), { Authorization: `Bearer ${cursorToken}` })).status).toBe(401);
    // The app's own token still opens /mcp (configs and entries with one token keep working there)…
    expect((await (await connect(url, { token: TOKEN })).listTools()).tools.length).toBeGreaterThan(0);
    // …but an entry written before, with it at a client's path, is told how to get the client's own.
    await expect(connect(`${url}/vscode`, { token: TOKEN })).rejects.toMatchObject({
      code: 401,
      message: expect.stringMatching(
        /shared token, which opens \/mcp only: each app now has its own\. In Xiaozhi Tray choose \\?"Add to VS Code\\?" again/,
      ),
    });
    await expect(connect(`${url}/vscode`, { token: TOKEN })).rejects.toMatchObject({ code: 401 });
    const warnings = logText(logBook!)
      .split('\n')
      .filter((line) => line.includes("sent the app's shared token"));
    expect(warnings).toEqual([
      expect.stringContaining(
        'VS Code sent the app\'s shared token at /mcp/vscode; each app now has its own token: choose "Add to VS Code" again',
      ),
    ]);
    expect(
      bridge!
        .state()
        .localServer?.sessions.map((s) => s.client)
        .sort(),
    ).toEqual(['', 'cursor']);
    // The window reveals each client's own token, and logs mask it like the app's.
    expect(await bridge!.api.revealLocalServerToken({ client: 'cursor' })).toBe(cursorToken);
    expect(await bridge!.api.revealLocalServerToken()).toBe(TOKEN);
    logBook!.logger('test').info(`cursor's token is ${cursorToken}`);
    expect(logText(logBook!)).not.toContain(cursorToken);
  });

  it("proves it knows a path's token without sending it: an HMAC of the nonce and the address and port asked, at /proof, without a token", async () => {
    const { url } = await start();
    const port = Number(new URL(url).port);
    const proofAt = (query: string) => fetch(new URL(`/proof?${query}`, url));
    const nonce = 'n'.repeat(32);
    const answer = await proofAt(`client=cursor&nonce=${nonce}`);
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({
      name: 'xiaozhi-tray',
      proof: tokenProof(clientToken(TOKEN, 'cursor'), nonce, '127.0.0.1', port),
    });
    expect(((await (await proofAt(`nonce=${nonce}`)).json()) as { proof: string }).proof).toBe(tokenProof(TOKEN, nonce, '127.0.0.1', port));
    // Neither the token nor anything it is derived from: the proof differs for another port, address or nonce.
    expect(tokenProof(TOKEN, nonce, '127.0.0.1', port + 1)).not.toBe(tokenProof(TOKEN, nonce, '127.0.0.1', port));
    expect(tokenProof(TOKEN, nonce, '::1', port)).not.toBe(tokenProof(TOKEN, nonce, '127.0.0.1', port));
    // The same address however a socket names it.
    expect(tokenProof(TOKEN, nonce, '::ffff:127.0.0.1', port)).toBe(tokenProof(TOKEN, nonce, '127.0.0.1', port));
    expect(tokenProof(TOKEN, nonce, '[::1]', port)).toBe(tokenProof(TOKEN, nonce, '::1', port));
    expect((await proofAt('nonce=short')).status).toBe(400);
    expect((await proofAt(`client=Bad%20Name&nonce=${nonce}`)).status).toBe(400);
    expect((await fetch(new URL(`/proof?nonce=${nonce}`, url), { method: 'POST' })).status).toBe(405);
    // A foreign page still cannot ask.
    expect((await fetch(new URL(`/proof?nonce=${nonce}`, url), { headers: { Origin: 'http://evil.example' } })).status).toBe(403);
  });

  it('refuses a foreign Origin and a foreign Host (DNS rebinding), token or not', async () => {
    const { url } = await start();
    await expect(connect(`${url}/cursor`, { headers: { Origin: 'http://evil.example' } })).rejects.toMatchObject({
      code: 403,
      message: expect.stringMatching(/Invalid Origin header: http:\/\/evil\.example/),
    });
    const port = new URL(url).port;
    const foreignHost = await rawRequest(url, { Host: `evil.example:${port}`, Authorization: `Bearer ${TOKEN}` }, initialize);
    expect(foreignHost.status).toBe(403);
    expect(JSON.parse(foreignHost.body).error.message).toMatch(/Invalid Host header: evil\.example/);
    const wrongPort = await rawRequest(url, { Host: '127.0.0.1:1', Authorization: `Bearer ${TOKEN}` }, initialize);
    expect(wrongPort.status).toBe(403);
    // A page on a loopback origin (a local tool like the MCP Inspector) may talk, with the token.
    const inspector = await connect(`${url}/cursor`, { headers: { Origin: 'http://localhost:6274' } });
    expect((await inspector.listTools()).tools.length).toBeGreaterThan(0);
  });

  it('serves two sessions at once, each on its own set, and records which client called', async () => {
    const { url } = await start();
    const [cursor, vscode] = await Promise.all([connect(`${url}/cursor`), connect(`${url}/vscode`)]);
    const [a, b] = await Promise.all([
      cursor.callTool({ name: 'echo', arguments: { text: 'one' } }),
      vscode.callTool({ name: 'echo', arguments: { text: 'two' } }),
    ]);
    expect((a as CallToolResult).content[0]).toEqual({ type: 'text', text: 'weather: one' });
    expect((b as CallToolResult).content[0]).toEqual({ type: 'text', text: 'notes: two' });
    const sessions = bridge!.state().localServer?.sessions ?? [];
    expect(sessions.map((s) => [s.client, s.toolSet, s.clientInfo]).sort()).toEqual([
      ['cursor', 'kitchen', 'test-client'],
      ['vscode', 'study', 'test-client'],
    ]);
    expect(await bridge!.api.getCallerCounts()).toEqual({
      Cursor: { ok: 1, failed: 0, errorText: 0 },
      'VS Code': { ok: 1, failed: 0, errorText: 0 },
    });
    // A client without a path of its own gets the shared choice (the default set here).
    const other = await connect(url);
    expect((await other.listTools()).tools.map((t) => t.name)).toEqual(expect.arrayContaining(['weather_echo', 'notes_echo']));
  });

  it("moves a client's sessions to its new set and tells them with list_changed", async () => {
    const { url } = await start();
    const client = await connect(`${url}/cursor`);
    let changed = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
      changed++;
    });
    expect((await client.listTools()).tools.map((t) => t.name)).not.toContain('crash');
    await bridge!.api.updateLocalServer({ clients: { cursor: 'study' } });
    await waitFor(() => changed > 0, 10_000, 'list_changed');
    const echo = (await client.callTool({ name: 'echo', arguments: { text: 'moved' } })) as CallToolResult;
    expect(echo.content[0]).toEqual({ type: 'text', text: 'notes: moved' });
  });

  it('releases the session of a client that goes away: at once when it says so, after a quiet spell when it vanishes', async () => {
    const { url } = await start({ localServer: { enabled: true, port: 0, token: TOKEN, sessionIdleMs: scaled(1000) } });
    const polite = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } } });
    const client = new Client({ name: 'polite', version: '1' }, { capabilities: {} });
    await client.connect(polite);
    expect(bridge!.state().localServer?.sessions).toHaveLength(1);
    await polite.terminateSession();
    await client.close();
    await waitFor(() => bridge!.state().localServer?.sessions.length === 0, 5000, 'the session released on DELETE');

    // A client process killed mid-session: its socket closes, then the session goes quiet and is released.
    const script = `
      const { Client } = await import(${JSON.stringify(path.join(ROOT, 'node_modules/@modelcontextprotocol/sdk/dist/esm/client/index.js'))});
      const { StreamableHTTPClientTransport } = await import(${JSON.stringify(path.join(ROOT, 'node_modules/@modelcontextprotocol/sdk/dist/esm/client/streamableHttp.js'))});
      const client = new Client({ name: 'doomed', version: '1' }, { capabilities: {} });
      await client.connect(new StreamableHTTPClientTransport(new URL(${JSON.stringify(url)}), { requestInit: { headers: { Authorization: 'Bearer ${TOKEN}' } } }));
      await client.listTools();
      process.stdout.write('ready\\n');
      setInterval(() => {}, 1000);`;
    const doomed = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    doomed.stdout.on('data', (d: Buffer) => (out += d.toString()));
    await waitFor(() => out.includes('ready'), 10_000, 'the doomed client');
    await waitFor(() => bridge!.state().localServer?.sessions.some((s) => s.clientInfo === 'doomed') === true, 5000, 'its session');
    doomed.kill('SIGKILL');
    await waitFor(() => bridge!.state().localServer?.sessions.length === 0, 10_000, 'the vanished session to be released');
    expect(logText(logBook!)).toMatch(/released \(its client went quiet\)/);
  });

  it('writes the state file for `connect` while listening, and removes it when stopped', async () => {
    const { url, stateDir } = await start();
    const found = readStateFile(stateDir);
    expect(found).toEqual({ ok: true, state: expect.objectContaining({ pid: process.pid, url, token: TOKEN }) });
    expect(fs.statSync(path.join(stateDir, 'local-server.json')).mode & 0o077).toBe(0);
    await bridge!.api.updateLocalServer({ enabled: false });
    expect(bridge!.state().localServer?.state).toBe('off');
    expect(readStateFile(stateDir)).toMatchObject({ ok: false, reason: 'missing' });
  });

  it('says so when its port is taken, and answers 404 off its path', async () => {
    const { url } = await start();
    expect((await rawRequest(url.replace(/\/mcp$/, '/other'), { Authorization: `Bearer ${TOKEN}` })).status).toBe(404);
    const port = Number(new URL(url).port);
    await bridge!.api.updateLocalServer({ port });
    expect(bridge!.state().localServer?.state).toBe('listening');
    const logBook = new LogBook();
    const second = new Bridge({
      store: new MemorySettingsStore(SettingsSchema.parse({ localServer: { enabled: true, port, token: TOKEN } })),
      logBook,
      stateDir: null,
    });
    second.start();
    await waitFor(() => second.state().localServer?.state === 'failed', 10_000, 'the second server to fail');
    expect(second.state().localServer?.lastError).toBe(`port ${port} is already in use`);
    // A problem, worded in each language with what to do; the log line carries it too.
    const cause = second.state().localServer?.lastErrorCause;
    expect(cause).toEqual({ code: 'localServer.portInUse', params: { port } });
    expect(problemMessage(translator('zh-CN'), cause, undefined)).toEqual({
      message: `端口 ${port} 已被其他程序（或另一个小智托盘）占用。`,
      hint: '请在“设置 → 本机 MCP 服务”中换一个端口（命令行：run --mcp-port N），或退出占用它的程序。',
    });
    expect(problemMessage(translator('en'), cause, undefined)?.hint).toContain('Settings → Local MCP server');
    expect(logBook.entries().find((e) => e.level === 'error')?.problem).toEqual(cause);
    await second.stop();
  });

  it('generates a token when turned on without one, keeps it secret in settings and logs, and reveals it on request', async () => {
    const settings = SettingsSchema.parse({ localServer: { enabled: false, port: 0 } });
    const store = new MemorySettingsStore(settings);
    logBook = new LogBook();
    bridge = new Bridge({ store, logBook, stateDir: null });
    bridge.start();
    await bridge.api.updateLocalServer({ enabled: true });
    const token = await bridge.api.revealLocalServerToken();
    expect(token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(store.load().localServer.token).toBe(token);
    expect((await bridge.api.getSettings()).localServer.token).not.toBe(token);
    logBook.logger('test').info(`the token is ${token}`);
    expect(logText(logBook)).not.toContain(token);
    const url = bridge.state().localServer?.url as string;
    expect((await (await connect(url, { token })).listTools()).tools).toEqual([]);
    await bridge.api.regenerateLocalServerToken();
    expect(await bridge.api.revealLocalServerToken()).not.toBe(token);
    // Port 0 picks a new port on restart; the old token is refused there.
    await expect(connect(bridge.state().localServer?.url as string, { token })).rejects.toMatchObject({ code: 401 });
  });
});

describe('what local clients say about themselves is bounded', () => {
  it("caps a client's own name where the server takes it: status, history and counts keep 64 characters", async () => {
    const { url } = await start();
    const huge = `${'名'.repeat(200_000)}\n\u0000tail`;
    const client = new Client({ name: huge, version: '1' }, { capabilities: {} });
    clients.push(client);
    await client.connect(
      new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } } }),
    );
    await client.callTool({ name: 'weather_echo', arguments: { text: 'x' } });
    const shown = bridge!.state().localServer?.sessions[0]?.clientInfo as string;
    expect([...shown]).toHaveLength(MAX_CLIENT_NAME);
    expect(shown).toBe(`${'名'.repeat(MAX_CLIENT_NAME - 1)}…`);
    const counts = await bridge!.api.getCallerCounts();
    expect(Object.keys(counts)).toEqual([shown]);
    expect((await bridge!.api.getHistory()).map((h) => h.caller)).toEqual([shown]);
    expect(logText(logBook!).length).toBeLessThan(20_000);
    expect(clientName(' a\u0007b\u200b ')).toBe('a b');
    expect(clientName('\n')).toBeUndefined();
    expect(clientName(42)).toBeUndefined();
  });

  it('counts calls one caller at a time up to a bound, and the rest together', () => {
    const history = new CallHistory();
    for (let i = 0; i < MAX_CALLERS + 50; i++) {
      history.add({
        caller: `client ${i}`,
        tool: 't',
        originalTool: 't',
        server: 's',
        arguments: {},
        durationMs: 1,
        outcome: i % 2 ? 'ok' : 'error',
        result: '',
      });
    }
    const counts = history.countsByCaller();
    expect(Object.keys(counts)).toHaveLength(MAX_CALLERS + 1);
    expect(counts['client 0']).toEqual({ ok: 0, failed: 1, errorText: 0 });
    expect(counts[OTHER_CALLERS]).toEqual({ ok: 25, failed: 25, errorText: 0 });
    // A caller already counted keeps its own count.
    history.add({ caller: 'client 1', tool: 't', originalTool: 't', server: 's', arguments: {}, durationMs: 1, outcome: 'ok', result: '' });
    expect(history.countsByCaller()['client 1']).toEqual({ ok: 2, failed: 0, errorText: 0 });
  });
});

/** A local server alone (no sessions needed): for what is refused before a request reaches one. */
async function bareServer(options: Partial<LocalMcpServerOptions> = {}): Promise<{ server: LocalMcpServer; url: string; book: LogBook }> {
  const { server, book } = await startBareLocalServer(TOKEN, options);
  bare.push(server);
  return { server, url: server.url, book };
}
const bare: LocalMcpServer[] = [];
const held: net.Socket[] = [];
afterEach(async () => {
  for (const socket of held.splice(0)) socket.destroy();
  for (const server of bare.splice(0)) await server.stop();
});

describe('the local MCP server against hostile clients', () => {
  it('closes a connection whose headers never end', async () => {
    const { server } = await bareServer({ headersTimeoutMs: 300, requestTimeoutMs: 300 });
    const socket = net.connect(server.port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    let answer = '';
    socket.on('data', (d: Buffer) => (answer += d.toString()));
    socket.write(`POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nX-Slow: `);
    await new Promise((resolve) => socket.once('close', resolve));
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
  });

  it('logs the first refused request at once and the rest counted, once per interval', async () => {
    // An interval the 30 requests fit in, however slow the machine (they took longer than 300 ms under load).
    const { url, book } = await bareServer({ refusalLogMs: scaled(2000) });
    for (let i = 0; i < 30; i++)
      expect((await rawRequest(url, { Origin: `https://evil${i}.example`, Authorization: `Bearer ${TOKEN}` }, initialize)).status).toBe(
        403,
      );
    const refusals = () => book.entries().filter((e) => e.level === 'warn' && e.message.includes('refused'));
    expect(refusals().map((e) => e.message)).toEqual(['refused a request from 127.0.0.1: Invalid Origin header: https://evil0.example']);
    await waitFor(() => refusals().length === 2, scaled(15_000), 'the count of the others');
    expect(refusals()[1]?.message).toMatch(
      /^refused 29 more requests in the last \d+ s; the last: refused a request from 127\.0\.0\.1: Invalid Origin header: https:\/\/evil29\.example$/,
    );
  });

  it('answers 400 to request targets that are not URLs, and logs 300 of them as one line and a count', async () => {
    const { server, book } = await bareServer();
    const host = `Host: 127.0.0.1:${server.port}\r\n`;
    const targets = ['http://[', '//[', 'http://x:99999/', 'http://[/mcp'];
    for (let i = 0; i < 300; i++)
      expect(await statusOf(server.port, `POST ${targets[i % targets.length]} HTTP/1.1\r\n${host}Content-Length: 0\r\n\r\n`)).toBe(400);
    const warnings = () =>
      book
        .entries()
        .filter((e) => e.level === 'warn')
        .map((e) => e.message);
    expect(warnings()).toEqual(['refused a request from 127.0.0.1: the request target is not a URL']);
    await server.stop();
    expect(warnings()).toEqual([
      'refused a request from 127.0.0.1: the request target is not a URL',
      'refused 299 more requests in the last 60 s; the last: refused a request from 127.0.0.1: the request target is not a URL',
    ]);
  });

  it('drops a connection that sends its headers one byte at a time, within seconds', async () => {
    // A second for the headers (the app's default, 10 s, is read in guarded-http-server.test.ts): the same guard, sooner.
    const { server } = await bareServer({ headersTimeoutMs: 1000 });
    const slow = await dribble(
      server.port,
      `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nX-Slow: ${'a'.repeat(10_000)}\r\n\r\n`,
      100,
    );
    expect(slow.answer).toMatch(/^HTTP\/1\.1 408/);
    expect(slow.bytesSent).toBeLessThan(300);
  }, 60_000);

  it('drops requests whose bodies come a byte at a time, so a client with the token gets in again within seconds', async () => {
    // Bodies get as long as headers (a second here; 10 s by default, guarded-http-server.test.ts).
    const { server } = await bareServer({ headersTimeoutMs: 1000 });
    const port = server.port;
    const status = `GET /status HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${TOKEN}\r\nConnection: close\r\n\r\n`;
    expect(await statusOf(port, status)).toBe(200);
    // Without the token (refused at once, then the body drained for as long as it dribbled), and with it.
    held.push(...(await slowBodies(port, 250, `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n`)));
    held.push(...(await slowBodies(port, 6, `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${TOKEN}\r\n`)));
    // Before: no answer for as long as the bodies dribbled (256 connections held, the most it takes).
    await waitFor(async () => (await statusOf(port, status)) === 200, 25_000, 'a client with the token to be answered again');
    await waitFor(() => held.every((socket) => socket.destroyed || socket.readableEnded), 25_000, 'every slow connection to be closed');
  }, 60_000);

  it('answers 408 to a request with the token whose body does not arrive in time', async () => {
    const { server, book } = await bareServer({ bodyTimeoutMs: 500 });
    const [socket] = await slowBodies(
      server.port,
      1,
      `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nAuthorization: Bearer ${TOKEN}\r\n`,
    );
    held.push(socket as net.Socket);
    let answer = '';
    socket?.on('data', (d: Buffer) => (answer += d.toString()));
    await waitFor(() => socket?.destroyed === true || socket?.readableEnded === true, 10_000, 'the connection to be closed');
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
    // A client that is too slow is no failure of the server's.
    expect(book.entries().filter((e) => e.message.includes('a local request failed'))).toEqual([]);
  });

  it('takes at most 256 connections at once, and serves again once they close', async () => {
    const { server, book } = await bareServer();
    const port = server.port;
    const held: net.Socket[] = [];
    for (let i = 0; i < 256; i++) held.push(await heldSocket(port, `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n`));
    expect(
      await statusOf(
        port,
        `GET /status HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${TOKEN}\r\nConnection: close\r\n\r\n`,
      ),
    ).toBe(0);
    await waitFor(
      () => book.entries().some((e) => e.message === 'refused a connection: 256 are open, the most the local server takes'),
      5000,
      'the refusal in the log',
    );
    held.pop()?.destroy();
    await waitFor(
      async () =>
        (await statusOf(
          port,
          `GET /status HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${TOKEN}\r\nConnection: close\r\n\r\n`,
        )) === 200,
      5000,
      'a connection to be taken again',
    );
    for (const socket of held) socket.destroy();
  });

  it('answers 400 to a path with a bad %-escape, and refuses __proto__, constructor and prototype keys with the request id', async () => {
    const { url } = await bareServer();
    const bad = await rawRequest(`${url}/%`, { Authorization: `Bearer ${TOKEN}` }, initialize);
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.body)).toMatchObject({ error: { message: expect.stringContaining('bad %-escape') } });
    for (const key of ['__proto__', 'constructor', 'prototype']) {
      const body = `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"echo","arguments":{"a":{"${key}":{"polluted":true}}}}}`;
      const refused = await rawRequest(url, { Authorization: `Bearer ${TOKEN}`, 'Mcp-Session-Id': 'x' }, body);
      expect(refused.status).toBe(400);
      expect(JSON.parse(refused.body)).toEqual({
        jsonrpc: '2.0',
        id: 7,
        error: { code: -32602, message: `Invalid params: the key at params.arguments.a.${key} is not allowed` },
      });
    }
  });

  it('cancels a call when its client closes the request, before the session is released', async () => {
    const { url } = await start();
    const client = await connect(url);
    const sessionId = (client.transport as StreamableHTTPClientTransport).sessionId as string;
    const call = JSON.stringify({
      jsonrpc: '2.0',
      id: 'slow-1',
      method: 'tools/call',
      params: { name: 'weather_slow', arguments: { ms: 60_000 } },
    });
    const request = http.request(url, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
        Authorization: `Bearer ${TOKEN}`,
        'Mcp-Session-Id': sessionId,
        'Mcp-Protocol-Version': '2025-06-18',
      },
    });
    request.on('error', () => undefined);
    request.end(call);
    await waitFor(() => logText(logBook!).includes('slow call started'), 10_000, 'the call to start');
    request.destroy();
    await waitFor(() => logText(logBook!).includes('slow call cancelled'), 10_000, 'the child to see the cancel');
    await waitFor(
      async () => (await bridge!.api.getHistory()).some((r) => r.tool === 'weather_slow' && r.outcome === 'cancelled'),
      10_000,
      'the cancelled call in history',
    );
    expect(bridge!.state().localServer?.sessions).toHaveLength(1);
  });
});
