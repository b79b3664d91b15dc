import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import {
  type CallToolResult,
  CallToolResultSchema,
  CancelTaskResultSchema,
  type ClientCapabilities,
  CreateMessageRequestSchema,
  CreateTaskResultSchema,
  ElicitRequestSchema,
  GetTaskResultSchema,
  ListRootsRequestSchema,
  ListTasksResultSchema,
  McpError,
  RELATED_TASK_META_KEY,
  TaskStatusNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { Bridge } from '../../../../src/main/core/bridge/bridge';
import { clientToken } from '../../../../src/main/core/local-server/client-tokens';
import { ROOTS_GAP_MS } from '../../../../src/main/core/local-server/passthrough/call-passthrough';
import { upstreamTask } from '../../../../src/main/core/local-server/passthrough/tasks';
import { StdioRelay } from '../../../../src/main/core/local-server/stdio-relay';
import { localHubs } from '../../../helpers/local-hub';
import { scaled } from '../../../helpers/time-scale';
import { waitFor } from '../../../helpers/wait';

const TOKEN = 'passthrough-test-token-0123456789';
const ASKING = path.resolve(__dirname, '../../../fixtures/asking-server.mjs');
const hub = localHubs(TOKEN, 'xt-passthrough-');

let remote: { url: string; child: ChildProcess } | undefined;
let bridge: Bridge | undefined;

/** The asking fixture on streamable HTTP, in its own process. */
async function startRemote(): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [ASKING], { env: { ...process.env, ASKING_HTTP: '1' }, stdio: ['pipe', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split('\n')[0];
      if (out.includes('\n') && line) resolve(line.trim());
    });
    child.once('exit', (code) => reject(new Error(`the HTTP fixture exited (${code})`)));
  });
  return { url, child };
}

beforeAll(async () => {
  remote = await startRemote();
});

afterAll(async () => {
  if (!remote) return;
  const exited = new Promise((resolve) => remote?.child.once('exit', resolve));
  remote.child.stdin?.end();
  await exited;
});

/** A bridge serving the asking fixture over stdio at /mcp/cursor and over streamable HTTP at /mcp/vscode. */
async function start(): Promise<{ bridge: Bridge; url: string }> {
  const started = await hub.start({
    servers: [
      { name: 'asker', transport: 'stdio', command: process.execPath, args: [ASKING], enabled: true },
      { name: 'remote', transport: 'streamable-http', url: remote!.url, enabled: true },
    ],
    toolSets: [
      { name: 'by-stdio', servers: ['asker'] },
      { name: 'by-http', servers: ['remote'] },
    ],
    localServer: { clients: { cursor: { toolSet: 'by-stdio' }, vscode: { toolSet: 'by-http' } } },
  });
  bridge = started.bridge;
  expect(bridge.state().servers.map((s) => s.state)).toEqual(['running', 'running']);
  return { bridge, url: started.url };
}

async function connect(url: string, client: string, capabilities: ClientCapabilities = {}): Promise<Client> {
  return (await hub.connect(url, client, { capabilities })).client;
}

const textOf = (result: unknown) => ((result as CallToolResult).content[0] as { text: string }).text;

