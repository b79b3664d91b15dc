// @vitest-environment jsdom
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { ToolsPage } from '../../src/renderer/pages/tools-page';
import { XiaozhiStatus } from '../../src/renderer/pages/xiaozhi-status';
import type { ServerSettings } from '../../src/shared/settings';
import { bridgeEachTest, renderWithBridge } from '../helpers/render-app';
import { waitFor } from '../helpers/wait';

const newBridge = bridgeEachTest();
const crashing = (name: string) =>
  ({ name, transport: 'stdio', command: process.execPath, args: ['-e', 'process.exit(3)'], enabled: true }) as ServerSettings;

describe('servers that are not running are named, each a link to its card', () => {
  it('on the tools page and in the overview line', async () => {
    const harness = newBridge({ servers: [crashing('weather'), crashing('home')] });
    harness.bridge.start();
    // Past their restarts: the overview names failed servers only.
    await waitFor(
      async () => (await harness.bridge.api.getState()).servers.every((s) => s.state === 'failed'),
      20_000,
      'both servers to fail',
    );
    const state = await harness.bridge.api.getState();
    await renderWithBridge(
      harness,
      <>
        <ToolsPage />
        <XiaozhiStatus state={state} />
      </>,
    );
    for (const name of ['weather', 'home']) {
      const links = await screen.findAllByRole('link', { name });
      expect(links.map((a) => a.getAttribute('href'))).toEqual([`#/servers?server=${name}`, `#/servers?server=${name}`]);
    }
    expect(screen.getByText(/Not running, so their tools are missing here:/).textContent).toMatch(/weather, home|home, weather/);
  });
});
