import fs from 'node:fs';
import path from 'node:path';

import { describe, expect, it } from 'vitest';

import { checkPathValue, resolvePathValue } from '../../../../src/main/core/catalogue/path-values';
import { tempDirs } from '../../../helpers/temp-dirs';

const tempDir = tempDirs('xt-path-values-');

/** A walkthrough: "我的记忆.json" for the memory server's file was written into npx's download cache, where it starts. */
describe('folder and file values of catalogue servers', () => {
  it('a relative name is taken from the home folder, and ~ is that folder', () => {
    const home = path.resolve('/home/someone');
    expect(resolvePathValue('我的记忆.json', home)).toBe(path.join(home, '我的记忆.json'));
    expect(resolvePathValue(' Documents/notes ', home)).toBe(path.join(home, 'Documents', 'notes'));
    expect(resolvePathValue('~/记忆.json', home)).toBe(path.join(home, '记忆.json'));
    expect(resolvePathValue('~', home)).toBe(home);
    const absolute = path.resolve('/data/notes');
    expect(resolvePathValue(absolute, home)).toBe(absolute);
  });

  it('a folder must be there and be a folder ("我的文档" with no path was accepted and the server failed)', async () => {
    const home = tempDir();
    fs.mkdirSync(path.join(home, 'Documents'));
    fs.writeFileSync(path.join(home, 'note.txt'), 'x');
    expect(await checkPathValue('我的文档', 'folder', home)).toEqual({ path: path.join(home, '我的文档'), problem: 'missing' });
    expect(await checkPathValue('note.txt', 'folder', home)).toEqual({ path: path.join(home, 'note.txt'), problem: 'notFolder' });
    expect(await checkPathValue('Documents', 'folder', home)).toEqual({ path: path.join(home, 'Documents') });
  });

  it('a file may be new, in a folder that is there, and must not be a folder', async () => {
    const home = tempDir();
    fs.mkdirSync(path.join(home, 'Documents'));
    expect(await checkPathValue('我的记忆.json', 'file', home)).toEqual({ path: path.join(home, '我的记忆.json') });
    expect(await checkPathValue('Documents', 'file', home)).toEqual({ path: path.join(home, 'Documents'), problem: 'notFile' });
    expect(await checkPathValue('没有的文件夹/记忆.json', 'file', home)).toEqual({
      path: path.join(home, '没有的文件夹', '记忆.json'),
      problem: 'noParent',
    });
  });
});
