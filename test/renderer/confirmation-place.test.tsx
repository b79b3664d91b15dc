// @vitest-environment jsdom
import { cleanup, render, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';

import { App } from '../../src/renderer/app';
import { BridgeStore } from '../../src/renderer/store/bridge-store';
import { withEndpointTeardown } from '../helpers/bridge-harness';
import { holdDeleteFile } from '../helpers/held-call';

import '../helpers/render-app';

const ctx = withEndpointTeardown(afterEach);
afterEach(() => {
  cleanup();
  window.location.hash = '';
});

/** The window's pages, as the sidebar links them. */
const PAGES = ['overview', 'endpoints', 'servers', 'tools', 'toolSets', 'trySentence', 'activity', 'history', 'logs', 'settings'];

describe('a call waiting for Allow / Deny', () => {
  it('is shown below the page title, inside the page’s column, on every page', async () => {
    const harness = await holdDeleteFile(ctx, { path: '/home/me/report.docx' });
    const store = new BridgeStore(harness.bridge.api);
    await store.load();
    render(<App store={store} />);
    for (const page of PAGES) {
      window.location.hash = `#/${page}`;
      window.dispatchEvent(new HashChangeEvent('hashchange'));
      const panel = await waitFor(() => {
        const found = document.querySelector('.pending-confirmations');
        expect(found?.closest('.page')?.querySelector('h1')).toBeTruthy();
        return found as HTMLElement;
      });
      const title = panel.closest('.page')?.querySelector('h1') as HTMLElement;
      // The title comes first in the document, the panel after it.
      expect(title.compareDocumentPosition(panel) & Node.DOCUMENT_POSITION_FOLLOWING, page).toBeTruthy();
      expect(document.querySelectorAll('.pending-confirmations'), page).toHaveLength(1);
    }
  }, 60_000);
});
