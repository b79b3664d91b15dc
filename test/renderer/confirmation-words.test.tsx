// @vitest-environment jsdom
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';

import { PendingConfirmations } from '../../src/renderer/components/pending-confirmations';
import { HistoryPage } from '../../src/renderer/pages/history-page';
import { withEndpointTeardown } from '../helpers/bridge-harness';
import { holdDeleteFile } from '../helpers/held-call';
import { renderWithBridge } from '../helpers/render-app';

const ctx = withEndpointTeardown(afterEach);

describe('a call waiting for the person’s OK, in their words (issue 33)', () => {
  it('leads with what it wants to do, lists its arguments readably, and History’s row says the same after Allow', async () => {
    const harness = await holdDeleteFile(ctx, { path: '/home/me/购物清单.txt' });
    const { container } = await renderWithBridge(harness, <PendingConfirmations />, 'zh-CN');

    const panel = await waitFor(() => {
      const found = container.querySelector('.pending-confirmations');
      expect(found).not.toBeNull();
      return found as HTMLElement;
    });
    // What it wants to do, as the voice says it, first; the tool's exact name after, in small text (its English
    // title, the server's own words, only under the details: t-names9).
    await waitFor(() => expect(panel.querySelector('strong')?.textContent).toBe('“删除文件”'));
    expect(panel.textContent).toContain('delete_file');
    // The arguments as "field: value", the string without quotes; the JSON folded under 详细信息.
    const list = panel.querySelector('.argument-list dl') as HTMLElement;
    expect(list.querySelector('dt')?.textContent).toBe('路径 path');
    expect(list.querySelector('dd')?.textContent).toBe('/home/me/购物清单.txt');
    const details = panel.querySelector('.argument-list details') as HTMLDetailsElement;
    expect(details.open).toBe(false);
    expect(details.querySelector('summary')?.textContent).toBe('详细信息（原始数据）');
    expect(details.querySelector('pre')?.textContent).toContain('"path": "/home/me/购物清单.txt"');

    fireEvent.click(screen.getByRole('button', { name: '允许' }));
    await waitFor(() => expect(container.querySelector('.pending-confirmations')).toBeNull());

    const history = await renderWithBridge(harness, <HistoryPage />, 'zh-CN');
    const row = await waitFor(() => {
      const found = [...history.container.querySelectorAll('tr.clickable')].find((r) => r.textContent?.includes('delete_file'));
      expect(found?.textContent).toContain('成功');
      return found as HTMLElement;
    });
    // Allowed, it ran as an ordinary call: not "单独运行（小智稍后取结果）" (walkthrough 4).
    expect(row.textContent).not.toContain('单独运行');
    fireEvent.click(row);
    const open = history.container.querySelector('.details-row') as HTMLElement;
    expect(open.querySelector('.argument-list dd')?.textContent).toBe('/home/me/购物清单.txt');
    expect(open.textContent).not.toContain('{"path"');
  }, 60_000);
});
