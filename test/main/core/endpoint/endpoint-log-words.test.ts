import { afterEach, describe, expect, it } from 'vitest';

import { translator } from '../../../../src/shared/i18n/translate';
import { logHint, logMessage } from '../../../../src/shared/problem-words';
import { fixtureServer, type Harness, makeBridge, tearDown, testConnection } from '../../../helpers/bridge-harness';
import { FakeXiaozhi } from '../../../helpers/fake-xiaozhi';
import { scaled } from '../../../helpers/time-scale';
import { waitFor } from '../../../helpers/wait';

let harness: Harness | undefined;
let xiaozhi: FakeXiaozhi | undefined;
afterEach(async () => {
  await tearDown(harness);
  harness = undefined;
  await xiaozhi?.close();
  xiaozhi = undefined;
});

/**
 * What a headless user reads in the log about an endpoint is in their language: a new user with a
 * Chinese system met the over-budget warning (the one line telling them xiaozhi may fail the list)
 * in English among Chinese lines.
 */
describe('endpoint log lines in the reader’s language', () => {
  it('the over-budget warning carries its code and reads in Chinese, with what to do', async () => {
    xiaozhi = await FakeXiaozhi.start();
    harness = makeBridge({
      servers: [fixtureServer('fx')],
      endpoints: [{ id: 'e', name: '家里', url: xiaozhi.url() }],
      limits: { budgetTools: 1 },
      connection: testConnection,
    });
    harness.bridge.start();
    await harness.bridge.whenServersSettled();
    const over = () => harness!.logBook.entries().find((e) => e.message.includes('past the budget'));
    await waitFor(() => over() !== undefined, scaled(10_000), 'the over-budget warning');
    const entry = over()!;
    expect(entry.problem?.code).toBe('endpoint.overBudget');
    const zh = translator('zh-CN');
    expect(logMessage(zh, entry)).toMatch(/^提供了 \d+ 个工具，超出了小智可以稳定处理的范围（1 个工具或 8192 字节）。$/);
    expect(logHint(zh, entry)).toContain('“自动”');
  });

  it('a device session starting is not the app speaking in English at every session: its line is for debugging', async () => {
    xiaozhi = await FakeXiaozhi.start();
    harness = makeBridge({
      servers: [fixtureServer('fx')],
      endpoints: [{ id: 'e', name: '家里', url: xiaozhi.url() }],
      connection: testConnection,
    });
    harness.bridge.start();
    await waitFor(() => xiaozhi!.sessions.length > 0, scaled(10_000), 'the session');
    await xiaozhi.sessions[0]!.initialize();
    const started = () => harness!.logBook.entries().find((e) => e.message.startsWith('session initialised by'));
    await waitFor(() => started() !== undefined, scaled(10_000), 'the session line');
    expect(started()!.level).toBe('debug');
  });
});
