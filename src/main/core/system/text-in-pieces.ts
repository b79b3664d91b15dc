import fs from 'node:fs';
import { StringDecoder } from 'node:string_decoder';

/** Under glibc's first mmap threshold (128 KB): a buffer this size, freed, leaves its thresholds where they are. */
const PIECE_BYTES = 64 * 1024;

/**
 * A text file read 64 KB at a time (what `fs.readFileSync(file, 'utf8')` gives). One read of a
 * file over 128 KB is a buffer glibc maps and, once it is freed, raises its trim threshold past:
 * from then on, memory the process frees (V8 parsing, a burst of calls) stays resident. Throws
 * as readFileSync does.
 */
export function readTextInPieces(file: string): string {
  const fd = fs.openSync(file, 'r');
  const piece = Buffer.allocUnsafeSlow(PIECE_BYTES);
  const decoder = new StringDecoder('utf8');
  let text = '';
  try {
    for (let n; (n = fs.readSync(fd, piece, 0, PIECE_BYTES, null)) > 0;) text += decoder.write(piece.subarray(0, n));
  } finally {
    fs.closeSync(fd);
  }
  return text + decoder.end();
}

/** Characters written at a time: at most 96 KB of UTF-8, under the same threshold. */
const PIECE_CHARS = 32 * 1024;

/** `fs.writeFileSync(fd, text)`, in pieces of at most 96 KB, for the same reason (a 1.5 MB activity file is written every few seconds under calls). */
export function writeTextInPieces(fd: number, text: string): void {
  for (let start = 0; start < text.length;) {
    let end = Math.min(start + PIECE_CHARS, text.length);
    // Never between the two halves of a surrogate pair: each half alone would be written as U+FFFD.
    if (end < text.length && /[\uD800-\uDBFF]/.test(text.charAt(end - 1))) end--;
    const bytes = Buffer.from(text.slice(start, end), 'utf8');
    for (let written = 0; written < bytes.length;) written += fs.writeSync(fd, bytes, written, bytes.length - written);
    start = end;
  }
}

const NEWLINE = 0x0a;

/**
 * The complete lines of an open file from byte `from` on, read 64 KB at a time (the rule above),
 * each handed to `onLine` without its newline (with the byte after it). A last line without its newline (being written, or
 * torn by a crash) is not handed over. Returns the byte after the last complete line: where to read
 * from next time.
 */
export function readLinesInPieces(fd: number, from: number, onLine: (line: string, next: number) => void): number {
  const piece = Buffer.allocUnsafeSlow(PIECE_BYTES);
  let position = from;
  // The start of a line that runs past a piece (rare: lines are short).
  let carried: Buffer | undefined;
  let end = from;
  for (let n; (n = fs.readSync(fd, piece, 0, PIECE_BYTES, position)) > 0; position += n) {
    let start = 0;
    for (let newline; (newline = piece.indexOf(NEWLINE, start)) !== -1 && newline < n; start = newline + 1) {
      end = position + newline + 1;
      if (carried) {
        onLine(Buffer.concat([carried, piece.subarray(start, newline)]).toString('utf8'), end);
        carried = undefined;
      } else onLine(piece.toString('utf8', start, newline), end);
    }
    if (start < n) carried = carried ? Buffer.concat([carried, piece.subarray(start, n)]) : Buffer.from(piece.subarray(start, n));
  }
  return end;
}

/** Copies an open file's bytes from `from` to its end (as it is while copying) into another, 64 KB at a time. */
export function copyInPieces(source: number, from: number, target: number): void {
  const piece = Buffer.allocUnsafeSlow(PIECE_BYTES);
  for (let n, position = from; (n = fs.readSync(source, piece, 0, PIECE_BYTES, position)) > 0; position += n)
    for (let done = 0; done < n;) done += fs.writeSync(target, piece, done, n - done);
}
