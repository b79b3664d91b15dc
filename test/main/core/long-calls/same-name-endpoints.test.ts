import path from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { makeBridge, patientConnection, withEndpointTeardown } from '../../../helpers/bridge-harness';
import { Esp32StandIn } from '../../../helpers/esp32-stand-in';
import { FakeXiaozhi } from '../../../helpers/fake-xiaozhi';

// Before: tasks are kept per caller, and an endpoint's caller is its name, which the settings do
// not require to be unique. Two endpoints both named "xiaozhi" (two devices, two accounts) see and
// cancel each other's tasks, though "each endpoint sees only the tasks it started".

const LONG_CALL_SERVER = path.resolve(__dirname, '../../../fixtures/long-call-server.mjs');
const ctx = withEndpointTeardown(afterEach);
const idIn = (text: string) => /\(task ([2-9][A-Z])\)/.exec(text)?.[1] as string;

describe('two endpoints with the same name', () => {
  it("do not see each other's tasks", async () => {
    ctx.xiaozhi = await FakeXiaozhi.start();
    ctx.harness = makeBridge({
      connection: patientConnection,
      endpoints: [
        { id: 'a', name: 'xiaozhi', url: ctx.xiaozhi.url('token-of-a-0123456789'), patience: 2 },
        { id: 'b', name: 'xiaozhi', url: ctx.xiaozhi.url('token-of-b-0123456789'), patience: 2 },
      ],
      servers: [{ name: 'lc', transport: 'stdio', command: process.execPath, args: [LONG_CALL_SERVER] }],
    });
    ctx.harness.bridge.start();
    await ctx.harness.bridge.whenServersSettled();
    const one = new Esp32StandIn(await ctx.xiaozhi.connection(0), 2000);
    const other = new Esp32StandIn(await ctx.xiaozhi.connection(1), 2000);
    await one.open();
    await other.open();
    const id = idIn(await one.call('slow_report', { ms: 4000 }));
    expect(id).toBeDefined();
    expect(await other.call('task_status', { task: id })).toMatch(/^There is no task/);
    expect(await other.call('cancel_task', { task: id })).toMatch(/^There is no task/);
    expect(await one.call('task_status', { task: id })).toContain(id);
  }, 60_000);
});
