// @vitest-environment jsdom
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { EndpointsPage } from '../../src/renderer/pages/endpoints-page';
import { OverviewPage } from '../../src/renderer/pages/overview-page';
import { ServiceEditor } from '../../src/renderer/pages/service-editor';
import { SettingsPage } from '../../src/renderer/pages/settings-page';
import { bridgeEachTest, renderWithBridge } from '../helpers/render-app';

const newBridge = bridgeEachTest();

describe('where the headless bridge keeps tokens and keys', () => {
  it('is a quiet line where the address is typed, not an amber warning on the overview and settings', async () => {
    // The headless host (as `run --ui`) keeps them in its config file: its normal state.
    const harness = newBridge({ servers: [], endpoints: [{ id: 'e', name: '家里', url: 'wss://127.0.0.1:1/mcp/?token=t' }] });
    const view = await renderWithBridge(harness, <OverviewPage go={() => undefined} />, 'zh-CN');
    await screen.findByRole('region', { name: '小智是否正常工作' });
    // Before: "无界面模式会把接入点令牌和密钥以明文保存在配置文件中…" in amber on every visit.
    expect(screen.queryByText(/配置文件/)).toBeNull();
    expect(document.querySelector('.notice')).toBeNull();
    view.unmount();
    const settings = await renderWithBridge(harness, <SettingsPage />, 'zh-CN');
    await screen.findByRole('heading', { level: 1 });
    expect(screen.queryByText(/配置文件里|明文/)).toBeNull();
    settings.unmount();
    await renderWithBridge(harness, <EndpointsPage />, 'zh-CN');
    const note = await screen.findByText('接入点地址和其他密钥都保存在这台电脑上的配置文件里：别把这个文件发给别人。');
    expect(note.closest('form')).toBeTruthy();
    expect(note.closest('.notice')).toBeNull();
  });

  it('is said where a web service key is typed too', async () => {
    const harness = newBridge({ servers: [] });
    await renderWithBridge(harness, <ServiceEditor kind="dify" existingNames={[]} onClose={() => undefined} />, 'zh-CN');
    expect(await screen.findByText('接入点地址和其他密钥都保存在这台电脑上的配置文件里：别把这个文件发给别人。')).toBeTruthy();
  });
});
