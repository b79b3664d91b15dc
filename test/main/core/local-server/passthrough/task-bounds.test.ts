import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTaskMessageQueue, InMemoryTaskStore } from '@modelcontextprotocol/sdk/experimental/tasks';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';

import { ServerRequests } from '../../../../../src/main/core/local-server/passthrough/server-requests';
import {
  MAX_TASKS,
  MAX_TASKS_PER_CLIENT,
  TaskPassthrough,
  type TaskSession,
} from '../../../../../src/main/core/local-server/passthrough/tasks';

// Issue 30: the task table is shared, oldest forgotten first, so a local client that created many tasks
// made the hub forget whose another client's task was (its status no longer reached it, tasks/get said
// "not found"). A real SDK server runs the tasks (task-only tool, as MCP 2025-11-25 has it), in memory.

let closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers) await close();
  closers = [];
});

async function taskServer(): Promise<Client> {
  const server = new McpServer(
    { name: 'tasks', version: '1.0.0' },
    {
      capabilities: { tools: {}, tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } },
      taskStore: new InMemoryTaskStore(),
      taskMessageQueue: new InMemoryTaskMessageQueue(),
    },
  );
  server.experimental.tasks.registerToolTask(
    'work',
    { description: 'A task', inputSchema: { n: z.number().optional() }, execution: { taskSupport: 'required' } },
    {
      createTask: async (_args, extra) => ({ task: await extra.taskStore.createTask({ ttl: 600_000 }) }),
      getTask: async (_args, extra) => extra.taskStore.getTask(extra.taskId),
      getTaskResult: async (_args, extra) => (await extra.taskStore.getTaskResult(extra.taskId)) as CallToolResult,
    },
  );
  const [ours, theirs] = InMemoryTransport.createLinkedPair();
  await server.connect(theirs);
  const client = new Client({ name: 'hub', version: '1.0.0' });
  await client.connect(ours);
  closers.push(async () => {
    await client.close();
    await server.close();
  });
  return client;
}

/** A local client's session, and the task statuses it hears. */
function session(client: string): TaskSession & { heard: string[] } {
  const heard: string[] = [];
  return { client, heard, notify: (params) => void heard.push(`${params.taskId} ${params.status}`) };
}

describe('tasks passed through to local clients', () => {
  it("a client that creates task after task forgets its own oldest, never another client's", async () => {
    const server = await taskServer();
    const tasks = new TaskPassthrough(() => server, new ServerRequests());
    const caller = { capabilities: () => undefined, send: () => Promise.reject(new Error('not asked')) };
    const create = (s: TaskSession) => tasks.create('s', 'work', {}, {}, s, caller, new AbortController().signal);

    const cursor = session('cursor');
    const mine = await create(cursor);
    const flood = session('flood');
    const theirs: string[] = [];
    for (let i = 0; i < MAX_TASKS + 50; i++) theirs.push((await create(flood)).task.taskId);

    // The server tells each task's status: the hub still knows whose it is.
    const serverIdOf = (id: string) => JSON.parse(Buffer.from(id.slice(4), 'base64url').toString('utf8'))[1] as string;
    const status = (id: string) =>
      tasks.status('s', { taskId: serverIdOf(id), status: 'working', ttl: 600_000, createdAt: '', lastUpdatedAt: '' });
    status(mine.task.taskId);
    expect(cursor.heard).toEqual([`${mine.task.taskId} working`]);
    // The flooding client keeps its newest, up to its own bound, and has lost its oldest.
    status(theirs.at(-1) as string);
    status(theirs[0] as string);
    expect(flood.heard).toEqual([`${theirs.at(-1)} working`]);
    expect(MAX_TASKS_PER_CLIENT).toBeLessThan(MAX_TASKS);
  }, 120_000);
});
