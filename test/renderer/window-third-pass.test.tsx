// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { CatalogueDialog } from '../../src/renderer/pages/catalogue-dialog';
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

describe('the catalogue asks for what an entry needs in words that read in each language', () => {
  const open = async (language: 'en' | 'zh-CN', title: string) => {
    harness = makeBridge({}, undefined, { registryUrl: 'http://127.0.0.1:9/' });
    await renderWithBridge(harness, <CatalogueDialog onClose={() => undefined} onPick={() => undefined} onCustom={() => undefined} />, language);
    fireEvent.click(await screen.findByRole('button', { name: title }));
    return screen.getByRole('dialog');
  };

  it('the heading names the entry as a title, not inside "What … needs" (en)', async () => {
    const dialog = await open('en', 'ModelScope-hosted server');
    expect(within(dialog).getByRole('heading').textContent).toBe('Set up ModelScope-hosted server');
  });

  it('an optional value is marked with full-width brackets in Chinese', async () => {
    const dialog = await open('zh-CN', '时间与时区');
    expect(within(dialog).getByRole('heading').textContent).toBe('配置“时间与时区”');
    expect(within(dialog).getByLabelText('你的时区（可选）')).toBeTruthy();
  });
});
