import { crc32, deflateRawSync } from 'node:zlib';
import yauzl from 'yauzl';

/**
 * Zips in tests: read a zip answer back, and build zips
 * by hand (names, modes and sizes that archiver would never write: `..`,
 * absolute paths, symbolic links, bombs, lying headers).
 */

export interface ZipContent {
  /** Entry names in the order they are stored. */
  names: string[];
  files: Map<string, Buffer>;
  /** Unix mode bits per entry (from the external attributes). */
  modes: Map<string, number>;
}

export async function readZip(buffer: Buffer): Promise<ZipContent> {
  const zip = await yauzl.fromBufferPromise(buffer, { lazyEntries: true, decodeStrings: true, validateEntrySizes: true });
  const names: string[] = [];
  const files = new Map<string, Buffer>();
  const modes = new Map<string, number>();
  for await (const entry of zip.eachEntry()) {
    names.push(entry.fileName);
    modes.set(entry.fileName, entry.externalFileAttributes >>> 16);
    const chunks: Buffer[] = [];
    for await (const chunk of await zip.openReadStreamPromise(entry)) chunks.push(chunk as Buffer);
    files.set(entry.fileName, Buffer.concat(chunks));
  }
  zip.close();
  return { names, files, modes };
}

export interface RawEntry {
  name: string;
  data: Buffer | string;
  /** deflate (default) or store. */
  store?: boolean;
  /** Unix mode, e.g. 0o120777 for a symbolic link; default a plain file. */
  mode?: number;
  /** The uncompressed size the headers claim (default: the true one). */
  declaredSize?: number;
}

/** A zip written byte by byte, exactly as described. */
export function rawZip(entries: RawEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const data = Buffer.from(entry.data);
    const body = entry.store ? data : deflateRawSync(data);
    const name = Buffer.from(entry.name, 'utf8');
    const crc = crc32(data);
    const size = entry.declaredSize ?? data.length;
    const method = entry.store ? 0 : 8;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6);
    local.writeUInt16LE(method, 8);
    local.writeUInt16LE(0, 10);
    local.writeUInt16LE(0x21, 12);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);
    locals.push(local, name, body);

    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE((3 << 8) | 20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(method, 10);
    central.writeUInt16LE(0, 12);
    central.writeUInt16LE(0x21, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt16LE(0, 30);
    central.writeUInt16LE(0, 32);
    central.writeUInt16LE(0, 34);
    central.writeUInt16LE(0, 36);
    central.writeUInt32LE(((entry.mode ?? 0o100644) << 16) >>> 0, 38);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);
    offset += local.length + name.length + body.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}
