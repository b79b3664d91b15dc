// @vitest-environment jsdom
import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';

import { StatFigure } from '../../src/renderer/components/stat-figure';

const parts = () => [...document.querySelectorAll('.stat-figure > span')].map((s) => `${s.className}:${s.textContent}`);

/** The big number is the count itself, not a digit of "24 小时" that happens to match (a walkthrough saw "2[4] 小时内调用 4 次"). */
describe('a count with its number large', () => {
  afterEach(cleanup);
  it('finds the count, not the same digits inside the label', () => {
    const { unmount } = render(<StatFigure text="24 小时内调用 4 次" value="4" />);
    expect(parts()).toEqual(['stat-label:24 小时内调用 ', 'stat-value:4', 'stat-label: 次']);
    unmount();
    const again = render(<StatFigure text="24 小时内调用 2 次" value="2" />);
    expect(parts()).toEqual(['stat-label:24 小时内调用 ', 'stat-value:2', 'stat-label: 次']);
    again.unmount();
    render(<StatFigure text="4 calls in 24 hours" value="4" />);
    expect(parts()).toEqual(['stat-value:4', 'stat-label: calls in 24 hours']);
  });

  it('the same number in the label and as the count: the count is where each language puts it', () => {
    const { unmount } = render(<StatFigure text="24 小时内调用 24 次" value="24" />);
    expect(parts()).toEqual(['stat-label:24 小时内调用 ', 'stat-value:24', 'stat-label: 次']);
    unmount();
    render(<StatFigure text="7 calls in 7 days" value="7" />);
    expect(parts()).toEqual(['stat-value:7', 'stat-label: calls in 7 days']);
  });
});
