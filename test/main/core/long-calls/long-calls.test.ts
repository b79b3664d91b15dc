import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import type { SettingsInput } from '../../../../src/shared/settings';
import type { BackgroundTask } from '../../../../src/shared/status';
import { makeBridge, patientConnection, withEndpointTeardown } from '../../../helpers/bridge-harness';
import { Esp32StandIn, GAVE_UP } from '../../../helpers/esp32-stand-in';
import { FakeXiaozhi } from '../../../helpers/fake-xiaozhi';
import { waitFor } from '../../../helpers/wait';

// Long calls against a stand-in for xiaozhi-esp32-server's client (it waits, then gives up), with a
// fixture server whose tools are slow, report progress, or must be called as MCP tasks.

const LONG_CALL_SERVER = path.resolve(__dirname, '../../../fixtures/long-call-server.mjs');
const EVERYTHING = path.resolve(__dirname, '../../../../node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const ctx = withEndpointTeardown(afterEach);
const logs: string[] = [];
afterEach(() => {
  for (const file of logs.splice(0)) fs.rmSync(file, { force: true });
});

/** The bridge answers at 1.6 s; the stand-in gives up at 2 s (scaled down from 30 s). */
const PATIENCE_S = 2;

async function setup(options: { patience?: number; language?: 'en' | 'zh-CN'; servers?: SettingsInput['servers'] } = {}) {
  const xiaozhi = (ctx.xiaozhi = await FakeXiaozhi.start());
  const log = path.join(os.tmpdir(), `xt-long-calls-${process.pid}-${logs.length}.log`);
  logs.push(log);
  const harness = (ctx.harness = makeBridge({
    connection: patientConnection,
    ui: { language: options.language ?? 'en', theme: 'system', startHidden: false },
    endpoints: [{ id: 'e1', name: 'home', url: xiaozhi.url(), ...(options.patience ? { patience: options.patience } : {}) }],
    servers: options.servers ?? [
      { name: 'lc', transport: 'stdio', command: process.execPath, args: [LONG_CALL_SERVER], env: { LONG_CALL_LOG: log } },
    ],
  }));
  const tasks: BackgroundTask[] = [];
  harness.bridge.api.on('task', (task) => tasks.push(task));
  harness.bridge.start();
  await harness.bridge.whenServersSettled();
  const broker = new Esp32StandIn(await xiaozhi.connection(0), (options.patience ?? 30) * 1000);
  const names = await broker.open();
  return { xiaozhi, harness, broker, names, tasks, log };
}

const idIn = (text: string) => /\(task ([2-9][A-Z])\)|（任务 ([2-9][A-Z])）/.exec(text)?.slice(1).find(Boolean);
const logHas = (file: string, line: string) => fs.existsSync(file) && fs.readFileSync(file, 'utf8').includes(line);

describe('long calls', () => {
  it("answers a call past the caller's patience with a spoken text, finishes it in the background, and task_status gives its result, even on a new connection", async () => {
    const { xiaozhi, harness, broker, names, tasks } = await setup({ patience: PATIENCE_S });
    expect(names).toEqual(expect.arrayContaining(['slow_report', 'task_status', 'cancel_task']));

    const first = await broker.call('slow_report', { ms: 4000 });
    // Before: the stand-in gave up at 2 s and its model heard "工具调用请求超时".
    expect(first).not.toBe(GAVE_UP);
    expect(first).toMatch(/^Still working on slow report; ask me again in a moment \(task [2-9][A-Z]\)\.$/);
    const id = idIn(first)!;

    // Running: asked now, it says so.
    expect(await broker.call('task_status', { task: id })).toMatch(
      new RegExp(`^Task ${id} \\(slow report\\) is still running, \\d+ s so far`),
    );

    // The device reconnects (a new conversation): the call goes on regardless.
    xiaozhi.sessions[0]!.close();
    const again = new Esp32StandIn(await xiaozhi.connection(1), PATIENCE_S * 1000);
    await again.open();
    await waitFor(() => tasks.some((t) => t.id === id && t.state === 'done'), 15_000, 'the task to finish');

    expect(await again.call('task_status', { task: id.toLowerCase() })).toBe(
      `Task ${id} (slow report) is done: The report is ready: 4 sections.`,
    );
    expect(await again.call('task_status')).toBe(`Finished: ${id} slow report. Ask with the id for a result.`);
    // The window's list and the history have it too.
    const listed = (await harness.bridge.api.getTasks()).find((t) => t.id === id);
    expect(listed).toMatchObject({ tool: 'slow_report', caller: 'home', state: 'done', result: 'The report is ready: 4 sections.' });
    const record = (await harness.bridge.api.getHistory()).find((r) => r.tool === 'slow_report');
    expect(record).toMatchObject({ task: id, outcome: 'ok', result: 'The report is ready: 4 sections.' });
  });

  it('takes a patience changed in the window at the next call, without reconnecting', async () => {
    const { xiaozhi, harness, broker } = await setup();
    await harness.bridge.api.updateEndpoint({ id: 'e1', patience: PATIENCE_S });
    expect(await broker.call('slow_report', { ms: 4000 })).toMatch(/^Still working on slow report/);
    expect(xiaozhi.sessions).toHaveLength(1);
    expect(harness.store.load().endpoints[0]?.patience).toBe(PATIENCE_S);
    await harness.bridge.api.updateEndpoint({ id: 'e1', patience: null });
    expect(harness.store.load().endpoints[0]?.patience).toBeUndefined();
  });

  it('says it in Chinese when the window is in Chinese', async () => {
    const { broker } = await setup({ patience: PATIENCE_S, language: 'zh-CN' });
    const text = await broker.call('slow_report', { ms: 4000 });
    expect(text).toMatch(/^「slow report」还在处理中，请稍后再问我（任务 [2-9][A-Z]）。$/);
  });

  it('awaits a call that ends within the patience, as before, and shows its progress in the window while it runs', async () => {
    const { broker, tasks } = await setup();
    // The stand-in asks for no progress; the bridge asks the server all the same, for the window.
    expect(await broker.call('slow_report', { ms: 1200, steps: 4 })).toBe('The report is ready: 4 sections.');
    const progressed = tasks.filter((t) => t.tool === 'slow_report' && t.state === 'running' && t.progress);
    expect(progressed.length).toBeGreaterThan(0);
    expect(progressed[0]!.progress).toMatchObject({ total: 4, message: expect.stringMatching(/^section \d of 4$/) });
    expect(progressed[0]!.id).toBeUndefined();
    // Ended in time: it leaves the list (the history has it).
    expect(tasks.at(-1)).toMatchObject({ tool: 'slow_report', removed: true });
  });

  it('cancel_task stops a task still running, and the server is told', async () => {
    const { broker, log } = await setup({ patience: PATIENCE_S });
    const id = idIn(await broker.call('slow_report', { ms: 30_000, steps: 60 }))!;
    expect(await broker.call('cancel_task', { task: `task ${id}` })).toBe(`Task ${id} (slow report) is being cancelled.`);
    await waitFor(() => logHas(log, 'slow_report cancelled'), 15_000, 'the server to hear of the cancel');
    await waitFor(
      async () => (await broker.call('task_status', { task: id })) === `Task ${id} (slow report) was cancelled.`,
      10_000,
      'cancelled',
    );
    expect(await broker.call('cancel_task', { task: 'Z9' })).toBe(
      `There is no task Z9. Finished: ${id} slow report. Ask with the id for a result.`,
    );
  });

  it('calls a task-only tool as an MCP task (tools/call with task, tasks/get, tasks/result)', async () => {
    const { broker } = await setup();
    expect(await broker.call('research', { topic: 'tea', ms: 300 })).toBe('Research on tea: three sources agree.');
  });

  it('a task past the patience goes on in the background, its stages shown as progress, and cancel_task cancels it on the server', async () => {
    const { broker, tasks, log } = await setup({ patience: PATIENCE_S });
    const first = idIn(await broker.call('research', { topic: 'tea', ms: 3000 }))!;
    await waitFor(() => tasks.some((t) => t.id === first && t.state === 'done'), 15_000, 'the research to finish');
    expect(await broker.call('task_status', { task: first })).toBe(
      `Task ${first} (research) is done: Research on tea: three sources agree.`,
    );
    expect(tasks.some((t) => t.tool === 'research' && t.progress?.message === 'Reading…')).toBe(true);

    const second = idIn(await broker.call('research', { topic: 'coffee', ms: 30_000 }))!;
    expect(await broker.call('cancel_task', { task: second })).toBe(`Task ${second} (research) is being cancelled.`);
    await waitFor(() => tasks.some((t) => t.id === second && t.state === 'cancelled'), 15_000, 'the task to be cancelled');
    await waitFor(() => logHas(log, 'research cancelled'), 20_000, 'the server to stop the research');
  });

  it("server-everything's simulate-research-query (task required) answers its report", async () => {
    const { broker } = await setup({
      servers: [{ name: 'everything', transport: 'stdio', command: process.execPath, args: [EVERYTHING, 'stdio'] }],
    });
    // Before: "工具调用错误: …" every time (the call was refused: the tool requires task-based execution).
    const text = await broker.call('simulate-research-query', { topic: 'tea' });
    expect(text).toContain('# Research Report: tea');
  }, 30_000);
});
