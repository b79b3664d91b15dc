// @vitest-environment jsdom
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { EndpointTestResult } from '../../src/renderer/pages/endpoint-test-result';
import type { EndpointTest } from '../../src/shared/endpoint-test';
import { bridgeEachTest, renderWithBridge } from '../helpers/render-app';

/** Each verdict of "Test connection" is true, and says what is normal for that kind of endpoint. */
const newBridge = bridgeEachTest();
const steps = () => [...document.querySelectorAll('.steps li')].map((li) => `${li.className} ${li.textContent}`);

describe('Test connection verdicts', () => {
  it('never says the token is valid beside "xiaozhi refused the token"', async () => {
    const refused: EndpointTest = {
      reachable: true,
      accepted: false,
      durationMs: 40,
      waitedSeconds: 10,
      error: { code: 'endpoint.tokenRejected', params: { code: 1008 } },
      errorText: 'xiaozhi refused the token in the endpoint URL (closed with code 1008: token解密失败)',
    };
    await renderWithBridge(newBridge({}), <EndpointTestResult result={refused} />, 'zh-CN');
    expect(steps()).toEqual(['step-ok ✓可以连通', 'step-bad ✕接入点地址无效', 'step-skipped –未检查']);
    expect(screen.queryByText('接入点地址有效')).toBeNull();
  });

  it('a self-hosted endpoint that did not list is a success, with the sentence that says why (both languages)', async () => {
    const quiet: EndpointTest = { reachable: true, accepted: true, note: 'listsOnDeviceTalk', durationMs: 10_000, waitedSeconds: 10 };
    const harness = newBridge({});
    const { unmount } = await renderWithBridge(harness, <EndpointTestResult result={quiet} />, 'zh-CN');
    expect(steps()).toEqual([
      'step-ok ✓可以连通',
      'step-ok ✓接入点地址有效',
      'step-ok ✓已连上。这种自托管接入点只在有设备说话时才读取工具列表，现在没有读取是正常的。',
    ]);
    unmount();
    await renderWithBridge(harness, <EndpointTestResult result={quiet} />, 'en');
    expect(steps().at(-1)).toBe(
      'step-ok ✓Connected. This kind of self-hosted endpoint lists the tools only when a device talks, so not listing them now is normal.',
    );
  });

  it('says the tools were read through the relay, and that another program holds the endpoint', async () => {
    const harness = newBridge({});
    const through: EndpointTest = {
      reachable: true,
      accepted: true,
      toolsListed: 12,
      userTools: 9,
      listedVia: 'relay',
      durationMs: 80,
      waitedSeconds: 10,
    };
    const { unmount } = await renderWithBridge(harness, <EndpointTestResult result={through} />, 'zh-CN');
    expect(steps().at(-1)).toBe('step-ok ✓和真正对话时一样读取：小智读到了你的 9 个工具');
    unmount();
    const held: EndpointTest = {
      reachable: true,
      accepted: true,
      durationMs: 30,
      waitedSeconds: 10,
      error: { code: 'endpoint.replaced', params: {} },
      errorText: 'another program is using this endpoint',
    };
    await renderWithBridge(harness, <EndpointTestResult result={held} />, 'zh-CN');
    expect(steps().at(-1)).toBe('step-bad ✕另一个程序正在使用这个接入点，测试没有去抢它');
  });

  it('an endpoint that closed before listing says so (not "did not read within 10 s"), and no "reconnects by itself" for a test', async () => {
    const harness = newBridge({});
    const closed: EndpointTest = {
      reachable: true,
      accepted: true,
      durationMs: 9,
      waitedSeconds: 10,
      error: { code: 'endpoint.closed', params: { code: 4000 } },
      errorText: 'the endpoint closed the connection (code 4000)',
    };
    const { unmount } = await renderWithBridge(harness, <EndpointTestResult result={closed} />, 'zh-CN');
    expect(steps()).toEqual(['step-ok ✓可以连通', 'step-ok ✓接入点地址有效', 'step-bad ✕小智在读取工具列表前就断开了连接']);
    expect(document.body.textContent).not.toContain('10 秒');
    expect(document.body.textContent).not.toContain('自动重新连接');
    expect(document.body.textContent).toContain('关闭代码 4000');
    unmount();
    const refused: EndpointTest = { ...closed, accepted: false, error: { code: 'endpoint.closed', params: { code: 1008 } } };
    await renderWithBridge(harness, <EndpointTestResult result={refused} />, 'zh-CN');
    expect(steps()).toEqual(['step-ok ✓可以连通', 'step-bad ✕小智拒绝了这个连接', 'step-skipped –未检查']);
    expect(screen.queryByText('接入点地址有效')).toBeNull();
    expect(document.body.textContent).not.toContain('自动重新连接');
  });

  it('an endpoint that sent a broken frame says the connection ended before listing, with the detail (not "did not read within 10 s")', async () => {
    const broken: EndpointTest = {
      reachable: true,
      accepted: true,
      durationMs: 7,
      waitedSeconds: 10,
      error: { code: 'endpoint.badFrame', params: { detail: 'Invalid WebSocket frame: invalid opcode 3' } },
      errorText: 'Invalid WebSocket frame: invalid opcode 3',
    };
    await renderWithBridge(newBridge({}), <EndpointTestResult result={broken} />, 'zh-CN');
    expect(steps().at(-1)).toBe('step-bad ✕小智在读取工具列表前就断开了连接');
    expect(document.body.textContent).toContain('不是有效的 WebSocket 消息');
    expect(document.body.textContent).toContain('invalid opcode 3');
    expect(document.body.textContent).not.toContain('10 秒');
    expect(document.body.textContent).not.toContain('自动重新连接');
  });

  it("counts the person's tools, not the app's own, and says what to do when there are none yet (issue 33)", async () => {
    const harness = newBridge({});
    const none: EndpointTest = { reachable: true, accepted: true, toolsListed: 3, userTools: 0, durationMs: 40, waitedSeconds: 10 };
    const { unmount } = await renderWithBridge(harness, <EndpointTestResult result={none} />, 'zh-CN');
    expect(steps()).toEqual([
      'step-ok ✓可以连通',
      'step-ok ✓接入点地址有效',
      'step-ok ✓小智读到了工具列表，但里面还没有你的工具：到“服务”页添加一个服务',
    ]);
    unmount();
    const some = { ...none, toolsListed: 5, userTools: 2 };
    await renderWithBridge(harness, <EndpointTestResult result={some} />, 'en');
    expect(steps()).toEqual([
      'step-ok ✓Reachable',
      'step-ok ✓Endpoint address accepted',
      'step-ok ✓xiaozhi read the tool list: your 2 tools',
    ]);
  });
});
