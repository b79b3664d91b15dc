// @vitest-environment jsdom
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { SettingsPage } from '../../src/renderer/pages/settings-page';
import { bridgeEachTest, renderWithBridge } from '../helpers/render-app';

const newBridge = bridgeEachTest();

/** The page's text outside the folded Advanced section. */
function everyday(root: HTMLElement): string {
  const copy = root.cloneNode(true) as HTMLElement;
  for (const advanced of copy.querySelectorAll('.advanced-settings')) advanced.remove();
  return copy.textContent ?? '';
}

describe('Settings for someone changing the download source (issue 33)', () => {
  it('shows the everyday settings first and folds the technical ones under one closed 高级设置, each with a plain line', async () => {
    const harness = newBridge({ mirrors: { preset: 'china' } });
    await renderWithBridge(harness, <SettingsPage />, 'zh-CN');
    await screen.findByText('语音确认');
    const page = document.body;
    const headings = [...page.querySelectorAll('h2')].map((h) => h.textContent);
    // (Updates come after them in the desktop app; this web page has none.)
    expect(headings.slice(0, headings.indexOf('高级设置'))).toEqual(['常规', '下载源', '语音确认']);
    const advanced = page.querySelector('details.advanced-settings') as HTMLDetailsElement;
    expect(advanced.open).toBe(false);
    expect(advanced.querySelector('summary')?.textContent).toContain('高级设置');
    // What the walkthrough met while changing the download source is no longer on the way.
    expect(everyday(page)).not.toMatch(/字节|后台调用上限|工具预算|SHA-256|Streamable HTTP|xiaozhi-tray connect|单条消息/);
    for (const heading of ['工具提供', '每个接入点的工具预算', '本机 MCP 服务']) {
      const section = [...advanced.querySelectorAll('h2')].find((h) => h.textContent?.startsWith(heading))?.closest('section');
      expect(section?.querySelector('.settings-purpose')?.textContent, heading).toBeTruthy();
    }
  });
});
