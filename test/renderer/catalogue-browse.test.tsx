// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import type { PathRequest } from '../../src/main/core/bridge/bridge-host';
import { headlessHost } from '../../src/main/core/bridge/bridge-host';
import { serversPageWithFakeNpx } from '../helpers/servers-page';
import { tempDirs } from '../helpers/temp-dirs';

const tempDir = tempDirs('xt-browse-');
const openServers = serversPageWithFakeNpx();

/** The desktop app's host, its picker a stand-in for Electron's dialog (src/main/electron/path-picker.ts) that picks `folder`. */
function desktopHost(picked: string | null, asked: PathRequest[]) {
  return {
    host: {
      info: () => ({ ...headlessHost.info(), carrier: 'electron' as const }),
      choosePath: async (request: PathRequest) => (asked.push(request), picked),
    },
  };
}

/** A walkthrough: a folder value had only a text field; a person who is not a developer does not type paths. */
describe.skipIf(process.platform === 'win32')('choosing a folder with the system picker', () => {
  it('the desktop app offers 选择… beside a folder value; the folder picked fills the field and is added (zh-CN)', async () => {
    const folder = tempDir();
    const asked: PathRequest[] = [];
    const { harness } = await openServers('zh-CN', [], '#/servers?add=catalogue', {}, desktopHost(folder, asked));
    fireEvent.click(await screen.findByRole('button', { name: '添加 本机文件' }));
    const step = screen.getByRole('dialog');
    fireEvent.click(within(step).getByRole('button', { name: '选择…' }));
    const field = within(step).getByLabelText('允许访问的文件夹 *') as HTMLInputElement;
    await waitFor(() => expect(field.value).toBe(folder));
    expect(asked).toEqual([{ kind: 'folder', title: '允许访问的文件夹' }]);
    fireEvent.click(within(step).getByRole('button', { name: '添加' }));
    await waitFor(() =>
      expect(harness.store.load().servers).toMatchObject([{ name: 'filesystem', args: [expect.any(String), expect.any(String), folder] }]),
    );
  });

  it('cancelled, the field keeps what it held; the picker opens where the field points (en)', async () => {
    const folder = tempDir();
    const asked: PathRequest[] = [];
    await openServers('en', [], '#/servers?add=catalogue', {}, desktopHost(null, asked));
    fireEvent.click(await screen.findByRole('button', { name: 'Add Files on this computer' }));
    const step = screen.getByRole('dialog');
    const field = within(step).getByLabelText('Folder it may use *') as HTMLInputElement;
    fireEvent.change(field, { target: { value: folder } });
    fireEvent.click(within(step).getByRole('button', { name: 'Browse…' }));
    await waitFor(() => expect(asked).toEqual([{ kind: 'folder', title: 'Folder it may use', from: folder }]));
    expect(field.value).toBe(folder);
  });

  it('the headless web page has no picker: no button, the path is typed (en)', async () => {
    await openServers('en', [], '#/servers?add=catalogue');
    fireEvent.click(await screen.findByRole('button', { name: 'Add Files on this computer' }));
    const step = screen.getByRole('dialog');
    expect(within(step).getByLabelText('Folder it may use *')).toBeTruthy();
    expect(within(step).queryByRole('button', { name: 'Browse…' })).toBeNull();
  });
});
