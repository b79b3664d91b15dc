// @vitest-environment jsdom
import { waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';

import { PendingConfirmations } from '../../src/renderer/components/pending-confirmations';
import { withEndpointTeardown } from '../helpers/bridge-harness';
import { holdDeleteFile } from '../helpers/held-call';
import { renderWithBridge } from '../helpers/render-app';

const ctx = withEndpointTeardown(afterEach);

async function panelOf(language: 'zh-CN' | 'en', args: Record<string, unknown>) {
  const harness = await holdDeleteFile(ctx, args);
  const { container } = await renderWithBridge(harness, <PendingConfirmations />, language);
  return waitFor(() => {
    const found = container.querySelector('.pending-confirmations');
    expect(found?.querySelector('.argument-list')).toBeTruthy();
    return found as HTMLElement;
  });
}

const fields = (panel: HTMLElement) => [...panel.querySelectorAll('.argument-list dl dt')] as HTMLElement[];

// The fourth walkthrough (issue 33): the panel asked in Chinese about "Write File · write_file" with fields
// path / content / source / destination, all English.
describe('the confirmation panel says what the call does in the window’s language', () => {
  it('zh-CN: common fields in Chinese, each exact name small beside; the server’s English title only in the details, marked', async () => {
    const panel = await panelOf('zh-CN', { path: '/home/me/购物清单.txt', content: '鸡蛋', source: 'a', destination: 'b', zzz_flag: true });
    const [path, content, source, destination, other] = fields(panel);
    expect(path?.firstChild?.textContent).toBe('路径');
    expect(path?.querySelector('.mono')?.textContent?.trim()).toBe('path');
    expect(content?.firstChild?.textContent).toBe('内容');
    expect(source?.firstChild?.textContent).toBe('来源');
    expect(destination?.firstChild?.textContent).toBe('目标');
    // A field we have no words for keeps its own name, as before.
    expect(other?.textContent).toBe('zzz_flag');
    // Not beside the tool's name in sight: "Delete a file" is the server's English.
    const lines = [...panel.querySelectorAll('li > div')].slice(0, 2).map((d) => d.textContent ?? '');
    expect(lines.join('\n')).not.toContain('Delete a file');
    const details = panel.querySelector('.argument-list details') as HTMLDetailsElement;
    expect(details.textContent).toContain('服务给它的名称（原文）：Delete a file');
  }, 60_000);

  it('en: the fields and the tool’s title as they are (already the window’s language)', async () => {
    const panel = await panelOf('en', { path: '/home/me/list.txt' });
    expect(fields(panel)[0]?.textContent).toBe('path');
    expect(panel.textContent).toContain('Delete a file');
    expect(panel.textContent).not.toContain('server’s own name');
  }, 60_000);
});
