// @vitest-environment jsdom
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { EndpointsPage } from '../../src/renderer/pages/endpoints-page';
import { FirstRunGuide } from '../../src/renderer/pages/first-run-guide';
import { bridgeEachTest, renderWithBridge } from '../helpers/render-app';
import { waitFor } from '../helpers/wait';

const newBridge = bridgeEachTest();

/** Issue 33 (t-names8): what a person who is not a developer reads on the endpoint's card and the first screen. */
describe('the endpoint’s choices and the first screen, in plain words', () => {
  it('each choice on the endpoint card says what it does; the rare ones wait under 高级; 小智, not 模型', async () => {
    const harness = newBridge({ servers: [], endpoints: [{ id: 'e', name: '家里', url: 'wss://127.0.0.1:1/mcp/?token=t' }] });
    await renderWithBridge(harness, <EndpointsPage />, 'zh-CN');
    const serving = await waitForElement('.serving');
    expect(within(serving).getByText('工具多时小智先搜索再调用；一般不用改。')).toBeTruthy();
    // Before: 模型看到的内容 beside the mode, where every other line says 小智.
    expect(serving.textContent).not.toContain('模型');
    const preview = within(serving).getByRole('button', { name: '小智看到的内容' });
    expect(preview.closest('details')?.querySelector(':scope > summary')?.textContent).toBe('高级');
    expect(screen.getByText('这个接入点用哪一组服务和工具；一般用“全部工具”。')).toBeTruthy();
  });

  it('the first screen leads with the catalogue, names the secret once, and keeps importing as a second line', async () => {
    const harness = newBridge({ servers: [], endpoints: [] });
    await renderWithBridge(harness, <FirstRunGuide go={() => undefined} />, 'zh-CN');
    await screen.findByText('从目录添加服务');
    const page = document.querySelector('.guide')?.textContent ?? '';
    // Before: 添加 MCP 服务, "其中的令牌会被保密" beside "接入点地址和密钥会原样写在配置文件里".
    expect(page).not.toContain('MCP 服务');
    expect(page).not.toContain('令牌');
    expect(page).toContain('地址里含有一把密钥：窗口里不会完整显示它。');
    const importing = screen.getByText(/把它们的配置文件拖到本窗口/);
    expect(importing.className).toContain('small');
  });
});

async function waitForElement(selector: string): Promise<HTMLElement> {
  await waitFor(
    () => document.querySelector(selector) !== null,
    5000,
    () => `no ${selector}`,
  );
  return document.querySelector(selector) as HTMLElement;
}
