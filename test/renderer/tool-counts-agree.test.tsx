// @vitest-environment jsdom
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';

import { OverviewPage } from '../../src/renderer/pages/overview-page';
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
});
