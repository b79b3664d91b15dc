// @vitest-environment jsdom
import { cleanup, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';

import { OverviewPage } from '../../src/renderer/pages/overview-page';
import { withEndpointTeardown } from '../helpers/bridge-harness';
import { holdDeleteFile } from '../helpers/held-call';
import { renderWithBridge } from '../helpers/render-app';
import { scaled } from '../helpers/time-scale';

const ctx = withEndpointTeardown(afterEach);
afterEach(cleanup);

/** Walkthrough 4: while a confirmation waited, the overview said 6 calls in 24 hours beside 7 rows of 最近调用. */
describe('the overview while a call waits for the person’s OK', () => {
  it('counts the waiting call as it lists it', async () => {
    const harness = await holdDeleteFile(ctx, { path: '/home/me/购物清单.txt' });
    const { container } = await renderWithBridge(harness, <OverviewPage go={() => undefined} />, 'zh-CN');
    const rows = await waitFor(
      () => {
        const found = [...container.querySelectorAll('.recent-calls tbody tr')];
        expect(found.some((row) => row.textContent?.includes('delete_file'))).toBe(true);
        return found;
      },
      { timeout: scaled(10_000) },
    );
    await waitFor(() => {
      const figure = [...container.querySelectorAll('.stat-figure')]
        .map((f) => f.textContent ?? '')
        .find((text) => text.startsWith('24 小时内调用'));
      expect(figure).toBe(`24 小时内调用 ${rows.length} 次`);
    });
  }, 60_000);
});
