// @vitest-environment jsdom
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';

import { EndpointsPage } from '../../src/renderer/pages/endpoints-page';
import { OverviewPage } from '../../src/renderer/pages/overview-page';
import { ToolSetsPage } from '../../src/renderer/pages/tool-sets-page';
import { ToolsPage } from '../../src/renderer/pages/tools-page';
import { fixtureServer, startServingHome, withEndpointTeardown } from '../helpers/bridge-harness';
import { renderWithBridge } from '../helpers/render-app';
import { waitFor } from '../helpers/wait';

const ctx = withEndpointTeardown(afterEach);
afterEach(cleanup);

const figure = (start: string) =>
  [...document.querySelectorAll('.stat-figure')]
    .map((f) => f.textContent?.replace(/\s+/g, ' ').trim() ?? '')
    .find((f) => f.startsWith(start));

describe('one count of tools a person can follow', () => {
  it('the tools page counts the tools the overview says are provided, the app’s own named apart', async () => {
    const harness = await startServingHome(ctx, { servers: [fixtureServer('fx')] });
    await harness.bridge.whenServersSettled();
    const state = await harness.bridge.api.getState();
    const own = state.catalog.appTools ?? 0;
    expect(own).toBeGreaterThan(0);
    const provided = state.catalog.toolCount - own;
    await renderWithBridge(harness, <OverviewPage go={() => undefined} />, 'zh-CN');
    await waitFor(
      () => figure('已提供') === `已提供 ${provided} 个工具`,
      5000,
      () => `the overview's figure: ${figure('已提供')}`,
    );
    cleanup();
    await renderWithBridge(harness, <ToolsPage />, 'zh-CN');
    const summary = document.querySelector('.tools-summary')?.textContent ?? '';
    // Before: "正在提供 N 个工具中的 N 个" with the app's own in N, beside the overview's smaller "已提供".
    expect(summary).toContain(`正在提供 ${provided} 个工具中的 ${provided} 个。`);
    expect(summary).toContain(`另有 ${own} 个小智托盘自带的工具`);
    expect(screen.queryByText(new RegExp(`正在提供 ${state.catalog.toolCount} 个`))).toBeNull();
  });

  // Issue 33 (t-names8): the Endpoints page said 全部 2 个工具 with no server (the app's own), and in search mode
  // "5 个工具" beside the overview's 23; the tool sets page "26 个工具 · 11.6 KB".
  it('with no server, the endpoint does not count the app’s own tools as the person’s', async () => {
    const harness = await startServingHome(ctx, { servers: [] });
    await harness.bridge.whenServersSettled();
    await renderWithBridge(harness, <EndpointsPage />, 'zh-CN');
    await waitFor(
      () => document.querySelector('.serving') !== null,
      5000,
      () => 'no serving sentence',
    );
    const text = document.querySelector('.serving')?.textContent ?? '';
    expect(text).toContain('还没有你的工具');
    expect(text).not.toMatch(/[1-9]\d* 个工具/);
  });

  it('in search mode, the endpoint counts the person’s tools as the overview does, and names the few it gets as helpers', async () => {
    const harness = await startServingHome(ctx, { servers: [fixtureServer('fx')] });
    await harness.bridge.whenServersSettled();
    await harness.bridge.api.setEndpointTools({ id: 'e', toolMode: 'router' });
    const state = await harness.bridge.api.getState();
    const provided = state.catalog.toolCount - (state.catalog.appTools ?? 0);
    const served = state.endpoints[0]?.served;
    expect(served?.mode).toBe('router');
    await renderWithBridge(harness, <EndpointsPage />, 'zh-CN');
    await waitFor(
      () => document.querySelector('.served-count') !== null,
      5000,
      () => 'no count',
    );
    expect(document.querySelector('.served-count')?.textContent).toBe(
      `小智收到 ${served?.toolCount} 个辅助工具（搜索、确认等），用来找你的 ${provided} 个工具`,
    );
  });

  it('the tool sets page counts the person’s tools, its size only in the tooltip', async () => {
    const harness = await startServingHome(ctx, { servers: [fixtureServer('fx')] });
    await harness.bridge.whenServersSettled();
    const state = await harness.bridge.api.getState();
    const provided = state.catalog.toolCount - (state.catalog.appTools ?? 0);
    await renderWithBridge(harness, <ToolSetsPage />, 'zh-CN');
    await waitFor(
      () => /个工具/.test(document.querySelector('.toolset-meta')?.textContent ?? ''),
      5000,
      () => 'no count',
    );
    const meta = document.querySelector('.toolset-meta');
    expect(meta?.textContent).toBe(`${provided} 个工具`);
    expect(meta?.getAttribute('title')).toMatch(/KB|B/);
  });
});
