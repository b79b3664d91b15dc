// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
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
