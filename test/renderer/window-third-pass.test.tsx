// @vitest-environment jsdom
import { cleanup, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { EndpointsPage } from '../../src/renderer/pages/endpoints-page';
import { en } from '../../src/shared/i18n/en';
import { fixtureServer, makeBridge, type Harness } from '../helpers/bridge-harness';
import { renderWithBridge } from '../helpers/render-app';

let harness: Harness | undefined;
afterEach(async () => {
  cleanup();
  await harness?.bridge.stop();
  harness = undefined;
});

describe('English counts go through plurals', () => {
  it('the endpoint card says "1 page", not "page(s)"', async () => {
    harness = makeBridge({ servers: [fixtureServer('fx')], endpoints: [{ id: 'e', name: 'home', url: 'ws://127.0.0.1:9/mcp', enabled: false }] });
    harness.bridge.start();
    await harness.bridge.whenServersSettled();
    await renderWithBridge(harness, <EndpointsPage />);
    const count = await waitFor(() => document.querySelector('.served-count') as HTMLElement);
    expect(count.textContent).toMatch(/^12 tools · [\d.]+ [KM]?B in 1 page$/);
  });

  it('no English text counts with "(s)" or puts a count before a plural noun without a plural form', () => {
    for (const [key, text] of Object.entries(en)) {
      expect(text, key).not.toMatch(/\w\(s\)/);
      // "{count} tools", "{servers} servers": a bare number before a noun in the plural reads "1 tools".
      expect(text, key).not.toMatch(/\{(count|servers|tools|pages|n)\} (tools|servers|pages|calls|lines|items|endpoints)\b/);
    }
  });
});
