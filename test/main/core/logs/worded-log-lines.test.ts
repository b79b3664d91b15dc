import http from 'node:http';

import { afterEach, describe, expect, it } from 'vitest';

import { translator } from '../../../../src/shared/i18n/translate';
import { logHint, logMessage } from '../../../../src/shared/problem-words';
import { userToolCount } from '../../../../src/shared/status-summary';
import { fixtureServer, type Harness, makeBridge } from '../../../helpers/bridge-harness';
import { FakeXiaozhi } from '../../../helpers/fake-xiaozhi';
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

  it("the connection test's line: short, in the window's language, with the problem worded plainly", async () => {
    const xiaozhi = await FakeXiaozhi.start();
    const refusing = http.createServer((_req, res) => res.writeHead(401, 'Unauthorized').end());
    await new Promise<void>((resolve) => refusing.listen(0, '127.0.0.1', () => resolve()));
    try {
      harness = makeBridge({ servers: [fixtureServer('fx')] });
      harness.bridge.start();
      await harness.bridge.whenServersSettled();
      const zh = translator('zh-CN');
      const en = translator('en');
      const testLines = () => harness!.logBook.entries().filter((e) => e.message.startsWith('connection test:'));
      const testing = harness.bridge.api.testEndpoint({ url: xiaozhi.url() });
      const session = await xiaozhi.connection(0);
      await session.initialize();
      await session.listAllTools();
      await testing;
      // The person's tools, as every page counts them: the app's own are not said.
      const mine = userToolCount(harness.bridge.state());
      expect(mine).toBeGreaterThan(0);
      const listed = testLines()[0]!;
      expect(logMessage(zh, listed)).toMatch(new RegExp(`^连接测试：正常，小智读到了你的 ${mine} 个工具（用时 [\\d.]+ 秒）。$`));
      expect(logMessage(en, listed)).toMatch(new RegExp(`^Connection test: working, xiaozhi read your ${mine} tools \\([\\d.]+ s\\)\\.$`));

      await harness.bridge.api.testEndpoint({ url: `ws://127.0.0.1:${(refusing.address() as { port: number }).port}/mcp/?token=x` });
      expect(logMessage(zh, testLines()[1]!)).toMatch(/^连接测试：连上了，但令牌没有被接受（用时 [\d.]+ 秒）。.*401/);

      const gone = await FakeXiaozhi.start();
      const url = gone.url();
      await gone.close();
      await harness.bridge.api.testEndpoint({ url });
      expect(logMessage(zh, testLines()[2]!)).toMatch(/^连接测试：连不上（用时 [\d.]+ 秒）。127\.0\.0\.1:\d+ 拒绝了连接。$/);
      for (const line of testLines()) expect(logMessage(zh, line)).not.toMatch(/[a-z]{4,} [a-z]{3,}/);
    } finally {
      refusing.close();
      await xiaozhi.close();
    }
  });

  it("the import's line says what was added, replaced and skipped in the window's language", async () => {
    harness = makeBridge({ servers: [fixtureServer('fx')] });
    const text = JSON.stringify({
      mcpServers: { fx: { command: 'node', args: ['other.js'] }, notes: { command: 'node', args: ['notes.js'] } },
    });
    const preview = await harness.bridge.api.previewImport({ source: 'claude_desktop_config.json', text });
    const result = await harness.bridge.api.applyImport({ id: preview.id, servers: { fx: { action: 'skip' } } });
    expect(result).toMatchObject({ addedServers: ['notes'], skippedNames: ['fx'] });
    const line = harness.logBook.entries().find((e) => e.message.startsWith('imported:'))!;
    expect(logMessage(translator('zh-CN'), line)).toBe('已导入：新增 1 个服务，替换 0 个，新增 0 个接入点，跳过 1 个');
    expect(logMessage(translator('en'), line)).toBe('Imported: 1 server added, 0 replaced, 0 endpoints added, 1 skipped');
  });

  it('the line said when the app makes a confirmation PIN is worded in Chinese (it was English in the Chinese window)', async () => {
    harness = makeBridge({ servers: [fixtureServer('fx')] });
    await harness.bridge.api.revealConfirmationPin();
    const line = harness.logBook.entries().find((e) => e.message.startsWith('"ask first" now needs'))!;
    expect(logMessage(translator('zh-CN'), line)).toBe(
      '“先问我”现在要你用语音说出确认口令（或在窗口中点“允许”），小智不会再拿到能自己确认的代码。已为你生成一个口令：在“设置”中可以查看或修改。',
    );
    expect(logMessage(translator('en'), line)).toMatch(/^"Ask first" now needs you to say your confirmation PIN by voice/);
  });
});
