import fs from 'node:fs';
import path from 'node:path';

import { describe, expect, it } from 'vitest';

import { readTextInPieces, writeTextInPieces } from '../../../../src/main/core/system/text-in-pieces';
import { tempDirs } from '../../../helpers/temp-dirs';

const tempDir = tempDirs('read-in-pieces-');

// 3-byte and 4-byte characters at every offset: some straddle each piece's boundary.
const MIXED = Array.from({ length: 60_000 }, (_, i) => (i % 3 === 0 ? '小智' : i % 3 === 1 ? '😀x' : 'ab')).join('');

describe('a text file read and written in pieces', () => {
  it('writes what writeFileSync writes, surrogate pairs cut by a piece boundary included', () => {
    const file = path.join(tempDir(), 'written.json');
    const fd = fs.openSync(file, 'w');
    // A pair right at the first boundary (32 Ki characters).
    const text = `${'a'.repeat(32 * 1024 - 1)}😀${MIXED}`;
    writeTextInPieces(fd, text);
    fs.closeSync(fd);
    expect(fs.readFileSync(file, 'utf8')).toBe(text);
  });

  it('reads what readFileSync reads, characters cut by a piece boundary included', () => {
    const file = path.join(tempDir(), 'activity.json');
    fs.writeFileSync(file, MIXED);
    expect(fs.statSync(file).size).toBeGreaterThan(3 * 64 * 1024);
    expect(readTextInPieces(file)).toBe(MIXED);
  });

  it('throws for a file that is not there, as readFileSync does', () => {
    expect(() => readTextInPieces(path.join(tempDir(), 'missing.json'))).toThrow(/ENOENT/);
  });
});
