import { describe, expect, it } from 'vitest';

import { CatalogueEntrySchema, serverFromEntry, valuesFromServer } from '../../src/shared/catalogue';

const entry = CatalogueEntrySchema.parse({
  id: 'example',
  name: 'example',
  title: { en: 'Example', zh: '示例' },
  description: { en: 'An example.', zh: '示例。' },
  category: 'other',
  homepage: 'https://example.com/',
  run: { transport: 'stdio', command: 'npx', args: ['-y', 'example-server', '--dir={folder}'], env: { API_KEY: '{key}' } },
  values: [
    { id: 'folder', label: { en: 'Folder', zh: '文件夹' }, kind: 'folder', required: false },
    { id: 'key', label: { en: 'Key', zh: '密钥' }, kind: 'secret', required: true },
  ],
});

/** Editing a server added from the catalogue shows its values again, not the developer form. */
describe('the values a catalogue server was made with', () => {
  it('reads back the values, a left-out optional one as empty, and remembers the entry', () => {
    const server = serverFromEntry(entry, { folder: '/data', key: 'k1' }, 'mine');
    expect(server).toMatchObject({ catalogue: 'example', name: 'mine' });
    expect(valuesFromServer(entry, server)).toEqual({ folder: '/data', key: 'k1' });
    expect(valuesFromServer(entry, serverFromEntry(entry, { folder: '', key: 'k1' }))).toEqual({ folder: '', key: 'k1' });
  });

  it('a server changed by hand in ways the entry cannot express is left to the developer form', () => {
    const server = serverFromEntry(entry, { folder: '/data', key: 'k1' });
    if (server.transport !== 'stdio') throw new Error('a stdio entry makes a stdio server');
    expect(valuesFromServer(entry, { ...server, args: [...server.args, '--verbose'] })).toBeUndefined();
    expect(valuesFromServer(entry, { ...server, command: 'node' })).toBeUndefined();
    expect(valuesFromServer(entry, { ...server, env: { ...server.env, DEBUG: '1' } })).toBeUndefined();
    expect(valuesFromServer(entry, { ...server, cwd: '/tmp' })).toBeUndefined();
    expect(valuesFromServer(entry, { ...server, transport: 'sse', url: 'http://x/' })).toBeUndefined();
  });
});
