// @vitest-environment jsdom
import { File as NodeFile } from 'node:buffer';

import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { ImportDialog } from '../../src/renderer/pages/import-dialog';
import { ImportMenu } from '../../src/renderer/pages/import-menu';
import type { ImportPreview } from '../../src/shared/import';
import { bridgeEachTest, renderWithBridge } from '../helpers/render-app';

const newBridge = bridgeEachTest();

/** A Claude Desktop file of `count` servers named s0, s1…; `taken` of them already configured here. */
function claudeFile(count: number): string {
  const mcpServers = Object.fromEntries(Array.from({ length: count }, (_, i) => [`s${i}`, { command: 'node', args: [`server-${i}.js`] }]));
  return JSON.stringify({ mcpServers });
}
const existing = (taken: number) =>
  Array.from({ length: taken }, (_, i) => ({
    name: `s${i}`,
    transport: 'stdio' as const,
    command: 'node',
    args: [`other-${i}.js`],
    enabled: false,
  }));

describe('importing a file of many servers', () => {
  it('offers one choice for all: skip those already here, skip all, or back to the suggestions (zh-CN)', async () => {
    const harness = newBridge({ servers: existing(4) });
    const preview = await harness.bridge.api.previewImport({ source: 'claude_desktop_config.json', text: claudeFile(10) });
    await renderWithBridge(harness, <ImportDialog preview={preview} onClose={() => undefined} />, 'zh-CN');
    const summary = () => document.querySelector('.dialog-footer, footer')?.textContent ?? document.body.textContent ?? '';
    expect(summary()).toContain('将添加或替换 10 项。');
    const bulk = screen.getByRole('group', { name: '所有服务：' });

    fireEvent.click(within(bulk).getByRole('button', { name: '跳过已有的 4 个' }));
    await waitFor(() => expect(summary()).toContain('将添加或替换 6 项。'));
    for (let i = 0; i < 4; i++) expect((screen.getByLabelText(`s${i}`) as HTMLSelectElement).value).toBe('skip');
    expect((screen.getByLabelText('s4') as HTMLSelectElement).value).toBe('add');

    fireEvent.click(within(bulk).getByRole('button', { name: '全部跳过（10 个）' }));
    await waitFor(() => expect(summary()).toContain('将添加或替换 0 项。'));

    fireEvent.click(within(bulk).getByRole('button', { name: '恢复建议的选择' }));
    await waitFor(() => expect(summary()).toContain('将添加或替换 10 项。'));
    expect((screen.getByLabelText('s0') as HTMLSelectElement).value).toBe('rename');
  });

  it('says which file it is reading, and its size, until the preview is ready', async () => {
    const harness = newBridge({});
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const previewImport = harness.bridge.api.previewImport.bind(harness.bridge.api);
    harness.bridge.api.previewImport = async (input): Promise<ImportPreview> => {
      await gate;
      return previewImport(input);
    };
    const { imports, toasts } = await renderWithBridge(harness, <ImportMenu onPreview={(p) => imports.push(p)} />, 'zh-CN');
    const picker = document.querySelector('input[type=file]') as HTMLInputElement;
    // Node's File: jsdom's has no text(), which the window's browser has.
    const file = new NodeFile([claudeFile(3)], 'claude_desktop_config.json', { type: 'application/json' });
    fireEvent.change(picker, { target: { files: [file] } });
    const status = await screen.findByRole('status');
    expect(status.textContent).toMatch(/^正在读取“claude_desktop_config\.json”（\d+\s?\S+）…/);
    release();
    await waitFor(() => expect({ imports: imports.length, toasts }).toEqual({ imports: 1, toasts: [] }));
    expect(screen.queryByRole('status')).toBeNull();
  });
});
