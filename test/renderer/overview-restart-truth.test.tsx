// @vitest-environment jsdom
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';

import { HistoryPage } from '../../src/renderer/pages/history-page';
import { OverviewPage } from '../../src/renderer/pages/overview-page';
import { fixtureServer, makeBridge, withEndpointTeardown } from '../helpers/bridge-harness';
import { FakeXiaozhi } from '../helpers/fake-xiaozhi';
import { renderWithBridge } from '../helpers/render-app';
import { scaled } from '../helpers/time-scale';
import { waitFor } from '../helpers/wait';

const ctx = withEndpointTeardown(afterEach);
const dirs: string[] = [];
afterEach(() => {
  cleanup();
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/**
 * The app restarted after xiaozhi used its tools: this run has no call yet and xiaozhi has not read
 * the tools again (it reads them when a conversation starts). Both are normal.
 */
async function restartedAfterCalls() {
  const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'xt-restart-'));
  dirs.push(stateDir);
  const xiaozhi = (ctx.xiaozhi = await FakeXiaozhi.start());
  const settings = { servers: [fixtureServer('fx')], endpoints: [{ id: 'e', name: 'home', url: xiaozhi.url() }] };
  const first = makeBridge(settings, undefined, { stateDir });
  first.bridge.start();
  await first.bridge.whenServersSettled();
  const session = await xiaozhi.connection(0);
  await session.initialize();
  await session.listAllTools();
  for (const [i, text] of ['a', 'b'].entries()) await session.request(10 + i, 'tools/call', { name: 'echo', arguments: { text } });
  await first.bridge.stop();

  const harness = (ctx.harness = makeBridge(settings, undefined, { stateDir }));
  harness.bridge.start();
  await harness.bridge.whenServersSettled();
  const again = await xiaozhi.connection(1);
  await again.initialize();
  await waitFor(async () => (await harness.bridge.api.getState()).endpoints[0]?.state === 'connected', 10_000, 'connected again');
  return harness;
}

describe('the overview after a restart', () => {
  it('lists the calls it counts, and says calmly that xiaozhi reads the tools at its next conversation', async () => {
    const harness = await restartedAfterCalls();
    await renderWithBridge(harness, <OverviewPage go={() => undefined} />, 'zh-CN');
    await waitFor(
      () => document.querySelector('.stat:last-child .stat-figure')?.textContent?.replace(/\s+/g, ' ').trim() === '24 小时内调用 2 次',
      5000,
      'the count of the last 24 hours',
    );
    // Before: "24 小时内调用 2 次" beside "最近调用：还没有调用。" (this run's history only).
    expect(screen.queryByText('还没有调用。试着让小智使用你的工具吧。')).toBeNull();
    const rows = [...document.querySelectorAll('section.recent-calls tbody tr')];
    expect(rows).toHaveLength(2);
    expect(rows[0]?.textContent).toContain('echo');
    expect(rows[0]?.textContent).toContain('home');
    // Before: an amber "小智已连接，但还没有读取工具", and the setup checklist again, as if something were wrong.
    const headline = await screen.findByText('小智已连接 · 会在下次对话开始时读取工具');
    expect(headline.className).not.toContain('tone-text-warn');
    expect(screen.queryByText('让小智用上你的工具')).toBeNull();
  });

  it('says the same in English', async () => {
    const harness = await restartedAfterCalls();
    await renderWithBridge(harness, <OverviewPage go={() => undefined} />, 'en');
    const headline = await screen.findByText('Xiaozhi is connected · it reads the tools when the next conversation starts');
    expect(headline.className).not.toContain('tone-text-warn');
    await waitFor(() => document.querySelectorAll('section.recent-calls tbody tr').length === 2, 5000, 'two earlier calls listed');
  });

  it('History lists the earlier calls of the last day as 最近调用 does, marked as earlier (not "no calls yet")', async () => {
    const harness = await restartedAfterCalls();
    await renderWithBridge(harness, <HistoryPage />, 'zh-CN');
    expect(await screen.findByText('更早的调用（只记下了结果，没有参数和返回内容）')).toBeTruthy();
    expect(document.querySelectorAll('table.history tbody tr')).toHaveLength(3);
    expect(screen.queryByText('还没有调用。')).toBeNull();
    expect(screen.queryByText('应用这次启动后还没有调用。')).toBeNull();
  });
});

/** Issue 33: with this run's calls listed, nothing pointed to the earlier ones, and 全部调用 opened this run's only. */
describe('the way to the calls before this run, once this run has calls too', () => {
  async function withCallThisRun() {
    const harness = await restartedAfterCalls();
    await harness.bridge.api.callTool({ name: 'echo', arguments: { text: 'c' } });
    return harness;
  }

  it("History lists this run's call, then the earlier ones of the last day under their own line", async () => {
    const harness = await withCallThisRun();
    await renderWithBridge(harness, <HistoryPage />, 'zh-CN');
    const line = await screen.findByText('更早的调用（只记下了结果，没有参数和返回内容）', {}, { timeout: scaled(5000) });
    const rows = [...document.querySelectorAll('table.history tbody tr')];
    expect(rows).toHaveLength(4);
    expect(rows.indexOf(line.closest('tr') as HTMLTableRowElement)).toBe(1);
  });

  it('each link, on the overview and on History, names the page it opens, with one label per page', async () => {
    const harness = await withCallThisRun();
    await renderWithBridge(harness, <OverviewPage go={() => undefined} />, 'zh-CN');
    // Before: 全部调用, then 本次启动后的调用 · 更早的调用 here and 查看活动 on History: three names, none the page's.
    const toActivity = await screen.findByRole('link', { name: '查看“活动”页' }, { timeout: scaled(5000) });
    expect(toActivity.getAttribute('href')).toBe('#/activity');
    expect(screen.getByRole('link', { name: '查看调用记录' }).getAttribute('href')).toBe('#/history');
    cleanup();
    await renderWithBridge(harness, <HistoryPage />, 'zh-CN');
    // The earlier calls of the last day are listed on History itself: no way elsewhere is needed for them.
    await screen.findByText('更早的调用（只记下了结果，没有参数和返回内容）', {}, { timeout: scaled(5000) });
    expect(screen.queryByRole('link', { name: '查看“活动”页' })).toBeNull();
  });
});
