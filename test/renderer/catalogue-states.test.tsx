// @vitest-environment jsdom
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { CatalogueDialog } from '../../src/renderer/pages/catalogue-dialog';
import type { Catalogue } from '../../src/shared/catalogue';
import { bridgeEachTest, renderWithBridge } from '../helpers/render-app';

const newBridge = bridgeEachTest();

describe('the catalogue says what it is doing', () => {
  for (const [language, reading, count] of [
    ['zh-CN', '正在读取服务目录…', /^\d+ 个服务/],
    ['en', 'Reading the list of servers…', /^\d+ servers/],
  ] as const) {
    it(`while the list is read: that it is reading the list of servers, not a bare "Loading…" (${language})`, async () => {
      const harness = newBridge({}, undefined, { registryUrl: 'http://127.0.0.1:9/' });
      // The list is held back until the test lets it go: the dialog is seen while it waits.
      let release: () => void = () => undefined;
      const gate = new Promise<void>((resolve) => (release = resolve));
      const getCatalogue = harness.bridge.api.getCatalogue.bind(harness.bridge.api);
      harness.bridge.api.getCatalogue = async (input): Promise<Catalogue> => {
        await gate;
        return getCatalogue(input);
      };
      await renderWithBridge(
        harness,
        <CatalogueDialog onClose={() => undefined} onPick={() => undefined} onCustom={() => undefined} />,
        language,
      );
      const status = () => document.querySelector('.catalogue-status')?.textContent ?? '';
      expect(status()).toBe(reading);
      release();
      await screen.findByText(count);
    });
  }
});
