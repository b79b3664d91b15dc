// @vitest-environment jsdom
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { ActivityPage } from '../../src/renderer/pages/activity-page';
import { SettingsPage } from '../../src/renderer/pages/settings-page';
import { bridgeEachTest, renderWithBridge } from '../helpers/render-app';

const newBridge = bridgeEachTest();

/** What a person reads first: the page's text without the small technical terms (.term) shown after plain words. */
function plainText(root: HTMLElement): string {
  const copy = root.cloneNode(true) as HTMLElement;
  for (const term of copy.querySelectorAll('.term')) term.remove();
  return copy.textContent ?? '';
}

const terms = (root: HTMLElement): string[] => [...root.querySelectorAll('.term')].map((t) => t.textContent?.trim() ?? '');

describe('Settings in Chinese, for someone who is not a developer (issue 33, shot 02)', () => {
  it('says no bytes, SHA-256, Streamable HTTP or PIN before plain words; the terms stay, small, after them', async () => {
    const harness = newBridge({ mirrors: { preset: 'china' } });
    await renderWithBridge(harness, <SettingsPage />, 'zh-CN');
    await screen.findByText('确认口令');
    const page = document.body;
    const plain = plainText(page);
    // Numbers in the fields are values, not words: only the text around them counts.
    expect(plain).not.toMatch(/字节|SHA-256|Streamable HTTP|PIN/);
    expect(terms(page)).toEqual(expect.arrayContaining(['字节', '协议：Streamable HTTP']));
  });

  it('says 口令 without "PIN" after it, explains it once, and says 小智 where it said AI or MCP (walkthrough 4)', async () => {
    const harness = newBridge({});
    await renderWithBridge(harness, <SettingsPage />, 'zh-CN');
    const label = await screen.findByText('确认口令');
    expect(label.textContent).toBe('确认口令');
    expect(document.body.textContent).toContain('口令是只有你知道的几位数字或一个词');
    expect(document.body.textContent).not.toMatch(/AI 看不到|AI 自己|熟悉 MCP/);
    expect(document.body.textContent).toContain('小智看不到口令');
  });
});

describe('Activity in Chinese', () => {
  it('names the raw export in plain words, the format only as its tooltip (shot 18: 导出原始数据 JSONL)', async () => {
    const harness = newBridge({});
    await renderWithBridge(harness, <ActivityPage />, 'zh-CN');
    const raw = screen.getByRole('button', { name: '导出每次调用的明细' });
    expect(raw.textContent).not.toMatch(/JSONL|原始数据/);
    expect(raw.title).toContain('JSONL');
  });
});
