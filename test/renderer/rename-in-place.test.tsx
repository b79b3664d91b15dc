// @vitest-environment jsdom
import { fireEvent, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { EndpointsPage } from '../../src/renderer/pages/endpoints-page';
import { bridgeEachTest, renderWithBridge } from '../helpers/render-app';

const newBridge = bridgeEachTest();

describe('renaming in place', () => {
  it('an endpoint: Save keeps the new name, Esc and Cancel keep the old one, an empty name changes nothing', async () => {
    const harness = newBridge({ endpoints: [{ id: 'e', name: 'home', url: 'ws://127.0.0.1:9/mcp', enabled: false }] });
    await renderWithBridge(harness, <EndpointsPage />);
    const name = () => harness.store.load().endpoints[0]?.name;
    // The endpoint's card (the page's add form has a Name box too).
    const card = async () => within(await waitFor(() => document.querySelector('.list-item') as HTMLElement));
    const rename = async () => {
      fireEvent.click((await card()).getByRole('button', { name: 'Rename' }));
      return (await card()).getByRole('textbox', { name: 'Name' });
    };

    fireEvent.change(await rename(), { target: { value: '  kitchen ' } });
    fireEvent.click((await card()).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(name()).toBe('kitchen'));
    await waitFor(async () => expect((await card()).queryByRole('textbox', { name: 'Name' })).toBeNull());

    const box = await rename();
    expect((box as HTMLInputElement).value).toBe('kitchen');
    fireEvent.change(box, { target: { value: 'office' } });
    fireEvent.keyDown(box, { key: 'Escape' });
    expect((await card()).queryByRole('textbox', { name: 'Name' })).toBeNull();

    fireEvent.change(await rename(), { target: { value: '   ' } });
    fireEvent.click((await card()).getByRole('button', { name: 'Save' }));
    await waitFor(async () => expect((await card()).queryByRole('textbox', { name: 'Name' })).toBeNull());
    await rename();
    fireEvent.click((await card()).getByRole('button', { name: 'Cancel' }));
    expect(name()).toBe('kitchen');
  });
});
