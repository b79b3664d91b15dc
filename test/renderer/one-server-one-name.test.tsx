// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { ServerEditor } from '../../src/renderer/pages/server-editor';
import { bridgeEachTest, renderWithBridge } from '../helpers/render-app';
import { serversPageWithFakeNpx } from '../helpers/servers-page';
import { tempDirs } from '../helpers/temp-dirs';

const newBridge = bridgeEachTest();
const openServers = serversPageWithFakeNpx();
const tempDir = tempDirs('xt-one-name-');

const memory = {
  name: 'memory',
  transport: 'stdio' as const,
  command: 'npx',
  args: ['-y', '@modelcontextprotocol/server-memory'],
  env: {},
  enabled: false,
  catalogue: 'memory',
};

// The fourth walkthrough (issue 33): the page called a server 记忆（知识图谱） and then, adding it again, warned
// "它运行的程序和“memory”相同"; its details said "名称：memory"; its detailed editor was titled 编辑“filesystem”.
describe('a catalogue server is named by its title; its internal name only where it is edited, explained', () => {
  it('the copy warning names the held server by its title (zh-CN)', async () => {
    await renderWithBridge(
      newBridge({ servers: [memory] }),
      <ServerEditor existingNames={['memory']} onClose={() => undefined} />,
      'zh-CN',
    );
    fireEvent.change(screen.getByLabelText('名称'), { target: { value: 'memory2' } });
    fireEvent.change(screen.getByLabelText('命令'), { target: { value: 'npx' } });
    fireEvent.change(screen.getByLabelText('参数'), { target: { value: '@modelcontextprotocol/server-memory' } });
    expect(await screen.findByText(/^它运行的程序和“记忆（知识图谱）”相同。/)).toBeTruthy();
  });

  for (const [language, title, label, hint] of [
    ['zh-CN', '编辑“记忆（知识图谱）”', '内部名称', /配置文件/],
    ['en', 'Edit "Memory (knowledge graph)"', 'Internal name', /config file/],
  ] as const) {
    it(`the detailed editor is titled by the title; the name field says what the internal name is for (${language})`, async () => {
      await renderWithBridge(
        newBridge({ servers: [memory] }),
        <ServerEditor server={memory} existingNames={['memory']} onClose={() => undefined} />,
        language,
      );
      const dialog = await screen.findByRole('dialog');
      await waitFor(() => expect(within(dialog).getAllByRole('heading')[0]?.textContent).toBe(title));
      const field = within(dialog).getByLabelText(label) as HTMLInputElement;
      expect(field.value).toBe('memory');
      expect(within(dialog).getByText(hint)).toBeTruthy();
    });
  }

  it.skipIf(process.platform === 'win32')('the card’s details: 名称 is the title, the internal name beside it, small', async () => {
    await openServers('zh-CN', [{ ...memory, env: { MEMORY_FILE_PATH: `${tempDir()}/记忆.json` } }]);
    const card = await waitFor(() => document.getElementById('server-memory')!);
    await within(card).findByText('记忆（知识图谱）', { selector: 'strong' });
    const details = within(card).getByText('详细信息').closest('details')!;
    expect(within(details).getByText('名称：记忆（知识图谱）')).toBeTruthy();
    expect(within(details).getByText('内部名称：memory').classList.contains('small')).toBe(true);
    expect(within(details).queryByText('名称：memory')).toBeNull();
  });
});
