// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { CatalogueDialog } from '../../src/renderer/pages/catalogue-dialog';
import { ServerEditor } from '../../src/renderer/pages/server-editor';
import { ToolsPage } from '../../src/renderer/pages/tools-page';
import { en } from '../../src/shared/i18n/en';
import { zhCN } from '../../src/shared/i18n/zh-CN';
import { fixtureServer } from '../helpers/bridge-harness';
import { bridgeEachTest, renderWithBridge } from '../helpers/render-app';
import { tempDirs } from '../helpers/temp-dirs';

const newBridge = bridgeEachTest();

/** Text outside any closed <details>: what a person reads without asking for more. */
function visibleText(root: HTMLElement): string {
  const copy = root.cloneNode(true) as HTMLElement;
  for (const details of copy.querySelectorAll('details'))
    for (const child of [...details.children]) if (child.tagName !== 'SUMMARY') child.remove();
  for (const details of copy.querySelectorAll('details'))
    for (const node of [...details.childNodes]) if (node.nodeType === 3) node.remove();
  return copy.textContent ?? '';
}

const SIZE = /\d\s?(B|KB|MB|字节)\b|\d\s?(B|KB|MB)(?=[^A-Za-z]|$)/;

describe('the tools page reads without sizes and pages', () => {
  for (const language of ['zh-CN', 'en'] as const) {
    it(`no byte size or page count is shown on a tool row or in the summary until asked for (${language})`, async () => {
      const harness = newBridge({ servers: [fixtureServer('fx')] });
      harness.bridge.start();
      await harness.bridge.whenServersSettled();
      await renderWithBridge(harness, <ToolsPage />, language);
      const rows = await waitFor(() => {
        const found = [...document.querySelectorAll<HTMLElement>('li.tool')];
        expect(found.length).toBeGreaterThan(0);
        return found;
      });
      for (const row of rows) expect(visibleText(row)).not.toMatch(SIZE);
      const page = document.querySelector('.page') as HTMLElement;
      expect(visibleText(page)).not.toMatch(SIZE);
      expect(visibleText(page)).not.toMatch(language === 'en' ? /\bpages?\b/ : /页/);
      // Still there for those who want them.
      expect(within(page).getByText(language === 'en' ? 'Details' : '详情')).toBeTruthy();
    });
  }
});

describe.skipIf(process.platform === 'win32')('the catalogue in Chinese, without uv and with the official sources', () => {
  const tempDir = tempDirs('xt-plain-words-');
  it('gives an install command that mainland China can reach (not astral.sh or GitHub), and where to change it', async () => {
    const harness = newBridge({}, undefined, { registryUrl: 'http://127.0.0.1:9/', env: { ...process.env, PATH: tempDir() } });
    await renderWithBridge(
      harness,
      <CatalogueDialog onClose={() => undefined} onPick={() => undefined} onCustom={() => undefined} />,
      'zh-CN',
    );
    const pick = await screen.findByRole('button', { name: '时间与时区' });
    const meta = pick.closest('li')!.querySelector('.catalogue-meta')!.textContent!;
    expect(meta).not.toMatch(/astral\.sh|github/i);
    expect(meta).toContain('pypi.tuna.tsinghua.edu.cn');
    expect(meta).toContain('设置 → 下载源');
  });
});

describe('the server form speaks plainly first', () => {
  it('names the kinds of server and the program fields in everyday words, the technical term after (zh-CN)', async () => {
    const harness = newBridge({});
    await renderWithBridge(harness, <ServerEditor existingNames={[]} onClose={() => undefined} />, 'zh-CN');
    const kinds = [...(screen.getByLabelText('类型') as HTMLSelectElement).options].map((o) => o.textContent ?? '');
    for (const kind of kinds) expect(kind).not.toMatch(/stdio|Streamable|SSE/);
    const labels = [...document.querySelectorAll('label, legend')].map((l) => l.textContent ?? '');
    for (const label of labels) expect(label).not.toMatch(/^(环境变量|工作目录)/);
    expect(labels).toContain('交给程序的设置 环境变量');
    // The term is still there, after the plain words, for those who know it.
    expect(document.body.textContent).toContain('stdio');
    expect(document.body.textContent).toContain('环境变量');
  });
});

/** The window's texts (the CLI's, which a terminal prints, are not the window's). */
const window = (dictionary: Record<string, string>) => Object.entries(dictionary).filter(([key]) => !key.startsWith('cli.'));

describe('the dictionaries keep jargon out of the everyday words', () => {
  it('no Chinese text says 路由模式, MCP 注册表 or 参数定义', () => {
    for (const [key, text] of window(zhCN)) expect(text, key).not.toMatch(/路由模式|MCP 注册表|参数定义/);
  });

  it('no English text says "router mode" or "MCP registry" (the registry\'s proper name may follow as its term)', () => {
    for (const [key, text] of window(en)) expect(text, key).not.toMatch(/router mode|MCP registry/);
  });
});
