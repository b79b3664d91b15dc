// @vitest-environment jsdom
import { fireEvent, screen, waitFor } from '@testing-library/react';
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

describe('a failed call whose text names a known cause', () => {
  /** The fixture's `fail` answers FIXTURE_FAIL_TEXT as an error result: here tavily-mcp's words with no network. */
  async function failedLikeTavily() {
    const harness = newBridge({
      servers: [
        fixtureServer('tavily', {
          FIXTURE_FAIL_TEXT:
            'Tavily API error: getaddrinfo ENOTFOUND api.tavily.com\nDocumentation: https://docs.tavily.com/documentation/api-reference/endpoint/search',
        }),
        fixtureServer('alpha'),
      ],
    });
    harness.bridge.start();
    await harness.bridge.whenServersSettled();
    const answer = await harness.bridge.api.callTool({ name: 'tavily_fail', arguments: {} });
    // What the caller (xiaozhi) receives is the server's own text, unchanged.
    expect(JSON.stringify(answer)).toContain('Tavily API error: getaddrinfo ENOTFOUND api.tavily.com');
    return harness;
  }

  it('History says first, in plain Chinese, which site could not be reached; the raw text stays below', async () => {
    await renderWithBridge(await failedLikeTavily(), <HistoryPage />, 'zh-CN');
    fireEvent.click(await screen.findByText('tavily_fail'));
    expect(await screen.findByText('服务连不上它要用的网站（api.tavily.com）：请检查这台电脑的网络。')).toBeTruthy();
    expect(screen.getByText('服务返回的原文')).toBeTruthy();
    expect(screen.getByText(/^Tavily API error: getaddrinfo ENOTFOUND api.tavily.com/)).toBeTruthy();
  });

  it('and in English', async () => {
    await renderWithBridge(await failedLikeTavily(), <HistoryPage />, 'en');
    fireEvent.click(await screen.findByText('tavily_fail'));
    expect(
      await screen.findByText("The service could not reach the site it uses (api.tavily.com): check this computer's network."),
    ).toBeTruthy();
    expect(screen.getByText("The service's own words")).toBeTruthy();
  });
});

describe('a failed call with a system error a file server passed on (walkthrough 4: 返回 ENOENT… with nothing plain)', () => {
  it('History says 文件或文件夹不存在 first; the server words stay below, marked as its own', async () => {
    const failText = "ENOENT: no such file or directory, open '/tmp/home/不存在.txt'";
    const harness = newBridge({ servers: [fixtureServer('files', { FIXTURE_FAIL_TEXT: failText })] });
    harness.bridge.start();
    await harness.bridge.whenServersSettled();
    await harness.bridge.api.callTool({ name: 'fail', arguments: {} });
    await renderWithBridge(harness, <HistoryPage />, 'zh-CN');
    fireEvent.click(await screen.findByText('fail'));
    expect(await screen.findByText('文件或文件夹不存在。')).toBeTruthy();
    expect(screen.getByText('服务返回的原文')).toBeTruthy();
    expect(screen.getByText(failText)).toBeTruthy();
  });
});

describe("a failed call's words with a secret in them, in History", () => {
  it('show the hidden part in the window’s language, as other pages do (“(redacted)” in the Chinese window before)', async () => {
    const harness = newBridge({
      servers: [
        fixtureServer('amap', {
          FIXTURE_FAIL_TEXT: 'request to https://restapi.amap.com/v3/weather?city=1&key=abc123configuredsecret failed, reason: ENOTFOUND',
        }),
      ],
    });
    harness.bridge.start();
    await harness.bridge.whenServersSettled();
    await harness.bridge.api.callTool({ name: 'fail', arguments: {} });
    await renderWithBridge(harness, <HistoryPage />, 'zh-CN');
    fireEvent.click(await screen.findByText('fail'));
    const raw = await screen.findByText(/^request to https:\/\/restapi/);
    expect(raw.textContent).toContain('（已隐藏）');
    expect(raw.textContent).not.toContain('(redacted)');
    expect(raw.textContent).not.toContain('abc123configuredsecret');
  });
});
