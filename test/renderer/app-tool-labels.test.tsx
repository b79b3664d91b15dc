// @vitest-environment jsdom
import fs from 'node:fs';
import path from 'node:path';

import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { ACTIVITY_FILE_NAME } from '../../src/main/core/logs/activity-log';
import { ActivityPage } from '../../src/renderer/pages/activity-page';
import { HistoryPage } from '../../src/renderer/pages/history-page';
import { fixtureServer } from '../helpers/bridge-harness';
import { bridgeEachTest, renderWithBridge } from '../helpers/render-app';
import { tempDirs } from '../helpers/temp-dirs';

const newBridge = bridgeEachTest();
const tempDir = tempDirs('xt-app-tools-');

/** One server, and an activity record of the router's search and a call to a tool that does not exist (server ''). */
async function withOwnToolsCalled() {
  const stateDir = tempDir();
  const now = Date.now();
  const rows = [
    { time: now - 60_000, tool: 'find_tools', server: '', caller: 'xiaozhi', outcome: 'ok', durationMs: 2 },
    { time: now - 50_000, tool: 'call_tool', server: '', caller: 'xiaozhi', outcome: 'error', durationMs: 1 },
  ];
  fs.writeFileSync(path.join(stateDir, ACTIVITY_FILE_NAME), rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
  const harness = newBridge({ servers: [fixtureServer('alpha')] }, undefined, { stateDir });
  harness.bridge.start();
  await harness.bridge.whenServersSettled();
  // The app's own task_status, called as xiaozhi would (recorded from the app's built-in server).
  await harness.bridge.api.callTool({ name: 'task_status', arguments: {} });
  return harness;
}

const rowOf = (name: string) => screen.getAllByText(name, { selector: '.mono' })[0]?.closest('tr, li') as HTMLElement;

// The fourth walkthrough (issue 33) read find_tools / call_tool with no words of its own on Activity, and
// "task_status · 来自 xiaozhi-tray" on the overview and History where the tools page says 本应用自带.
describe('the app’s own tools are named in plain words, their exact names small beside', () => {
  it('Activity: 搜索工具 find_tools, 调用工具 call_tool, 查看后台任务 task_status, each 本应用自带', async () => {
    await renderWithBridge(await withOwnToolsCalled(), <ActivityPage />, 'zh-CN');
    await waitFor(() => expect(screen.getAllByText('find_tools', { selector: '.mono' }).length).toBeGreaterThan(0));
    expect(within(rowOf('find_tools')).getByText('搜索工具')).toBeTruthy();
    expect(within(rowOf('call_tool')).getByText('调用工具')).toBeTruthy();
    expect(within(rowOf('task_status')).getByText('查看后台任务')).toBeTruthy();
    expect(within(rowOf('task_status')).getByText(/本应用自带/)).toBeTruthy();
    expect(document.body.textContent).not.toContain('xiaozhi-tray');
  });

  it('History in English: “Check a background task”, built into this app, not “from xiaozhi-tray”', async () => {
    await renderWithBridge(await withOwnToolsCalled(), <HistoryPage />, 'en');
    await waitFor(() => expect(rowOf('task_status')).toBeTruthy());
    expect(within(rowOf('task_status')).getByText('Check a background task')).toBeTruthy();
    expect(within(rowOf('task_status')).getByText(/built into this app/i)).toBeTruthy();
    expect(document.body.textContent).not.toContain('from xiaozhi-tray');
  });
});
