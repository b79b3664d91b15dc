// @vitest-environment jsdom
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { cleanup } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';

import { RecentFailures } from '../../src/renderer/components/recent-failures';
import { HistoryPage } from '../../src/renderer/pages/history-page';
import { OverviewPage } from '../../src/renderer/pages/overview-page';
import { fixtureServer, type Harness, makeBridge, tearDown } from '../helpers/bridge-harness';
import { renderWithBridge } from '../helpers/render-app';
import { waitFor } from '../helpers/wait';

let harness: Harness | undefined;
const dirs: string[] = [];
afterEach(async () => {
  cleanup();
  window.location.hash = '';
  await tearDown(harness);
  harness = undefined;
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

const toolsListed = (selector: string) =>
  [...document.querySelectorAll(`${selector} tbody tr`)].map((row) => row.querySelector('.mono, code')?.textContent ?? '').filter(Boolean);

/**
 * Walkthrough 4: after a restart the overview said "最近一小时的 15 次调用中，有 6 次没有成功。查看没成功的调用",
 * and the link opened 调用记录 saying "本次启动后没有失败的调用。" while 最近调用 listed the failed calls.
 */
describe('调用记录 after the app restarted', () => {
  it('the failed calls the overview counted are the ones its link shows, and the page lists what 最近调用 lists', async () => {
    const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'xt-history-restart-'));
    dirs.push(stateDir);
    const settings = {
      servers: [fixtureServer('fx', { FIXTURE_FAIL_TEXT: 'no such city' })],
      endpoints: [{ id: 'e', name: 'home', url: 'ws://127.0.0.1:9/mcp', enabled: false }],
    };
    const first = makeBridge(settings, undefined, { stateDir });
    first.bridge.start();
    await first.bridge.whenServersSettled();
    await first.bridge.api.callTool({ name: 'echo', arguments: { text: 'a' } });
    for (let i = 0; i < 3; i++) await first.bridge.api.callTool({ name: 'fail', arguments: {} });
    await first.bridge.stop();

    harness = makeBridge(settings, undefined, { stateDir });
    harness.bridge.start();
    await harness.bridge.whenServersSettled();
    await renderWithBridge(harness, <RecentFailures samples={await harness.bridge.api.getActivity()} now={Date.now()} />, 'zh-CN');
    const note = document.querySelector('.recent-failures');
    expect(note?.textContent).toContain('有 3 次没有成功');
    cleanup();

    window.location.hash = '#/history?failed';
    await renderWithBridge(harness, <HistoryPage />, 'zh-CN');
    await waitFor(
      () => toolsListed('.history').length === 3,
      5000,
      () => `the failed calls listed: ${document.querySelector('.page')?.textContent}`,
    );
    expect(toolsListed('.history')).toEqual(['fail', 'fail', 'fail']);
    expect(document.body.textContent).not.toContain('没有失败的调用');
    cleanup();

    window.location.hash = '#/history';
    await renderWithBridge(harness, <HistoryPage />, 'zh-CN');
    await waitFor(
      () => toolsListed('.history').length === 4,
      5000,
      () => `${document.querySelector('.page')?.textContent}`,
    );
    const listed = toolsListed('.history');
    cleanup();
    await renderWithBridge(harness, <OverviewPage go={() => undefined} />, 'zh-CN');
    await waitFor(
      () => toolsListed('.recent-calls').length === 4,
      5000,
      () => `${document.querySelector('.recent-calls')?.textContent}`,
    );
    expect(toolsListed('.recent-calls')).toEqual(listed);
  }, 60_000);

  it('a busy day before the restart lists its newest calls, not thousands of rows (the page re-rendered them all at each call)', async () => {
    const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'xt-history-restart-'));
    dirs.push(stateDir);
    // A local client's day: 5,000 calls in the activity record (it keeps up to 20,000), the newest an hour ago.
    const now = Date.now();
    const lines = Array.from({ length: 5000 }, (_, i) =>
      JSON.stringify({
        time: now - 3600_000 - (5000 - i) * 1000,
        tool: 'echo',
        server: 'fx',
        caller: 'cursor',
        outcome: 'ok',
        durationMs: 3,
      }),
    );
    fs.writeFileSync(path.join(stateDir, 'activity.jsonl'), `${lines.join('\n')}\n`);
    harness = makeBridge({ servers: [fixtureServer('fx')] }, undefined, { stateDir });
    harness.bridge.start();
    await renderWithBridge(harness, <HistoryPage />, 'zh-CN');
    await waitFor(
      () => document.querySelector('.history-earlier') !== null,
      5000,
      () => `${document.querySelector('.page')?.textContent?.slice(0, 300)}`,
    );
    const listed = toolsListed('.history').length;
    expect(listed).toBeGreaterThan(0);
    expect(listed).toBeLessThanOrEqual(200);
    expect(document.body.textContent).toContain(`再早的 ${5000 - listed} 次调用记在“活动”页面`);
  }, 60_000);
});
