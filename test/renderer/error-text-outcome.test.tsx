// @vitest-environment jsdom
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { ActivityPage } from '../../src/renderer/pages/activity-page';
import { HistoryPage } from '../../src/renderer/pages/history-page';
import { ToolsPage } from '../../src/renderer/pages/tools-page';
import { fixtureServer } from '../helpers/bridge-harness';
import { bridgeEachTest, renderWithBridge } from '../helpers/render-app';

const newBridge = bridgeEachTest();

/**
 * A server that answers a failure as plain text (no isError): the fixture's echo answers
 * "<FIXTURE_NAME>: <text>", so one named "Error" answers "Error: …"; the other answers as usual.
 */
async function answeredWithErrorText() {
  const harness = newBridge({ servers: [fixtureServer('weather', { FIXTURE_NAME: 'Error' }), fixtureServer('alpha')] });
  harness.bridge.start();
  await harness.bridge.whenServersSettled();
  const answer = await harness.bridge.api.callTool({ name: 'weather_echo', arguments: { text: 'city not found' } });
  // What the caller receives is what the server sent.
  expect(JSON.stringify(answer)).toContain('Error: city not found');
  await harness.bridge.api.callTool({ name: 'alpha_echo', arguments: { text: '北京今天晴' } });
  return harness;
}

describe('an answer that is an error message in plain text', () => {
  it('History says 可能出错 (amber), not 成功', async () => {
    await renderWithBridge(await answeredWithErrorText(), <HistoryPage />, 'zh-CN');
    const badge = await screen.findByText('可能出错');
    expect(badge.closest('.badge')?.className).toContain('badge-warn');
    // The ordinary answer is still a success.
    expect(screen.getAllByText('成功')).toHaveLength(1);
  });

  it('Activity counts it apart, neither a success nor a failure', async () => {
    await renderWithBridge(await answeredWithErrorText(), <ActivityPage />, 'en');
    const figures = () => [...document.querySelectorAll('.stat-figure')].map((f) => f.textContent);
    await waitFor(() => expect(figures()).toContain('0 failed'));
    expect(screen.getByText('1 answered with an error message').className).toContain('warn-text');
    expect(screen.getByRole('columnheader', { name: 'Error messages' })).toBeTruthy();
  });

  it('the Tools page counts it as Activity does: apart, not as a failure', async () => {
    const harness = await answeredWithErrorText();
    await harness.bridge.api.callTool({ name: 'weather_fail', arguments: {} });
    await renderWithBridge(harness, <ToolsPage />, 'zh-CN');
    const item = (name: string) =>
      [...document.querySelectorAll('li.tool')].find((li) => li.textContent?.includes(name))?.textContent ?? '';
    // Before: "1 次调用 · 失败 1 次" for the echo that answered "Error: …", where Activity said 可能出错.
    await waitFor(() => expect(item('weather_echo')).toContain('可能出错 1 次'));
    expect(item('weather_echo')).not.toContain('失败');
    expect(item('weather_fail')).toContain('失败 1 次');
    expect(item('alpha_echo')).toContain('本次启动后调用 1 次');
    expect(item('alpha_echo')).not.toContain('可能出错');
  });
});
