import fs from 'node:fs';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';

/** The most a program taken from a wheel may be, unpacked (uv is some 50 MB). */
export const MAX_PROGRAM_BYTES = 256 * 1024 * 1024;

/** A wheel's central directory is read whole: uv's holds a dozen entries, a few KB. */
const MAX_DIRECTORY_BYTES = 4 * 1024 * 1024;

interface Entry {
  name: string;
  method: number;
  flags: number;
  compressed: number;
  size: number;
  crc: number;
  offset: number;
  /** The Unix file type and mode, when the zip was made on Unix (0 otherwise). */
  unixMode: number;
}

/**
 * Takes `members` (member name → file name) out of a wheel, a zip (the wheel spec; PKWARE's
 * APPNOTE.TXT for the layout), into the folder `into`, each written as a new regular file under
 * the name the caller gives: no name or path from the archive is ever written to, so `../` and
 * absolute names cannot reach out. A member that is missing, twice in the directory, a symbolic link
 * or any other non-file, encrypted, zip64, or that unpacks to other than its recorded size and CRC
 * fails the whole. Nothing else in the wheel is read.
 */
export async function takeFromWheel(wheel: string, members: [member: string, file: string][], into: string): Promise<void> {
  const handle = await fs.promises.open(wheel, 'r');
  try {
    const { size } = await handle.stat();
    const entries = await readDirectory(handle, size);
    for (const [member, file] of members) {
      const matches = entries.filter((entry) => entry.name === member);
      if (matches.length === 0) throw new Error(`the wheel holds no ${member}`);
      if (matches.length > 1) throw new Error(`the wheel holds ${member} twice`);
      const entry = matches[0]!;
      const type = entry.unixMode & 0o170000;
      if (type === 0o120000) throw new Error(`${member} in the wheel is a symbolic link, not a program`);
      if (type !== 0 && type !== 0o100000) throw new Error(`${member} in the wheel is not a file`);
      if (entry.flags & 0x1) throw new Error(`${member} in the wheel is encrypted`);
      if (entry.method !== 0 && entry.method !== 8) throw new Error(`${member} in the wheel is compressed by method ${entry.method}`);
      if (entry.size > MAX_PROGRAM_BYTES) throw new Error(`${member} in the wheel is ${entry.size} bytes, more than a program can be`);
      await copyOut(handle, size, entry, path.join(into, file));
    }
  } finally {
    await handle.close();
  }
}

/** The central directory, found by its end record (APPNOTE 4.3.16), the last 22 bytes bar a comment. */
async function readDirectory(handle: fs.promises.FileHandle, size: number): Promise<Entry[]> {
  const tail = Math.min(size, 22 + 0xffff);
  const end = await readAt(handle, size - tail, tail);
  let at = -1;
  for (let i = end.length - 22; i >= 0; i--)
    if (end.readUInt32LE(i) === 0x06054b50) {
      at = i;
      break;
    }
  if (at < 0) throw new Error('the wheel is not a zip archive');
  const count = end.readUInt16LE(at + 10);
  const length = end.readUInt32LE(at + 12);
  const start = end.readUInt32LE(at + 16);
  if (count === 0xffff || length === 0xffffffff || start === 0xffffffff) throw new Error('the wheel is a zip64 archive');
  if (length > MAX_DIRECTORY_BYTES || start + length > size - tail + at) throw new Error("the wheel's directory is damaged");
  const directory = await readAt(handle, start, length);
  const entries: Entry[] = [];
  let p = 0;
  for (let i = 0; i < count; i++) {
    if (p + 46 > directory.length || directory.readUInt32LE(p) !== 0x02014b50) throw new Error("the wheel's directory is damaged");
    const nameLength = directory.readUInt16LE(p + 28);
    const next = p + 46 + nameLength + directory.readUInt16LE(p + 30) + directory.readUInt16LE(p + 32);
    if (next > directory.length) throw new Error("the wheel's directory is damaged");
    const madeOnUnix = directory.readUInt8(p + 5) === 3;
    entries.push({
      name: directory.toString('utf8', p + 46, p + 46 + nameLength),
      flags: directory.readUInt16LE(p + 8),
      method: directory.readUInt16LE(p + 10),
      crc: directory.readUInt32LE(p + 16),
      compressed: directory.readUInt32LE(p + 20),
      size: directory.readUInt32LE(p + 24),
      offset: directory.readUInt32LE(p + 42),
      unixMode: madeOnUnix ? directory.readUInt32LE(p + 38) >>> 16 : 0,
    });
    p = next;
  }
  return entries;
}

/** One member, streamed from its local header (APPNOTE 4.3.7) into a new file, its size and CRC checked. */
async function copyOut(handle: fs.promises.FileHandle, size: number, entry: Entry, dest: string): Promise<void> {
  if (entry.compressed === 0xffffffff || entry.size === 0xffffffff || entry.offset === 0xffffffff)
    throw new Error(`${entry.name} in the wheel is zip64`);
  const local = await readAt(handle, entry.offset, 30);
  if (local.length < 30 || local.readUInt32LE(0) !== 0x04034b50) throw new Error(`${entry.name} in the wheel is damaged`);
  const start = entry.offset + 30 + local.readUInt16LE(26) + local.readUInt16LE(28);
  if (start + entry.compressed > size) throw new Error(`${entry.name} in the wheel is damaged`);
  let written = 0;
  let crc = 0;
  const check = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      written += chunk.length;
      if (written > entry.size) return done(new Error(`${entry.name} in the wheel unpacks to more than its ${entry.size} bytes`));
      crc = zlib.crc32(chunk, crc);
      done(null, chunk);
    },
  });
  // 'wx': a new file, never one (or a link) already there.
  const out = fs.createWriteStream(dest, { flags: 'wx', mode: 0o755 });
  if (entry.compressed === 0) await pipeline(Readable.from([]), out);
  else {
    const input = handle.createReadStream({ start, end: start + entry.compressed - 1, autoClose: false });
    if (entry.method === 8) await pipeline(input, zlib.createInflateRaw(), check, out);
    else await pipeline(input, check, out);
  }
  if (written !== entry.size || crc >>> 0 !== entry.crc) throw new Error(`${entry.name} in the wheel is damaged (its size or CRC differs)`);
}

async function readAt(handle: fs.promises.FileHandle, position: number, length: number): Promise<Buffer> {
  const buffer = Buffer.alloc(length);
  const { bytesRead } = await handle.read(buffer, 0, length, position);
  return buffer.subarray(0, bytesRead);
}
