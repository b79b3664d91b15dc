// @vitest-environment jsdom
import fs from 'node:fs';
import path from 'node:path';

import { render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { ACTIVITY_FILE_NAME } from '../../src/main/core/logs/activity-log';
import { App } from '../../src/renderer/app';
import { ActivityPage } from '../../src/renderer/pages/activity-page';
import { BridgeStore } from '../../src/renderer/store/bridge-store';
import { translator } from '../../src/shared/i18n/translate';
import { fixtureServer } from '../helpers/bridge-harness';
import { bridgeEachTest, renderWithBridge } from '../helpers/render-app';
import { tempDirs } from '../helpers/temp-dirs';

const newBridge = bridgeEachTest();

const tempDir = tempDirs('xt-small-words-');
const DAY_MS = 24 * 3600_000;

/**
 * One server, an endpoint (never connected) in the mode given, one call made from the window; with
 * `since`, the activity record holds a call that long ago (the app has been in use since).
 */
async function oneServer(toolMode: 'auto' | 'router', since?: number) {
  const stateDir = tempDir();
  if (since !== undefined) {
    const old = { time: Date.now() - since, tool: 'echo', server: 'alpha', caller: 'xiaozhi', outcome: 'ok', durationMs: 3 };
    fs.writeFileSync(path.join(stateDir, ACTIVITY_FILE_NAME), `${JSON.stringify(old)}\n`);
  }
  const harness = newBridge(
    {
      servers: [fixtureServer('alpha')],
      endpoints: [{ id: 'e', name: 'home', url: 'ws://127.0.0.1:9/mcp', enabled: false, toolMode }],
    },
    undefined,
    { stateDir },
  );
  harness.bridge.start();
  await harness.bridge.whenServersSettled();
  await harness.bridge.api.callTool({ name: 'echo', arguments: { text: 'x' } });
  return harness;
}

const neverCalled = () => [...document.querySelectorAll('.chips .chip')].map((chip) => chip.textContent ?? '');

describe('small words in the window', () => {
  it('Activity leaves the app’s own tools out of "never called", and says the export in plain words', async () => {
    await renderWithBridge(await oneServer('auto', 2 * DAY_MS), <ActivityPage />, 'zh-CN');
    await waitFor(() => expect(neverCalled().length).toBeGreaterThan(0));
    // Before: cancel_task and task_status among them, which no one can switch off.
    expect(neverCalled().filter((name) => /cancel_task|task_status|confirm_action/.test(name))).toEqual([]);
    expect(screen.getByText(/关闭它们可以让小智读取的列表更短/)).toBeTruthy();
    // The format is small text after the plain words (before: "导出记录（JSONL）").
    expect(screen.getByRole('button', { name: '导出为表格 CSV' })).toBeTruthy();
    expect(screen.getByRole('button', { name: '导出每次调用的明细' })).toBeTruthy();
  });

  it('Activity gives no advice to switch tools off before a day of use (it did minutes after servers were added)', async () => {
    await renderWithBridge(await oneServer('auto', 3_600_000), <ActivityPage />, 'zh-CN');
    await waitFor(() => expect(neverCalled().length).toBeGreaterThan(0));
    expect(screen.queryByText(/关闭它们可以让小智读取的列表更短/)).toBeNull();
  });

  it('Activity does not advise switching tools off when xiaozhi searches first (its list stays short anyway)', async () => {
    await renderWithBridge(await oneServer('router'), <ActivityPage />, 'zh-CN');
    await waitFor(() => expect(neverCalled().length).toBeGreaterThan(0));
    expect(screen.queryByText(/关闭它们可以让小智读取的列表更短/)).toBeNull();
  });

  it('the sidebar offers no "stop all servers" when there is no server', async () => {
    const harness = newBridge({ servers: [] });
    harness.bridge.start();
    const store = new BridgeStore(harness.bridge.api);
    await store.load();
    render(<App store={store} />);
    await screen.findByRole('navigation');
    await waitFor(() => expect(document.querySelector('.sidebar-footer')).toBeTruthy());
    expect(screen.queryByRole('button', { name: 'Stop all servers' })).toBeNull();
  });

  it('Settings says what 8192 bytes means without naming a protocol message', () => {
    expect(translator('zh-CN')('settings.budgetHint')).not.toMatch(/tools\/list/);
    expect(translator('en')('settings.budgetHint')).not.toMatch(/tools\/list/);
  });
});
