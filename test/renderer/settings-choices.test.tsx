// @vitest-environment jsdom
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { SettingsPage } from '../../src/renderer/pages/settings-page';
import { bridgeEachTest, renderWithBridge } from '../helpers/render-app';

const newBridge = bridgeEachTest();

describe('the settings page choices', () => {
  it('offers each value in words and saves the one picked', async () => {
    const harness = newBridge({});
    await renderWithBridge(harness, <SettingsPage />);
    const language = (await screen.findByLabelText('Language')) as HTMLSelectElement;
    expect([...language.options].map((o) => [o.value, o.text])).toEqual([
      ['system', expect.any(String)],
      ['zh-CN', '简体中文'],
      ['en', 'English'],
    ]);
    fireEvent.change(screen.getByLabelText('Theme'), { target: { value: 'dark' } });
    fireEvent.change(screen.getByLabelText('Tool names'), { target: { value: 'always-prefix' } });
    await waitFor(() => expect(harness.store.load()).toMatchObject({ ui: { theme: 'dark' }, naming: 'always-prefix' }));
  });
});
