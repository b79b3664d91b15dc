import zlib from 'node:zlib';

/** One member of a zip: a file (its Unix mode kept in the external attributes, as Info-ZIP and Python's zipfile do) or a symbolic link. */
export interface ZipMember {
  name: string;
  data: Buffer | string;
  /** Unix permission bits (0o644 unless given). */
  mode?: number;
  /** A symbolic link whose target is `data` (S_IFLNK in the external attributes). */
  symlink?: boolean;
  /** Kept as is instead of deflated. */
  stored?: boolean;
}

/**
 * A zip archive, written from PKWARE's APPNOTE.TXT (.ZIP File Format Specification, 6.3.x):
 * local file headers (4.3.7), the central directory (4.3.12) and its end record (4.3.16); no
 * zip64, no data descriptors. Names are taken as given, `../` and all: a test's hostile wheel is
 * made with it too.
 */
export function zipOf(members: ZipMember[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const member of members) {
    const name = Buffer.from(member.name, 'utf8');
    const raw = Buffer.isBuffer(member.data) ? member.data : Buffer.from(member.data, 'utf8');
    const method = member.stored ? 0 : 8;
    const body = method === 8 ? zlib.deflateRawSync(raw) : raw;
    const crc = zlib.crc32(raw);
    const type = member.symlink ? 0o120000 : 0o100000;
    const external = ((type | (member.mode ?? 0o644)) << 16) >>> 0;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(method, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(raw.length, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE((3 << 8) | 20, 4); // made by Unix, spec 2.0
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(method, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(raw.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(external, 38);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, body);
    centrals.push(central, name);
    offset += local.length + name.length + body.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(members.length, 8);
  end.writeUInt16LE(members.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}
