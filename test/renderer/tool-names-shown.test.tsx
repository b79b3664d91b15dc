// @vitest-environment jsdom
import { render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { App } from '../../src/renderer/app';
import { ActivityPage } from '../../src/renderer/pages/activity-page';
import { OverviewPage } from '../../src/renderer/pages/overview-page';
import { BridgeStore } from '../../src/renderer/store/bridge-store';
import { fixtureServer } from '../helpers/bridge-harness';
import { bridgeEachTest, renderWithBridge } from '../helpers/render-app';

const newBridge = bridgeEachTest();

/** Two servers with the same tools: each tool is served as `<server>_<tool>`. */
async function twoServers() {
  const harness = newBridge({
    servers: [fixtureServer('alpha'), fixtureServer('beta')],
    // An endpoint (never connected): without one the overview is the first-run guide.
    endpoints: [{ id: 'e', name: 'home', url: 'ws://127.0.0.1:9/mcp', enabled: false }],
  });
  harness.bridge.start();
  await harness.bridge.whenServersSettled();
  await harness.bridge.api.callTool({ name: 'alpha_echo', arguments: { text: 'x' } });
  return harness;
}

describe('a tool is named as xiaozhi knows it, with its server, wherever a person reads it', () => {
  it('Activity names the served (prefixed) name, from its server', async () => {
    const harness = await twoServers();
    await renderWithBridge(harness, <ActivityPage />, 'zh-CN');
    const cell = await waitFor(() => {
      const found = [...document.querySelectorAll('td')].find((td) => td.textContent?.includes('echo'));
      expect(found).toBeTruthy();
      return found as HTMLElement;
    });
    expect(cell.textContent).toBe('alpha_echo · 来自 alpha');
  });

  it('the overview’s recent calls say which server a tool came from', async () => {
    const harness = await twoServers();
    await renderWithBridge(harness, <OverviewPage go={() => undefined} />, 'en');
    const cell = await waitFor(() => {
      const found = [...document.querySelectorAll('td')].find((td) => td.textContent?.includes('echo'));
      expect(found).toBeTruthy();
      return found as HTMLElement;
    });
    expect(cell.textContent).toBe('alpha_echo · from alpha');
  });
});

describe('the sidebar', () => {
  it('groups the pages so that the tools xiaozhi can use and the tool sets (advanced) are apart', async () => {
    const harness = newBridge({});
    const store = new BridgeStore(harness.bridge.api);
    await store.load();
    render(<App store={store} />);
    const nav = await screen.findByRole('navigation');
    const groups = await waitFor(() => {
      const found = [...nav.querySelectorAll('ul')].map((ul) => ({
        name: ul.getAttribute('aria-label'),
        pages: [...ul.querySelectorAll('a')].map((a) => a.getAttribute('href')),
      }));
      expect(found.length).toBeGreaterThan(1);
      return found;
    });
    const groupOf = (href: string) => groups.find((g) => g.pages.includes(href));
    expect(groupOf('#/tools')?.name).toBe('What xiaozhi can use');
    expect(groupOf('#/servers')).toBe(groupOf('#/tools'));
    expect(groupOf('#/toolSets')?.name).toBe('Advanced');
    expect(groupOf('#/toolSets')).not.toBe(groupOf('#/tools'));
    // Try a sentence puts the user's own model in xiaozhi's place (issue 33: third in the sidebar, a person
    // expected to talk to xiaozhi there): a tuning page, below the everyday ones and the records.
    expect(groupOf('#/trySentence')?.name).toBe('Advanced');
    const order = groups.flatMap((g) => g.pages);
    expect(order.indexOf('#/trySentence')).toBeGreaterThan(order.indexOf('#/logs'));
  });
});

describe('the sidebar in Chinese', () => {
  it('heads the servers and tools with words that read one way (walkthrough 4 read 小智能用的 as 小/智能/用的)', async () => {
    const harness = newBridge({ ui: { language: 'zh-CN' } });
    const store = new BridgeStore(harness.bridge.api);
    await store.load();
    render(<App store={store} />);
    const nav = await screen.findByRole('navigation');
    const group = await waitFor(() => nav.querySelector('ul:has(a[href="#/tools"])')!);
    expect(group.getAttribute('aria-label')).toBe('给小智用的');
  });
});
