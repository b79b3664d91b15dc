// @vitest-environment jsdom
import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';

import { OverviewPage } from '../../src/renderer/pages/overview-page';
import { bigBridge } from '../helpers/big-bridge';
import { fastSupervision, fixtureServer, makeBridge, patientConnection, withEndpointTeardown } from '../helpers/bridge-harness';
import { FakeXiaozhi } from '../helpers/fake-xiaozhi';
import { renderWithBridge } from '../helpers/render-app';
import { scaled } from '../helpers/time-scale';
import { waitFor } from '../helpers/wait';

const ctx = withEndpointTeardown(afterEach);

/** The whole phrase of the overview's figure that starts with `start` (its number is set apart in a span). */
function statText(start: string): string | undefined {
  const figures = [...document.querySelectorAll('.stat-figure')].map((f) => f.textContent ?? '');
  return figures.find((text) => text.startsWith(start));
}
afterEach(cleanup);

describe('the overview says each thing once, and does not contradict itself', () => {
  it('with no server, does not count the app’s own tools as tools provided', async () => {
    const xiaozhi = (ctx.xiaozhi = await FakeXiaozhi.start());
    // As a user does it: the endpoint added in the window to a bridge with nothing configured.
    const harness = (ctx.harness = makeBridge({ servers: [], connection: patientConnection }));
    harness.bridge.start();
    await renderWithBridge(harness, <OverviewPage go={() => undefined} />, 'zh-CN');
    await harness.bridge.api.addEndpoint({ name: '家里', url: xiaozhi.url() });
    const session = await xiaozhi.connection(0);
    await session.initialize();
    await waitFor(async () => (await session.listAllTools()).tools.length > 0, 10_000, 'the bridge’s own tools');
    await screen.findByText('小智已连接 · 还没有服务为它提供工具', undefined, { timeout: scaled(10_000) });
    // Before: "小智直接看到全部 2 个工具" and "已提供 2 个工具" beside "还没有服务…小智才有工具可用".
    expect(screen.queryByText(/直接看到全部/)).toBeNull();
    expect(statText('已提供')).toBe('已提供 0 个工具');
  });

  it('says xiaozhi searches first beside the count it read, not in the endpoint’s card', async () => {
    const { xiaozhi, ...harness } = await bigBridge(ctx);
    await renderWithBridge(harness, <OverviewPage go={() => undefined} />, 'zh-CN');
    const session = await xiaozhi.connection(0);
    await session.initialize();
    await session.listAllTools();
    // In search mode xiaozhi reads a few search tools, not the 71: the headline says what it can use (before: "已读取 5 个工具"
    // beside "已提供 71 个工具").
    const headline = await screen.findByText('小智已连接 · 能用 71 个工具', undefined, { timeout: scaled(10_000) });
    const banner = headline.closest('section') as HTMLElement;
    expect(within(banner).getByText('工具较多，小智会先搜索再调用。')).toBeTruthy();
    expect(screen.getAllByText('工具较多，小智会先搜索再调用。')).toHaveLength(1);
    // The tools provided are the servers' 71, not the app's own two with them.
    expect(statText('已提供')).toBe('已提供 71 个工具');
    // Its 详情 says what xiaozhi gets in search mode, not the whole list's size and pages (walkthrough 4: "共 11.6 KB，分 2 页"
    // though xiaozhi got 5 tools); the size stays in the tooltip.
    const details = document.querySelector('.stat details') as HTMLElement;
    const line = () => details.querySelector('[title]');
    await waitFor(
      () => line()?.textContent?.startsWith('小智收到') === true,
      10_000,
      () => `the search-mode line: ${details.textContent}`,
    );
    const said = line();
    expect(said?.textContent).toMatch(/^小智收到 \d+ 个辅助工具（搜索、确认等），用来找你的 71 个工具$/);
    expect(details.textContent).not.toMatch(/页/);
    expect(said?.getAttribute('title')).toMatch(/页/);
  });

  for (const [language, headline, stopped] of [
    ['zh-CN', '小智已连接，但有 1 个服务失败：其中的工具现在用不了', '失败，点开看怎么处理：'],
    ['en', 'Xiaozhi is connected, but 1 server failed: its tools cannot be used now', 'Failed, open it to see what to do: '],
  ] as const) {
    it(`is not green beside a failed server: it says one needs the user (${language})`, async () => {
      const xiaozhi = (ctx.xiaozhi = await FakeXiaozhi.start());
      const harness = (ctx.harness = makeBridge(
        {
          endpoints: [{ id: 'e', name: 'home', url: xiaozhi.url() }],
          servers: [fixtureServer('memory'), { ...fixtureServer('time'), args: ['-e', 'process.exit(3)'] }],
          connection: patientConnection,
        },
        fastSupervision,
      ));
      harness.bridge.start();
      const session = await xiaozhi.connection(0);
      await session.initialize();
      await session.listAllTools();
      await waitFor(
        async () => (await harness.bridge.api.getState()).servers.find((s) => s.name === 'time')?.state === 'failed',
        20_000,
        'time to fail',
      );
      await renderWithBridge(harness, <OverviewPage go={() => undefined} />, language);
      // Before: a green "小智已连接 · 已读取 N 个工具", and only a small red "失败：time" under it.
      const line = await screen.findByText(headline, undefined, { timeout: scaled(10_000) });
      const banner = line.closest('section') as HTMLElement;
      expect(banner.className).toContain('tone-warn');
      expect(within(banner).getByRole('link', { name: 'time' }).parentElement!.textContent).toBe(` · ${stopped}time`);
    });
  }

  it('counts the tools xiaozhi read as "tools provided" does: without the app’s own (a walkthrough saw 已读取 17 beside 已提供 14)', async () => {
    const xiaozhi = (ctx.xiaozhi = await FakeXiaozhi.start());
    const harness = (ctx.harness = makeBridge(
      { endpoints: [{ id: 'e', name: 'home', url: xiaozhi.url() }], servers: [fixtureServer('memory')], connection: patientConnection },
      fastSupervision,
    ));
    harness.bridge.start();
    await harness.bridge.whenServersSettled();
    const session = await xiaozhi.connection(0);
    await session.initialize();
    const { tools } = await session.listAllTools();
    const own = harness.bridge.state().catalog.appTools ?? 0;
    expect(own).toBeGreaterThan(0);
    await renderWithBridge(harness, <OverviewPage go={() => undefined} />, 'zh-CN');
    await screen.findByText(`小智已连接 · 已读取 ${tools.length - own} 个工具`, undefined, { timeout: scaled(10_000) });
    expect(statText('已提供')).toBe(`已提供 ${tools.length - own} 个工具`);
  });
});
