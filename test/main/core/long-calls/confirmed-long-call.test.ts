import path from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { makeBridge, patientConnection, withEndpointTeardown } from '../../../helpers/bridge-harness';
import { Esp32StandIn } from '../../../helpers/esp32-stand-in';
import { FakeXiaozhi } from '../../../helpers/fake-xiaozhi';

// Before: a long call confirmed by voice went on as a task named "confirm action", so the user
// could not tell which action ran ("Still working on confirm action…", task_status "9N confirm action").

const LONG_CALL_SERVER = path.resolve(__dirname, '../../../fixtures/long-call-server.mjs');
const ctx = withEndpointTeardown(afterEach);

describe('a long call confirmed by voice', () => {
  it('goes on as a task named after the held tool', async () => {
    ctx.xiaozhi = await FakeXiaozhi.start();
    ctx.harness = makeBridge({
      connection: patientConnection,
      endpoints: [{ id: 'a', name: 'xiaozhi', url: ctx.xiaozhi.url('token-of-a-0123456789'), patience: 2 }],
      servers: [
        {
          name: 'lc',
          transport: 'stdio',
          command: process.execPath,
          args: [LONG_CALL_SERVER],
          toolPolicies: { slow_report: 'ask' },
        },
      ],
    });
    ctx.harness.bridge.start();
    await ctx.harness.bridge.whenServersSettled();
    const esp = new Esp32StandIn(await ctx.xiaozhi.connection(0), 2000);
    await esp.open();
    expect(await esp.call('slow_report', { ms: 4000 })).toMatch(/confirmation PIN/);
    const { pin } = await ctx.harness.bridge.api.revealConfirmationPin();
    const answer = await esp.call('confirm_action', { pin });
    expect(answer).toMatch(/^Still working on slow report; .*\(task ([2-9][A-Z])\)/);
    const id = /\(task ([2-9][A-Z])\)/.exec(answer)?.[1] as string;
    expect(await esp.call('task_status', { task: id })).toContain('slow report');
    expect(await esp.call('task_status', { task: id })).not.toContain('confirm action');
  }, 60_000);
});
