// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it } from 'vitest';

import { ActivityPage } from '../../src/renderer/pages/activity-page';
import { CatalogueDialog } from '../../src/renderer/pages/catalogue-dialog';
import { EndpointsPage } from '../../src/renderer/pages/endpoints-page';
import { HistoryPage } from '../../src/renderer/pages/history-page';
import { LogsPage } from '../../src/renderer/pages/logs-page';
import { ServersPage } from '../../src/renderer/pages/servers-page';
import { ToolsPage } from '../../src/renderer/pages/tools-page';
import { fixtureServer, type Harness, makeBridge } from '../helpers/bridge-harness';
import { renderWithBridge } from '../helpers/render-app';

let harness: Harness | undefined;
afterEach(async () => {
  cleanup();
  await harness?.bridge.stop();
  harness = undefined;
});

/** The empty state on screen: its words beyond the title, and what it lets the user do there and then. */
async function emptyState(ui: ReactNode): Promise<{ hint: string; actions: HTMLElement[] }> {
  harness = makeBridge({}, undefined, { registryUrl: 'http://127.0.0.1:9/' });
  await renderWithBridge(harness, ui, 'zh-CN');
  const empty = await waitFor(() => {
    const found = document.querySelector('.empty');
    if (!found) throw new Error('no empty state yet');
    return found as HTMLElement;
  });
  const title = empty.querySelector('.empty-title')?.textContent ?? '';
  return {
    hint: (empty.textContent ?? '').replace(title, '').trim(),
    actions: [...empty.querySelectorAll<HTMLElement>('a[href], button')],
  };
}

describe('each empty state says what to do and offers the way to it (zh-CN)', () => {
  it.each([
    ['endpoints', <EndpointsPage key="e" />],
    ['servers', <ServersPage key="s" />],
    ['tools', <ToolsPage key="t" />],
    ['activity', <ActivityPage key="a" />],
    ['history', <HistoryPage key="h" />],
    ['logs', <LogsPage key="l" />],
  ])('%s', async (_page, ui) => {
    const { hint, actions } = await emptyState(ui);
    expect(hint).toMatch(/[\u4e00-\u9fff]/);
    expect(actions.length).toBeGreaterThan(0);
  });

  it('endpoints: the button takes the user to the address field of the form below', async () => {
    const { actions } = await emptyState(<EndpointsPage />);
    fireEvent.click(actions[0] as HTMLElement);
    expect(document.activeElement).toBe(screen.getByLabelText('接入点地址'));
  });

  it('a search or filter that hides everything offers to clear it (tools, logs)', async () => {
    harness = makeBridge({ servers: [fixtureServer('fx')] });
    harness.bridge.start();
    await harness.bridge.whenServersSettled();
    await renderWithBridge(
      harness,
      <>
        <ToolsPage />
        <LogsPage />
      </>,
      'zh-CN',
    );
    await screen.findByText('echo');
    fireEvent.change(screen.getByPlaceholderText('搜索工具'), { target: { value: 'zzqqxx' } });
    fireEvent.change(screen.getByRole('searchbox', { name: '筛选文字' }), { target: { value: 'zzqqxx' } });
    const buttons = await screen.findAllByRole('button', { name: '清除筛选' });
    expect(buttons).toHaveLength(2);
    for (const button of buttons) fireEvent.click(button);
    expect(await screen.findByText('echo')).toBeTruthy();
    expect(document.querySelector('.empty')).toBeNull();
  });

  it('the catalogue with nothing matching offers to add a server by hand', async () => {
    harness = makeBridge({}, undefined, { registryUrl: 'http://127.0.0.1:9/' });
    let custom = 0;
    await renderWithBridge(
      harness,
      <CatalogueDialog onClose={() => undefined} onPick={() => undefined} onCustom={() => custom++} />,
      'zh-CN',
    );
    fireEvent.change(await screen.findByRole('searchbox'), { target: { value: 'zzqqxx' } });
    const empty = await waitFor(() => document.querySelector('.empty') as HTMLElement);
    expect(empty.textContent).toContain('目录里没有？');
    fireEvent.click(empty.querySelector('button') as HTMLElement);
    expect(custom).toBe(1);
  });
});
