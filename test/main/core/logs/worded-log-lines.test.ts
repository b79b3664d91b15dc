import { afterEach, describe, expect, it } from 'vitest';
import { logHint, logMessage } from '../../../../src/shared/problem-words';
import { translator } from '../../../../src/shared/i18n/translate';
import { fixtureServer, makeBridge, type Harness } from '../../../helpers/bridge-harness';
import { waitFor } from '../../../helpers/wait';

/** Issue 33: the app's own lines (start-up, the budget) were English in the Chinese window. */
let harness: Harness | undefined;
afterEach(async () => {
  await harness?.bridge.stop();
  harness = undefined;
});

describe("the app's own log lines in the window's language", () => {
  it('start-up and the budget warning are worded in Chinese, the log file keeps its English', async () => {
    harness = makeBridge({
      servers: [fixtureServer('fx', { FIXTURE_EXTRA_TOOLS: '30' })],
      endpoints: [{ id: 'e', name: 'home', url: 'ws://127.0.0.1:9/mcp', toolMode: 'all' }],
    });
    harness.bridge.start();
    await harness.bridge.whenServersSettled();
    const zh = translator('zh-CN');
    const entries = () => harness!.logBook.entries();
    await waitFor(() => entries().some((e) => e.message.includes('past the budget')), 5000, 'the budget warning');
    const starting = entries().find((e) => e.message.startsWith('starting:'));
    expect(starting?.message).toBe('starting: 1 server, 1 endpoint');
    expect(logMessage(zh, starting!)).toBe('正在启动：1 个服务，1 个接入点');
    const budget = entries().find((e) => e.message.includes('past the budget'));
    expect(logMessage(zh, budget!)).toBe('提供了 44 个工具，超出了小智可以稳定处理的范围（25 个工具或 8192 字节）。');
    expect(logHint(zh, budget!)).toBe('在“工具”页关掉一些工具，或把接入点的工具模式设为“自动”（工具放不下时小智会先搜索再调用）。');
  });
});
