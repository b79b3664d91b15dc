import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readTextInPieces } from '../../../../src/main/core/system/read-in-pieces';
import { tempDirs } from '../../../helpers/temp-dirs';

const tempDir = tempDirs('read-in-pieces-');

describe('a text file read in pieces', () => {
  it('reads what readFileSync reads, characters cut by a piece boundary included', () => {
    const file = path.join(tempDir(), 'activity.json');
    // 3-byte and 4-byte characters at every offset: some straddle each 64 KB boundary.
    const text = Array.from({ length: 60_000 }, (_, i) => (i % 3 === 0 ? '小智' : i % 3 === 1 ? '😀x' : 'ab')).join('');
    fs.writeFileSync(file, text);
    expect(fs.statSync(file).size).toBeGreaterThan(3 * 64 * 1024);
    expect(readTextInPieces(file)).toBe(fs.readFileSync(file, 'utf8'));
  });

  it('throws for a file that is not there, as readFileSync does', () => {
    expect(() => readTextInPieces(path.join(tempDir(), 'missing.json'))).toThrow(/ENOENT/);
  });
});
