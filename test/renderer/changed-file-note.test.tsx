// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { serversPageWithFakeNpx } from '../helpers/servers-page';
import { tempDirs } from '../helpers/temp-dirs';

const tempDir = tempDirs('xt-changed-file-');
const openServers = serversPageWithFakeNpx();

const memory = (file: string) => ({
  name: 'memory',
  transport: 'stdio',
  command: 'npx',
  args: ['-y', '@modelcontextprotocol/server-memory'],
  env: { MEMORY_FILE_PATH: file },
  catalogue: 'memory',
  enabled: false,
});

/** A walkthrough: changing the memory file started with no memories, and nothing said the old file still held them. */
describe.skipIf(process.platform === 'win32')('editing a catalogue server’s file value', () => {
  for (const [language, note] of [
    ['zh-CN', (old: string) => `之前的“记忆文件”没有移动，也没有删除，里面的内容仍保存在：${old}`],
    ['en', (old: string) => `The earlier “Memory file” is neither moved nor deleted: what it holds stays in ${old}`],
  ] as const) {
    it(`says where the old file's data stays, before Save, once the value changes (${language})`, async () => {
      const old = `${tempDir()}/记忆.json`;
      await openServers(language, [memory(old)]);
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
