// @vitest-environment jsdom
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';

import { SummaryLines } from '../../src/renderer/components/status-summary-view';
import { EndpointsPage } from '../../src/renderer/pages/endpoints-page';
import { OverviewPage } from '../../src/renderer/pages/overview-page';
import { summarizeStatus } from '../../src/shared/status-summary';
import { type Harness, makeBridge, tearDown } from '../helpers/bridge-harness';
import { RelayStandIn } from '../helpers/relay-stand-in';
import { renderWithBridge } from '../helpers/render-app';
import { waitFor } from '../helpers/wait';

let harness: Harness | undefined;
let relay: RelayStandIn | undefined;
afterEach(async () => {
  cleanup();
  await tearDown(harness);
  await relay?.close();
  harness = undefined;
  relay = undefined;
});

describe('the overview and the sidebar say one thing', () => {
  it('a token the relay refuses is said as refused in both, not "connecting" beside "cannot reach"', async () => {
    relay = await RelayStandIn.start();
    // A token that does not decrypt: the relay accepts the socket, then closes it 1008 "token解密失败" (src/server.py).
    const url = relay.toolUrl().replace(/token=.*/, 'token=bm90LWEtdG9rZW4%3D');
    harness = makeBridge({ endpoints: [{ id: 'e', name: '家里', url }] });
    harness.bridge.start();
    await waitFor(
      () => harness!.bridge.state().endpoints[0]?.lastErrorCause?.code === 'endpoint.tokenRejected',
      10_000,
      'the relay to refuse the token',
    );
    const { store } = await renderWithBridge(
      harness,
      <>
        <SummaryLines summary={summarizeStatus(harness.bridge.state())} className="sidebar-status" />
        <OverviewPage go={() => undefined} />
      </>,
      'zh-CN',
    );
    expect(store).toBeTruthy();
    // The sidebar's line and the overview's headline: the same words.
    expect(await screen.findAllByText('小智拒绝了接入点地址中的令牌')).toHaveLength(2);
    expect(screen.queryByText('正在连接小智…')).toBeNull();
  });
});

describe('removing one of two endpoints with the same name', () => {
  it('says which one: its place in the list, its address (token hidden) and its state', async () => {
    const token = (n: number) => `eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ0d2luIn0.c2lnbmF0dXJl${n}`;
    harness = makeBridge({
      endpoints: [
        { id: 'a', name: '家里', url: `wss://127.0.0.1:9/mcp/?token=${token(1)}`, enabled: false },
        { id: 'b', name: '家里', url: `ws://127.0.0.1:9/mcp_endpoint/mcp/?token=${token(2)}`, enabled: false },
      ],
    });
    await renderWithBridge(harness, <EndpointsPage />, 'zh-CN');
    const removes = screen.getAllByRole('button', { name: '删除' });
    fireEvent.click(removes[1] as HTMLElement);
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain(
      // The mask in the window's words (it read "…(redacted)" in the Chinese dialog).
      '另有接入点也叫“家里”。要删除的是列表中的第 2 个：ws://127.0.0.1:9/mcp_endpoint/mcp/?token=eyJh…（已隐藏），已关闭。',
    );
    expect(dialog.textContent).not.toContain(token(2));
    fireEvent.click(within(dialog).getByRole('button', { name: '删除' }));
    await waitFor(() => harness!.store.load().endpoints.length === 1, 5000, 'the endpoint to go');
    expect(harness.store.load().endpoints.map((e) => e.id)).toEqual(['a']);
  });
});
