// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { serversPageWithFakeNpx } from '../helpers/servers-page';
import { tempDirs } from '../helpers/temp-dirs';

const tempDir = tempDirs('xt-card-words-');
const openServers = serversPageWithFakeNpx();

const memory = (file: string) => ({
  name: 'memory',
  transport: 'stdio',
  command: 'npx',
  args: ['-y', '@modelcontextprotocol/server-memory'],
  env: { MEMORY_FILE_PATH: file },
  catalogue: 'memory',
});
const byHand = { name: 'mine', transport: 'stdio', command: 'npx', args: ['-y', 'my-own-mcp', '--verbose'] };

/** A walkthrough: every card showed its raw command line (npx -y @modelcontextprotocol/server-memory …) to everyone. */
describe.skipIf(process.platform === 'win32')('what a server card says', () => {
  for (const [language, title, description, value, details] of [
    ['zh-CN', '记忆（知识图谱）', '让助手跨对话记住人、事物和事实，保存在本机的一个文件里。', '记忆文件：', '详细信息'],
    [
      'en',
      'Memory (knowledge graph)',
      'Lets the assistant remember people, things and facts across conversations, in a file on this computer.',
      'Memory file: ',
      'Details',
    ],
  ] as const) {
    it(`a server from the catalogue: its title, plain description and values; the command line behind ${details} (${language})`, async () => {
      const file = `${tempDir()}/记忆.json`;
      await openServers(language, [memory(file), byHand]);
      const card = await waitFor(() => document.getElementById('server-memory')!);
      const heading = await within(card).findByText(title);
      expect(heading.tagName).toBe('STRONG');
      expect(within(card).getByText(description)).toBeTruthy();
      expect(within(card).getByText(`${value}${file}`)).toBeTruthy();
      // The command is there for who wants it, inside a closed details.
      const command = within(card).getByText(/npx -y @modelcontextprotocol\/server-memory/);
      const behind = command.closest('details')!;
      expect(behind.open).toBe(false);
      expect(within(behind).getByText(details).tagName).toBe('SUMMARY');
      // A server added by hand keeps its command in sight, in small text.
      const mine = document.getElementById('server-mine')!;
      const line = within(mine).getByText('npx -y my-own-mcp --verbose');
      expect(line.closest('details')).toBeNull();
      expect(line.classList.contains('small')).toBe(true);
      expect(screen.getAllByText(/npx -y/)).toHaveLength(2);
    });
  }
});

/** Seen in the window's screenshots: 已关闭 beside 已停止 said one thing twice; Edit named the server "files" under its card's title. */
describe.skipIf(process.platform === 'win32')('a switched-off catalogue server and its edit step', () => {
  it('says 已关闭 once, and Edit is titled by what the card says, without the first-start note (zh-CN)', async () => {
    const folder = tempDir();
    await openServers('zh-CN', [
      {
        name: 'files',
        transport: 'stdio',
        command: 'npx',
        args: ['-y', '@modelcontextprotocol/server-filesystem', folder],
        enabled: false,
        catalogue: 'filesystem',
      },
    ]);
    const card = document.getElementById('server-files')!;
    await within(card).findByText('本机文件');
    expect(within(card).getByText('已关闭')).toBeTruthy();
    expect(within(card).queryByText('已停止')).toBeNull();
    fireEvent.click(within(card).getByRole('button', { name: '编辑' }));
    const step = await screen.findByRole('dialog');
    expect(within(step).getByRole('heading').textContent).toBe('编辑“本机文件”');
    expect(step.textContent).not.toContain('首次启动');
  });
});

/** A walkthrough: changing the memory file started with no memories, and nothing said the old file still held them. */
describe.skipIf(process.platform === 'win32')('editing a catalogue server’s file value', () => {
  for (const [language, note] of [
    // Where the old data stays, and (walkthrough 4) that the new file starts empty: the memories are not carried over.
    [
      'zh-CN',
      (old: string) =>
        `以前的内容仍保存在之前的“记忆文件”里（${old}），不会移动，也不会删除。保存后服务改用新文件：新文件还不存在时，从空的开始。`,
    ],
    [
      'en',
      (old: string) =>
        `What the earlier “Memory file” holds stays in it (${old}); it is neither moved nor deleted. After Save the server uses the new file, which starts empty if it does not exist yet.`,
    ],
  ] as const) {
    it(`says where the old file's data stays, before Save, once the value changes (${language})`, async () => {
      const old = `${tempDir()}/记忆.json`;
      await openServers(language, [{ ...memory(old), enabled: false }]);
      const card = await waitFor(() => document.getElementById('server-memory')!);
      fireEvent.click(within(card).getByRole('button', { name: language === 'en' ? 'Edit' : '编辑' }));
      const step = await screen.findByRole('dialog');
      const input = within(step).getByRole('textbox', { name: language === 'en' ? /Memory file/ : /记忆文件/ });
      expect((input as HTMLInputElement).value).toBe(old);
      // Unchanged: nothing to say.
      expect(step.textContent).not.toContain(note(old));
      fireEvent.change(input, { target: { value: `${tempDir()}/new.json` } });
      expect(within(step).getByText(note(old))).toBeTruthy();
      // Back to the old file: nothing is left behind.
      fireEvent.change(input, { target: { value: old } });
      expect(step.textContent).not.toContain(note(old));
    });
  }
});

/** A walkthrough (issue 33): the memory file left empty when added, then set in Edit, started an empty memory without a word. */
describe.skipIf(process.platform === 'win32')('editing a catalogue server’s file value that was left empty', () => {
  for (const [language, note] of [
    ['zh-CN', '之前没有填“记忆文件”，内容存在一个隐藏的临时位置，不会搬到新文件里：服务会从新文件开始（新文件不存在时就是空的）。'],
    [
      'en',
      'The “Memory file” was left empty before, so what it holds is in a hidden temporary place and is not moved to the new file: the server starts from the new file (empty if it does not exist yet).',
    ],
  ] as const) {
    it(`says the old data is not carried over, before Save (${language})`, async () => {
      const { env: _env, ...noFile } = memory('');
      await openServers(language, [{ ...noFile, enabled: false }]);
      const card = await waitFor(() => document.getElementById('server-memory')!);
      fireEvent.click(within(card).getByRole('button', { name: language === 'en' ? 'Edit' : '编辑' }));
      const step = await screen.findByRole('dialog');
      const input = within(step).getByRole('textbox', { name: language === 'en' ? /Memory file/ : /记忆文件/ });
      expect((input as HTMLInputElement).value).toBe('');
      expect(step.textContent).not.toContain(note);
      fireEvent.change(input, { target: { value: `${tempDir()}/new.json` } });
      expect(within(step).getByText(note)).toBeTruthy();
    });
  }
});
