import path from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { makeBridge, patientConnection, withEndpointTeardown } from '../../../helpers/bridge-harness';
import { Esp32StandIn } from '../../../helpers/esp32-stand-in';
import { FakeXiaozhi } from '../../../helpers/fake-xiaozhi';

// A long call made through router mode's call_tool was announced as 「call tool」: the user could not
// tell which tool was still working, nor ask for it by name.

const LONG_CALL_SERVER = path.resolve(__dirname, '../../../fixtures/long-call-server.mjs');
const ctx = withEndpointTeardown(afterEach);

describe('a long call made through call_tool', () => {
  it('goes on as a task named after the tool it routed to', async () => {
    ctx.xiaozhi = await FakeXiaozhi.start();
    ctx.harness = makeBridge({
      ui: { language: 'zh-CN', theme: 'system', startHidden: false },
      connection: patientConnection,
      endpoints: [{ id: 'a', name: 'xiaozhi', url: ctx.xiaozhi.url('token-of-a-0123456789'), patience: 2, toolMode: 'router' }],
      servers: [{ name: 'lc', transport: 'stdio', command: process.execPath, args: [LONG_CALL_SERVER] }],
    });
    ctx.harness.bridge.start();
    await ctx.harness.bridge.whenServersSettled();
    const esp = new Esp32StandIn(await ctx.xiaozhi.connection(0), 2000);
    await esp.open();
    const answer = await esp.call('call_tool', { name: 'slow_report', arguments: { ms: 4000 } });
    expect(answer).toMatch(/^「slow report」还在处理中，请稍后再问我（任务 [2-9][A-Z]）。$/);
    const id = /（任务 ([2-9][A-Z])）/.exec(answer)?.[1] as string;
    expect(await esp.call('task_status', { task: id })).toMatch(/^任务 [2-9][A-Z]（slow report）/);
    expect((await ctx.harness.bridge.api.getTasks()).map((t) => t.tool)).toEqual(['slow_report']);
  }, 60_000);
});
