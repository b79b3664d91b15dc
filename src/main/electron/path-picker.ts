import { type BrowserWindow, dialog, type OpenDialogOptions } from 'electron';

import type { PathRequest } from '../core/bridge/bridge-host';

/**
 * The system's picker for a catalogue value, over the window: a folder; a file, which may be new (the
 * memory server makes its file), so the save dialog, where a name can be typed; or, for a registry
 * entry's path, an existing file (or folder, where the system's picker can offer both: macOS).
 * The path picked, or null when the person cancelled.
 */
export async function choosePath(window: BrowserWindow | undefined, request: PathRequest): Promise<string | null> {
  const place = { title: request.title, ...(request.from ? { defaultPath: request.from } : {}) };
  if (request.kind === 'file') {
    const options = { ...place, properties: ['createDirectory' as const] };
    const saved = window ? await dialog.showSaveDialog(window, options) : await dialog.showSaveDialog(options);
    return saved.canceled || !saved.filePath ? null : saved.filePath;
  }
  const properties: OpenDialogOptions['properties'] =
    request.kind === 'folder'
      ? ['openDirectory', 'createDirectory']
      : process.platform === 'darwin'
        ? ['openFile', 'openDirectory']
        : ['openFile'];
  const options = { ...place, properties };
  const opened = window ? await dialog.showOpenDialog(window, options) : await dialog.showOpenDialog(options);
  return opened.canceled ? null : (opened.filePaths[0] ?? null);
}
