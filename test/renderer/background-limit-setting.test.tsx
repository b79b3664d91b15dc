// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';

import { SettingsPage } from '../../src/renderer/pages/settings-page';
import { type Harness, makeBridge } from '../helpers/bridge-harness';
import { renderWithBridge } from '../helpers/render-app';

let harness: Harness | undefined;
afterEach(async () => {
  cleanup();
  await harness?.bridge.stop();
  harness = undefined;
});

describe('the background call limit in Settings', () => {
  it('shows 30 minutes by default, refuses 0, and saves a new limit', async () => {
    harness = makeBridge({});
    await renderWithBridge(harness, <SettingsPage />);
    const field = screen.getByLabelText('Background call limit (minutes)') as HTMLInputElement;
    expect(field.value).toBe('30');
    fireEvent.change(field, { target: { value: '0' } });
    expect(screen.getByText('From 1 to 1440 minutes.')).toBeTruthy();
    fireEvent.change(field, { target: { value: '45' } });
    // The Save of the section the field is in.
    fireEvent.click(within(field.closest('section') as HTMLElement).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(harness!.store.load().limits.backgroundTimeoutMs).toBe(45 * 60_000));
    expect(harness.store.load().limits.callTimeoutMs).toBe(60_000);
  });

  it('in Chinese', async () => {
    harness = makeBridge({});
    await renderWithBridge(harness, <SettingsPage />, 'zh-CN');
    expect((screen.getByLabelText('后台调用上限（分钟）') as HTMLInputElement).value).toBe('30');
  });
});
