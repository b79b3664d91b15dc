// @vitest-environment jsdom
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { cleanup } from '@testing-library/react';
import { afterEach, describe, it } from 'vitest';

import { ActivityPage } from '../../src/renderer/pages/activity-page';
import { OverviewPage } from '../../src/renderer/pages/overview-page';
import { fixtureServer, type Harness, makeBridge, tearDown } from '../helpers/bridge-harness';
import { renderWithBridge } from '../helpers/render-app';
import { waitFor } from '../helpers/wait';

let harness: Harness | undefined;
const dirs: string[] = [];
afterEach(async () => {
  cleanup();
  await tearDown(harness);
  harness = undefined;
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** The overview's count of calls and the Activity page's, after the app restarted: one number. */
describe('calls counted after a restart', () => {
  it('the overview counts the calls Activity counts (the week’s record in the state folder), not only this run’s', async () => {
    const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'xt-activity-'));
    dirs.push(stateDir);
    const settings = {
      servers: [fixtureServer('fx')],
      endpoints: [{ id: 'e', name: 'home', url: 'ws://127.0.0.1:9/mcp', enabled: false }],
    };
    const first = makeBridge(settings, undefined, { stateDir });
    first.bridge.start();
    await first.bridge.whenServersSettled();
    for (const text of ['a', 'b', 'c']) await first.bridge.api.callTool({ name: 'echo', arguments: { text } });
    await first.bridge.stop();

    // The app starts again: this run has made no call yet.
    harness = makeBridge(settings, undefined, { stateDir });
    harness.bridge.start();
    await harness.bridge.whenServersSettled();
    await renderWithBridge(harness, <OverviewPage go={() => undefined} />, 'zh-CN');
    const figure = () => document.querySelector('.stat:last-child .stat-figure')?.textContent?.replace(/\s+/g, ' ').trim();
    // Before: "今日调用 0 次" (this run's calls only) while Activity said 3.
    await waitFor(
      () => figure() === '24 小时内调用 3 次',
      5000,
      () => `the overview's count, showing "${figure()}"`,
    );
    cleanup();
    await renderWithBridge(harness, <ActivityPage />, 'zh-CN');
    const activity = () => [...document.querySelectorAll('.stat-figure')].map((el) => el.textContent?.replace(/\s+/g, ' ').trim());
    await waitFor(
      () => activity().includes('24 小时内调用 3 次'),
      5000,
      () => `Activity's count: ${activity().join(' | ')}`,
    );
  });
});
