import type { Readable } from 'node:stream';
import type { Entry, ZipFile } from 'yauzl';
import { isSafeEntryName } from './names.js';

/** A zip that must not be unpacked: not a zip, unsafe names or links, or too large once expanded. */
export class BadZip extends Error {}

export interface ZipLimits {
  maxEntries: number;
  /** The largest sum of the entries' expanded sizes; null for none. */
  maxTotalBytes: number | null;
  /** The largest expanded:compressed ratio of an entry larger than `ratioFloorBytes`; null for none. */
  maxRatio: number | null;
  ratioFloorBytes: number;
}

const MB = 1024 * 1024;

/** What an upload may expand to: 500 MB in all, no entry expanding more than 100:1 past its first MB. */
export const UNTRUSTED: ZipLimits = { maxEntries: 100_000, maxTotalBytes: 500 * MB, maxRatio: 100, ratioFloorBytes: MB };

const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;

/**
 * A zip opened for reading with its entries checked before anything is
 * unpacked: names relative and inside the zip (no `..`, no absolute path, no
 * drive, no backslash, no control character), no symbolic links, no
 * duplicates, no encryption, and the declared sizes within the limits.
 * yauzl then holds every entry to its declared size while it is read, so a
 * zip that lies about its sizes fails as soon as it expands past them.
 */
export class SafeZip {
  private constructor(
    private readonly zip: ZipFile,
    /** Files by name (folders left out). */
    readonly entries: Map<string, Entry>,
  ) {}

  static async open(file: string, limits: ZipLimits): Promise<SafeZip> {
    let zip: ZipFile;
    // yauzl loads with the first import or restore, not with every process.
    const { default: yauzl } = await import('yauzl');
    try {
      zip = await yauzl.openPromise(file, {
        lazyEntries: true,
        autoClose: false,
        decodeStrings: true,
        validateEntrySizes: true,
        strictFileNames: true,
      });
    } catch (error) {
      throw new BadZip(`The file is not a readable zip (${(error as Error).message})`);
    }
    const entries = new Map<string, Entry>();
    let total = 0;
    try {
      if (zip.entryCount > limits.maxEntries) throw new BadZip(`The zip holds more than ${limits.maxEntries} entries`);
      for await (const entry of zip.eachEntry()) {
        const name = entry.fileName;
        if (!isSafeEntryName(name)) throw new BadZip(`The zip holds an unsafe name: ${JSON.stringify(name)}`);
        if (((entry.externalFileAttributes >>> 16) & S_IFMT) === S_IFLNK)
          throw new BadZip(`The zip holds a symbolic link: ${JSON.stringify(name)}`);
        if (entry.isEncrypted()) throw new BadZip(`The zip holds an encrypted entry: ${JSON.stringify(name)}`);
        if (name.endsWith('/')) continue;
        if (!entry.canDecodeFileData()) throw new BadZip(`The zip uses a compression method this service cannot read (${name})`);
        if (entries.has(name)) throw new BadZip(`The zip holds ${JSON.stringify(name)} twice`);
        total += entry.uncompressedSize;
        if (limits.maxTotalBytes !== null && total > limits.maxTotalBytes)
          throw new BadZip(`The zip expands to more than ${Math.round(limits.maxTotalBytes / MB)} MB`);
        if (
          limits.maxRatio !== null &&
          entry.uncompressedSize > limits.ratioFloorBytes &&
          entry.uncompressedSize > limits.maxRatio * Math.max(entry.compressedSize, 1)
        )
          throw new BadZip(`The zip entry ${JSON.stringify(name)} expands more than ${limits.maxRatio} times`);
        entries.set(name, entry);
      }
    } catch (error) {
      zip.close();
      if (error instanceof BadZip) throw error;
      throw new BadZip(`The zip is damaged or unsafe (${(error as Error).message})`);
    }
    return new SafeZip(zip, entries);
  }

  /** An entry's content as a stream; it errors if the data expands past the declared size. */
  async stream(entry: Entry): Promise<Readable> {
    try {
      return await this.zip.openReadStreamPromise(entry);
    } catch (error) {
      throw new BadZip(`The zip entry ${JSON.stringify(entry.fileName)} cannot be read (${(error as Error).message})`);
    }
  }

  /** An entry's content as UTF-8 text, refused past `maxBytes`. */
  async text(entry: Entry, maxBytes: number): Promise<string> {
    if (entry.uncompressedSize > maxBytes) throw new BadZip(`${entry.fileName} is larger than ${Math.round(maxBytes / MB)} MB`);
    const chunks: Buffer[] = [];
    try {
      for await (const chunk of await this.stream(entry)) chunks.push(chunk as Buffer);
    } catch (error) {
      if (error instanceof BadZip) throw error;
      throw new BadZip(`The zip entry ${JSON.stringify(entry.fileName)} is damaged (${(error as Error).message})`);
    }
    return Buffer.concat(chunks).toString('utf8');
  }

  close(): void {
    this.zip.close();
  }
}
