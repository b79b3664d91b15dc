// @vitest-environment jsdom
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { BackgroundTasks } from '../../src/renderer/components/background-tasks';
import { PendingConfirmations } from '../../src/renderer/components/pending-confirmations';
import { withEndpointTeardown } from '../helpers/bridge-harness';
import { holdDeleteFile } from '../helpers/held-call';
import { renderWithBridge } from '../helpers/render-app';
import { scaled } from '../helpers/time-scale';

const ctx = withEndpointTeardown(afterEach);
afterEach(() => vi.restoreAllMocks());

/**
 * Walkthrough 4: after a write was allowed, the overview's card "在后台运行的调用 / 已在后台完成" stayed
 * for minutes (until a restart), with the server's English result shown as if the app said it.
 */
describe('the card of a call that finished in the background', () => {
  it("marks the result as the server's own words, and goes a short while after the call ended", async () => {
    const harness = await holdDeleteFile(ctx, { path: '/home/me/购物清单.txt' });
    const { container } = await renderWithBridge(
      harness,
      <>
        <PendingConfirmations />
        <BackgroundTasks />
      </>,
      'zh-CN',
    );
    fireEvent.click(await screen.findByRole('button', { name: '允许' }, { timeout: scaled(10_000) }));
    const card = await waitFor(
      () => {
        const found = container.querySelector('.background-tasks');
        expect(found?.textContent).toContain('已在后台完成');
        return found as HTMLElement;
      },
      { timeout: scaled(10_000) },
    );
    expect(card.textContent).toContain('服务返回的原文');
    expect(card.querySelector('pre')?.textContent).toContain('购物清单.txt');

    // Two minutes on (the card's clock only: the bridge keeps the task for xiaozhi to ask after).
    const later = Date.now() + 120_000;
    vi.spyOn(Date, 'now').mockImplementation(() => later);
    await waitFor(() => expect(container.querySelector('.background-tasks')).toBeNull(), { timeout: scaled(5000) });
    expect((await harness.bridge.api.getTasks()).some((task) => task.state === 'done')).toBe(true);
  }, 60_000);
});
