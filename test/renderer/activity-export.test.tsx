// @vitest-environment jsdom
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { ActivityPage } from '../../src/renderer/pages/activity-page';
import { bridgeEachTest, renderWithBridge } from '../helpers/render-app';

const newBridge = bridgeEachTest();

describe('the activity page', () => {
  it('offers the calls as a table (CSV) and in detail (JSONL), and neither before there is a call', async () => {
    const harness = newBridge({});
    await renderWithBridge(harness, <ActivityPage />);
    const buttons = ['Export as a table CSV', 'Export every call in detail'].map(
      (name) => screen.getByRole('button', { name }) as HTMLButtonElement,
    );
    expect(buttons.map((b) => b.disabled)).toEqual([true, true]);
  });
});
