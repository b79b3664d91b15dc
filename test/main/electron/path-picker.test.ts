import { describe, expect, it, vi } from 'vitest';

import { FakeBrowserWindow } from '../../helpers/electron-mock';

// Electron's dialog (electron/docs/api/dialog.md): showOpenDialog answers { canceled, filePaths }, showSaveDialog { canceled, filePath }.
const dialog = vi.hoisted(() => ({
  showOpenDialog: vi.fn(async (..._args: unknown[]) => ({ canceled: false, filePaths: ['/home/me/文档'] })),
  showSaveDialog: vi.fn(async (..._args: unknown[]) => ({ canceled: false, filePath: '/home/me/记忆.json' })),
}));
vi.mock('electron', () => ({ dialog }));
// The files share their worker (isolate: false): a file before this one (second-instance, through
// src/main/index.ts) may have loaded the picker already, bound to its own Electron mock's dialog.
// Loaded again here, the picker asks this file's dialog.
vi.resetModules();
const { choosePath } = await import('../../../src/main/electron/path-picker');

describe('the system folder and file picker (desktop app)', () => {
  it('asks for a folder over the window, opening where the field points, and answers the folder picked', async () => {
    const window = new FakeBrowserWindow({});
    expect(await choosePath(window as never, { kind: 'folder', title: '允许访问的文件夹', from: '/home/me' })).toBe('/home/me/文档');
    expect(dialog.showOpenDialog).toHaveBeenLastCalledWith(window, {
      title: '允许访问的文件夹',
      defaultPath: '/home/me',
      properties: ['openDirectory', 'createDirectory'],
    });
  });

  it('offers the save dialog for a file, which may be new (a name can be typed there)', async () => {
    expect(await choosePath(undefined, { kind: 'file', title: 'Memory file' })).toBe('/home/me/记忆.json');
    expect(dialog.showSaveDialog).toHaveBeenLastCalledWith({ title: 'Memory file', properties: ['createDirectory'] });
  });

  it('answers null when the person cancels', async () => {
    dialog.showOpenDialog.mockResolvedValueOnce({ canceled: true, filePaths: [] });
    expect(await choosePath(undefined, { kind: 'path', title: 'Config' })).toBeNull();
    dialog.showSaveDialog.mockResolvedValueOnce({ canceled: true, filePath: '' });
    expect(await choosePath(undefined, { kind: 'file', title: 'Memory file' })).toBeNull();
  });
});
