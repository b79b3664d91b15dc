// @vitest-environment jsdom
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { EndpointsPage } from '../../src/renderer/pages/endpoints-page';
import { OverviewPage } from '../../src/renderer/pages/overview-page';
import { bridgeEachTest, renderWithBridge } from '../helpers/render-app';

const newBridge = bridgeEachTest();

const endpoint = { id: 'e1', name: '客厅小智', url: 'ws://127.0.0.1:8004/mcp/?token=abcdef0123456789', enabled: false };

/**
 * Issue 33: the endpoint card's main line was its masked address ("ws://127.0.0.1:8004/mcp/?token=…"):
 * a person needs its name and whether it works; the address is a smaller line after them, labelled.
 */
describe('an endpoint card', () => {
  for (const [place, page] of [
    ['the overview', () => <OverviewPage go={() => undefined} />],
    ['the endpoints page', () => <EndpointsPage />],
  ] as const)
    for (const [language, label, state, hidden] of [
      ['zh-CN', '地址：', '已关闭', '（密钥已隐藏）'],
      ['en', 'Address: ', 'Off', ' (key hidden)'],
    ] as const)
      it(`in ${place}: its name and state first, its masked address last, small and labelled (${language})`, async () => {
        await renderWithBridge(newBridge({ endpoints: [endpoint] }), page(), language);
        const name = await screen.findByText('客厅小智');
        const card = name.closest('article, li') as HTMLElement;
        expect(within(card).getByText(state)).toBeTruthy();
        const address = card.querySelector('.endpoint-address')!;
        // A person-facing form (walkthrough 4 read "ws://…/mcp_endpoint/mcp/?token=5VNg…（已隐藏）"): the place, and that
        // its key is hidden; the whole masked address only as the tooltip.
        expect(address.textContent).toBe(`${label}127.0.0.1:8004${hidden}`);
        const whole = address.querySelector('[title]')!.getAttribute('title')!;
        expect(whole).toMatch(/^ws:\/\/127\.0\.0\.1:8004\/mcp\/\?token=abcd…/);
        expect(whole + address.textContent).not.toContain('abcdef0123456789');
        // After every other line of the card's main part: nothing but the address comes after it.
        expect(address.nextElementSibling).toBeNull();
      });
});
