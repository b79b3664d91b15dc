// @vitest-environment jsdom
import { act, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { App } from '../../src/renderer/app';
import { BridgeStore } from '../../src/renderer/store/bridge-store';
import { bridgeEachTest } from '../helpers/render-app';

const newBridge = bridgeEachTest();

describe('the window while it has lost its connection to the app', () => {
  it('says so in plain words and leaves the page inert until it is back (a click then would be lost)', async () => {
    const harness = newBridge({ ui: { language: 'zh-CN' } });
    const store = new BridgeStore(harness.bridge.api);
    await store.load();
    render(<App store={store} />);
    const heading = await screen.findByRole('heading', { level: 1 });
    expect(heading.closest('[inert]')).toBeNull();

    act(() => store.setConnected(false));
    const note = await screen.findByText(/正在重新连接/);
    // Before: "与桥接服务的连接已断开" (a word of the code, not of the person) and every button still clickable.
    expect(note.textContent).not.toMatch(/桥接|bridge/i);
    await waitFor(() => expect(screen.getByRole('heading', { level: 1, hidden: true }).closest('[inert]')).not.toBeNull());

    act(() => store.setConnected(true));
    await waitFor(() => expect(screen.getByRole('heading', { level: 1 }).closest('[inert]')).toBeNull());
  });
});
