// @vitest-environment jsdom
import { cleanup, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { LogsPage } from '../../src/renderer/pages/logs-page';
import { translate } from '../../src/shared/i18n/translate';
import { problem } from '../../src/shared/problem';
import { type Harness, makeBridge } from '../helpers/bridge-harness';
import { renderWithBridge } from '../helpers/render-app';

let harness: Harness | undefined;
beforeEach(() => {
  vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(2000);
  vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(1000);
});
afterEach(async () => {
  vi.restoreAllMocks();
  cleanup();
  await harness?.bridge.stop();
  harness = undefined;
});

describe('the Logs page, when no endpoint is set up yet (run.ts logs it at start)', () => {
  for (const [language, plain] of [
    ['zh-CN', '还没有添加接入点：在“接入点”页面添加一个，小智就能连上。'],
    ['en', 'No endpoint yet: add one on the Endpoints page, and xiaozhi can connect.'],
  ] as const)
    it(`says it in a person's words, without the CLI's flags and variables (${language})`, async () => {
      harness = makeBridge({});
      harness.logBook.logger('app').warn(translate('en', 'problem.cli.noEndpoint'), problem('cli.noEndpoint'));
      await renderWithBridge(harness, <LogsPage />, language);
      expect(await screen.findByText(plain)).toBeTruthy();
      expect(screen.queryByText(/--ui|MCP_ENDPOINT/)).toBeNull();
    });
});
