// @vitest-environment jsdom
import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';

import { HistoryPage } from '../../src/renderer/pages/history-page';
import { ToolsPage } from '../../src/renderer/pages/tools-page';
import { fixtureServer, type Harness, makeBridge } from '../helpers/bridge-harness';
import { renderWithBridge } from '../helpers/render-app';

let harness: Harness | undefined;
afterEach(async () => {
  cleanup();
  await harness?.bridge.stop();
  harness = undefined;
});

// A walkthrough met the catalogue's Chinese title on the cards and the English ids everywhere else
// ("howtocook", "memory" as tool group headings, "来自 memory" in History, "点开看怎么处理：filesystem").
describe('a server added from the catalogue is called by its title where a person reads its name', () => {
  it('on the tools page (its group, the servers not running) and in History (来自 …)', async () => {
    const stopped = {
      name: 'files',
      transport: 'stdio' as const,
      command: process.execPath,
      args: ['-e', 'process.exit(2)'],
      catalogue: 'filesystem',
    };
    harness = makeBridge(
      { servers: [fixtureServer('memory', {}, { catalogue: 'memory' }), stopped] },
      { restartBaseMs: 20, restartMaxMs: 20, maxCrashes: 1, crashWindowMs: 60_000, startTimeoutMs: 10_000, stopGraceMs: 500 },
    );
    harness.bridge.start();
    await harness.bridge.whenServersSettled();
    await harness.bridge.toolHub.forSet(undefined).call('echo', { text: 'hi' }, { caller: 'xiaozhi' });
    await renderWithBridge(harness, <ToolsPage />, 'zh-CN');
    expect(await screen.findByRole('heading', { name: '记忆（知识图谱）' })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'memory' })).toBeNull();
    const notice = (await screen.findByText(/这些服务没有运行/)).closest('.notice') as HTMLElement;
    expect(within(notice).getByRole('link', { name: '本机文件' }).getAttribute('href')).toBe('#/servers?server=files');
    cleanup();
    await renderWithBridge(harness, <HistoryPage />, 'zh-CN');
    expect(await screen.findByText(/来自 记忆（知识图谱）/)).toBeTruthy();
  });
});