describe.each([
  ['stdio', 'cursor'],
  ['streamable HTTP', 'vscode'],
])('what a server asks during a call, over %s', (_transport, path) => {
  it('the servers are told the app takes sampling, elicitation (form and url) and roots (with list_changed)', async () => {
    const { url } = await start();
    const client = await connect(url, path);
    const declared = JSON.parse(textOf(await client.callTool({ name: 'client_caps', arguments: {} }))) as ClientCapabilities;
    expect(declared).toMatchObject({ sampling: {}, elicitation: { form: {}, url: {} }, roots: { listChanged: true } });
  });

  it('sampling reaches the client that made the call, and its answer reaches the server; another client is not asked', async () => {
    const { url } = await start();
    const asked: string[] = [];
    const sampler = (who: string) => {
      const client = new Promise<Client>((resolve) => resolve(connect(url, path, { sampling: {} }))).then((c) => {
        c.setRequestHandler(CreateMessageRequestSchema, (request) => {
          asked.push(who);
          const prompt = (request.params.messages[0]?.content as { text: string }).text;
          return { role: 'assistant', model: 'test', content: { type: 'text', text: `${who} says ${prompt}` } };
        });
        return c;
      });
      return client;
    };
    const a = await sampler('A');
    const b = await sampler('B');
    expect(textOf(await a.callTool({ name: 'ask_sampling', arguments: { prompt: 'hello' } }))).toBe('sampled: A says hello');
    expect(asked).toEqual(['A']);
    expect(textOf(await b.callTool({ name: 'ask_sampling', arguments: { prompt: 'again' } }))).toBe('sampled: B says again');
    expect(asked).toEqual(['A', 'B']);
  });

  it("a server's log message during a call rides that call's stream: a client with no stream of its own hears it", async () => {
    const { url } = await start();
    let session = '';
    const post = async (body: object): Promise<Response> =>
      fetch(`${url}/${path}`, {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${clientToken(TOKEN, path)}`,
          'Content-Type': 'application/json',
          Accept: 'application/json, text/event-stream',
          ...(session ? { 'Mcp-Session-Id': session, 'Mcp-Protocol-Version': '2025-06-18' } : {}),
        },
        body: JSON.stringify({ jsonrpc: '2.0', ...body }),
      });
    const init = await post({
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    });
    session = init.headers.get('mcp-session-id') ?? '';
    await init.text();
    await (await post({ method: 'notifications/initialized' })).text();
    await (await post({ id: 2, method: 'logging/setLevel', params: { level: 'info' } })).text();
    // No GET stream is open: what this client hears comes on its requests' own streams.
    const answer = await (await post({ id: 3, method: 'tools/call', params: { name: 'log_during', arguments: {} } })).text();
    const logged = answer.indexOf('"notifications/message"');
    expect(logged, answer).toBeGreaterThanOrEqual(0);
    expect(answer).toContain('half way');
    expect(logged).toBeLessThan(answer.indexOf('"id":3'));
  });

  it('a client without the capability gets the spec answer at once: sampling and roots "method not found", elicitation declined', async () => {
    const { url } = await start();
    const plain = await connect(url, path);
    const started = performance.now();
    expect(textOf(await plain.callTool({ name: 'ask_sampling', arguments: { prompt: 'x' } }))).toMatch(/^sampling failed: -32601 /);
    expect(textOf(await plain.callTool({ name: 'ask_elicit', arguments: {} }))).toBe('decline');
    expect(textOf(await plain.callTool({ name: 'ask_roots', arguments: {} }))).toMatch(/^roots failed: -32601 /);
    expect(performance.now() - started).toBeLessThan(scaled(3000));
  });

  it("a client's refusal of sampling reaches the server with the code and words the client gave, as if asked directly", async () => {
    const refusing = (client: Client) =>
      client.setRequestHandler(CreateMessageRequestSchema, () => {
        throw new McpError(-1, 'User rejected sampling request');
      });
    const direct = new Client({ name: 'direct', version: '1.0.0' }, { capabilities: { sampling: {} } });
    hub.track(direct);
    refusing(direct);
    await direct.connect(new StdioClientTransport({ command: process.execPath, args: [ASKING] }));
    const directly = textOf(await direct.callTool({ name: 'ask_sampling', arguments: { prompt: 'x' } }));
    expect(directly).toMatch(/^sampling failed: -1 .*User rejected sampling request$/);

    const { url } = await start();
    const client = await connect(url, path, { sampling: {} });
    refusing(client);
    expect(textOf(await client.callTool({ name: 'ask_sampling', arguments: { prompt: 'x' } }))).toBe(directly);
  });

  it("elicitation from a local client's call goes to that client, not to the window or the voice", async () => {
    const { url, bridge } = await start();
    const windowAsked: unknown[] = [];
    bridge.api.on('elicitations', (list) => {
      if (list.length > 0) windowAsked.push(list);
    });
    const client = await connect(url, path, { elicitation: { form: {} } });
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      expect(request.params.message).toBe('Your name?');
      return { action: 'accept', content: { name: 'Ada' } };
    });
    expect(textOf(await client.callTool({ name: 'ask_elicit', arguments: {} }))).toBe('accept {"name":"Ada"}');
    expect(windowAsked).toEqual([]);
  });

  it("roots: a call gets its caller's roots; a change of roots is told to the servers, which list them outside a call", async () => {
    const { url } = await start();
    let roots = [{ uri: 'file:///home/ada/project', name: 'project' }];
    const client = await connect(url, path, { roots: { listChanged: true } });
    client.setRequestHandler(ListRootsRequestSchema, () => ({ roots }));
    expect(textOf(await client.callTool({ name: 'ask_roots', arguments: {} }))).toBe('roots: file:///home/ada/project');
    roots = [{ uri: 'file:///home/ada/other', name: 'other' }];
    await client.sendRootsListChanged();
    let seen = '';
    await waitFor(
      async () => {
        seen = textOf(await client.callTool({ name: 'roots_seen', arguments: {} }));
        return seen === 'changes 1: file:///home/ada/other';
      },
      10_000,
      () => `the server to list the new roots (it says "${seen}")`,
    );
  });

  it("a storm of roots changes reaches the servers as a few, the last one's roots included", async () => {
    const { url } = await start();
    let roots = [{ uri: 'file:///0' }];
    const client = await connect(url, path, { roots: { listChanged: true } });
    client.setRequestHandler(ListRootsRequestSchema, () => ({ roots }));
    const sent: Promise<void>[] = [];
    const began = performance.now();
    for (let i = 1; i <= 30; i++) {
      roots = [{ uri: `file:///${i}` }];
      sent.push(client.sendRootsListChanged());
    }
    await Promise.all(sent);
    let seen = '';
    await waitFor(
      async () => {
        seen = textOf(await client.callTool({ name: 'roots_seen', arguments: {} }));
        return seen.endsWith(': file:///30');
      },
      10_000,
      () => `the server to list the last roots (it says "${seen}")`,
    );
    // At most one telling per gap, plus the first (at once) and the burst's last (at its end): a busy
    // machine stretches the storm over more gaps, so the bound follows the time it took, not a count.
    const gaps = Math.floor((performance.now() - began) / ROOTS_GAP_MS);
    expect(Number(/^changes (\d+):/.exec(seen)?.[1])).toBeLessThanOrEqual(gaps + 2);
  });

  it('tasks pass through to a client that takes them: create, status, get, result, list, cancel', async () => {
    const { url } = await start();
    const client = await connect(url, path, { tasks: { list: {}, cancel: {} } });
    const statuses: string[] = [];
    client.setNotificationHandler(TaskStatusNotificationSchema, (n) => void statuses.push(`${n.params.taskId} ${n.params.status}`));
    const research = (await client.listTools()).tools.find((t) => t.name === 'research');
    expect(research?.execution?.taskSupport).toBe('required');

    const created = await client.request(
      { method: 'tools/call', params: { name: 'research', arguments: { topic: 'tea' }, task: { ttl: 60_000 } } },
      CreateTaskResultSchema,
    );
    const id = created.task.taskId;
    const history = await bridge!.api.getHistory();
    expect(history.find((h) => h.tool === 'research')).toMatchObject({
      caller: path === 'cursor' ? 'Cursor' : 'VS Code',
      server: path === 'cursor' ? 'asker' : 'remote',
      outcome: 'ok',
    });
    expect(upstreamTask(id)?.server).toBe(path === 'cursor' ? 'asker' : 'remote');
    const got = await client.request({ method: 'tasks/get', params: { taskId: id } }, GetTaskResultSchema);
    expect(got.taskId).toBe(id);
    expect(['working', 'completed']).toContain(got.status);
    const result = await client.request({ method: 'tasks/result', params: { taskId: id } }, CallToolResultSchema);
    expect(textOf(result)).toBe('Research on tea: done.');
    await waitFor(
      () => statuses.includes(`${id} completed`),
      5000,
      () => `the completed status (heard: ${statuses.join('; ')})`,
    );
    const listed = await client.request({ method: 'tasks/list', params: {} }, ListTasksResultSchema);
    expect(listed.tasks.map((t) => t.taskId)).toContain(id);

    const second = await client.request(
      { method: 'tools/call', params: { name: 'research', arguments: { topic: 'coffee' }, task: {} } },
      CreateTaskResultSchema,
    );
    const cancelled = await client.request({ method: 'tasks/cancel', params: { taskId: second.task.taskId } }, CancelTaskResultSchema);
    expect(cancelled.status).toBe('cancelled');
    expect(cancelled.taskId).toBe(second.task.taskId);

    // Another client's session cannot reach this client's tasks.
    const other = await connect(url, path === 'cursor' ? 'vscode' : 'cursor', { tasks: { list: {}, cancel: {} } });
    await expect(other.request({ method: 'tasks/get', params: { taskId: id } }, GetTaskResultSchema)).rejects.toThrow(/Task not found/);
  });

  it('a task call passes the argument check every call gets: refused in our words before the server is asked', async () => {
    const { url } = await start();
    const client = await connect(url, path, { tasks: { list: {}, cancel: {} } });
    const refused = await client
      .request({ method: 'tools/call', params: { name: 'research', arguments: { topic: 42 }, task: {} } }, CreateTaskResultSchema)
      .then(
        () => 'created',
        (error: { code?: number; message: string }) => `${error.code} ${error.message}`,
      );
    // Before: the task was created on the server, which refused the argument in its own words (or ran with it).
    expect(refused).toMatch(/^-32602 .*The arguments for "research" are not valid.*"topic" must be a string/s);
    expect(refused).not.toContain('Input validation error');
    const history = await bridge!.api.getHistory();
    expect(history.find((h) => h.tool === 'research')).toMatchObject({ outcome: 'error' });
  });

  it("a server's refusal about a task (cancelling one that has ended) reaches the client as a client asking it directly sees it", async () => {
    const caps = { tasks: { list: {}, cancel: {} } };
    const cancelEnded = async (client: Client) => {
      const created = await client.request(
        { method: 'tools/call', params: { name: 'research', arguments: { topic: 'tea' }, task: {} } },
        CreateTaskResultSchema,
      );
      const taskId = created.task.taskId;
      await client.request({ method: 'tasks/result', params: { taskId } }, CallToolResultSchema);
      return client.request({ method: 'tasks/cancel', params: { taskId } }, CancelTaskResultSchema).then(
        () => 'cancelled',
        (error: { code?: number; message: string }) => `${error.code} ${error.message}`,
      );
    };
    const direct = new Client({ name: 'direct', version: '1.0.0' }, { capabilities: caps });
    hub.track(direct);
    await direct.connect(new StdioClientTransport({ command: process.execPath, args: [ASKING] }));
    const directly = await cancelEnded(direct);
    expect(directly).toMatch(/^-32602 .*terminal/);

    const { url } = await start();
    expect(await cancelEnded(await connect(url, path, caps))).toBe(directly);
  });

  it("a task's question (elicitation related to it) reaches the client waiting on tasks/result, under the task id it knows", async () => {
    const { url } = await start();
    const client = await connect(url, path, { tasks: { list: {}, cancel: {} }, elicitation: { form: {} } });
    const related: unknown[] = [];
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      related.push(request.params._meta?.[RELATED_TASK_META_KEY]);
      return { action: 'accept', content: { year: 1999 } };
    });
    const created = await client.request(
      { method: 'tools/call', params: { name: 'research_ask', arguments: {}, task: {} } },
      CreateTaskResultSchema,
    );
    const result = await client.request({ method: 'tasks/result', params: { taskId: created.task.taskId } }, CallToolResultSchema);
    expect(textOf(result)).toBe('year 1999');
    expect(related).toEqual([{ taskId: created.task.taskId }]);
  });

  it('a task outlives the session that started it: the same client reaches it from its next session', async () => {
    const { url } = await start();
    const first = await connect(url, path, { tasks: { list: {}, cancel: {} } });
    const created = await first.request(
      { method: 'tools/call', params: { name: 'research', arguments: { topic: 'tea' }, task: {} } },
      CreateTaskResultSchema,
    );
    await first.close();
    const next = await connect(url, path, { tasks: { list: {}, cancel: {} } });
    const result = await next.request({ method: 'tasks/result', params: { taskId: created.task.taskId } }, CallToolResultSchema);
    expect(textOf(result)).toBe('Research on tea: done.');
  });

  it('a client that does not take tasks sees a task-only tool as a plain one, and gets its result', async () => {
    const { url } = await start();
    const client = await connect(url, path);
    const research = (await client.listTools()).tools.find((t) => t.name === 'research');
    expect(research).toBeDefined();
    expect(research?.execution).toBeUndefined();
    expect(textOf(await client.callTool({ name: 'research', arguments: { topic: 'tea' } }))).toBe('Research on tea: done.');
  });
});

describe('through `xiaozhi-tray connect` (the stdio relay Claude Desktop starts)', () => {
  it("a server's sampling request during a call reaches the stdio client, and its answer the server", async () => {
    const { url } = await start();
    const [clientSide, relaySide] = InMemoryTransport.createLinkedPair();
    const target = { url: `${url}/cursor`, token: clientToken(TOKEN, 'cursor') };
    const relay = new StdioRelay({ local: relaySide, initial: target, target: () => Promise.resolve(target), say: () => undefined });
    await relay.start();
    try {
      const client = new Client({ name: 'Claude', version: '1' }, { capabilities: { sampling: {} } });
      client.setRequestHandler(CreateMessageRequestSchema, () => ({
        role: 'assistant',
        model: 'test',
        content: { type: 'text', text: 'from stdio' },
      }));
      await client.connect(clientSide);
      expect(textOf(await client.callTool({ name: 'ask_sampling', arguments: { prompt: 'x' } }))).toBe('sampled: from stdio');
      await client.close();
    } finally {
      await relay.close();
    }
  });
});
