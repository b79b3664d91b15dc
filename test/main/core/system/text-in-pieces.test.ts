import fs from 'node:fs';
import path from 'node:path';

import { describe, expect, it } from 'vitest';

import { readLinesInPieces, readTextInPieces, writeTextInPieces } from '../../../../src/main/core/system/text-in-pieces';
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

  it('reads complete lines only, from where the last read stopped, lines and characters cut by a piece boundary included', () => {
    const file = path.join(tempDir(), 'activity.jsonl');
    // Lines of many lengths (one longer than a piece) with 3- and 4-byte characters: some cross each boundary.
    const lines = Array.from(
      { length: 3000 },
      (_, i) => `${'小智é'.repeat(150).slice(0, (i * 37) % 400)}😀` + (i === 1500 ? 'y'.repeat(70_000) : ''),
    );
    fs.writeFileSync(file, `${lines.join('\n')}\n{"torn`);
    const fd = fs.openSync(file, 'r');
    try {
      const read: string[] = [];
      const end = readLinesInPieces(fd, 0, (line) => read.push(line));
      expect(read).toEqual(lines);
      expect(end).toBe(fs.statSync(file).size - '{"torn'.length);
      // The torn line completed (another writer finished it), then more: the next read starts where this one stopped.
      fs.appendFileSync(file, '"}\nnext\n');
      const more: string[] = [];
      expect(readLinesInPieces(fd, end, (line) => more.push(line))).toBe(fs.statSync(file).size);
      expect(more).toEqual(['{"torn"}', 'next']);
    } finally {
      fs.closeSync(fd);
    }
  });
});
