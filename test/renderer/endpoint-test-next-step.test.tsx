// @vitest-environment jsdom
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { EndpointTestResult } from '../../src/renderer/pages/endpoint-test-result';
import type { EndpointTest } from '../../src/shared/endpoint-test';
import { bridgeEachTest, renderWithBridge } from '../helpers/render-app';

/**
 * After three ticks for an endpoint not yet added, the sidebar still said 尚未添加接入点 and nothing said
 * to press 添加接入点 (issue 33, shot 04): the result says so.
 */
const newBridge = bridgeEachTest();
const good: EndpointTest = { reachable: true, accepted: true, toolsListed: 0, durationMs: 367, waitedSeconds: 10 };

describe('a good connection test of an endpoint not yet added', () => {
  it('says what to press next (zh-CN), and its time in seconds', async () => {
    await renderWithBridge(newBridge({}), <EndpointTestResult result={good} notYetAdded />, 'zh-CN');
    expect(screen.getByText('可以添加了：点“添加接入点”保存它，小智就会连上。')).toBeTruthy();
    expect(screen.getByText('用时 0.4 秒')).toBeTruthy();
  });

  it('in English too', async () => {
    await renderWithBridge(newBridge({}), <EndpointTestResult result={good} notYetAdded />, 'en');
    expect(screen.getByText('Ready to add: press Add endpoint to save it, and xiaozhi connects.')).toBeTruthy();
  });

  it('says nothing of adding for one already added, nor after a failed test', async () => {
    const harness = newBridge({});
    const { unmount } = await renderWithBridge(harness, <EndpointTestResult result={good} />, 'zh-CN');
    expect(screen.queryByText(/可以添加了/)).toBeNull();
    unmount();
    const refused: EndpointTest = {
      ...good,
      accepted: false,
      toolsListed: undefined,
      error: { code: 'endpoint.tokenRejected', params: {} },
    };
    await renderWithBridge(harness, <EndpointTestResult result={refused} notYetAdded />, 'zh-CN');
    expect(screen.queryByText(/可以添加了/)).toBeNull();
  });
});
