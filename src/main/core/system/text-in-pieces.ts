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
