import { randomBytes } from 'node:crypto';
import { constants, createWriteStream } from 'node:fs';
import { copyFile, mkdir, open, readdir, rename, rm, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Db } from '../db/database.js';
import { referencedStoredNames } from './files.repository.js';

/** The upload was larger than the limit; nothing was kept. */
export class UploadTooLarge extends Error {
  constructor() {
    super('The file is larger than the upload limit');
  }
}

/** The client stopped sending before the file was complete; nothing was kept. */
export class UploadInterrupted extends Error {
  constructor(cause: unknown) {
    super('The upload did not complete', { cause });
  }
}

export interface SavedFile {
  storedName: string;
  size: number;
  /** The first bytes of the file, to tell its kind by its content. */
  head: Buffer;
}

export interface OpenedFile {
  stream: Readable;
  size: number;
}

/** How many leading bytes `save` keeps for content checks. */
const HEAD_BYTES = 16;
/** A stored name: 32 random hex digits and an optional short lower-case extension. */
const STORED_NAME = /^[0-9a-f]{32}(\.[a-z0-9]{1,10})?$/;

export function isStoredName(name: string): boolean {
  return STORED_NAME.test(name);
}

/**
 * The files behind attachments and pasted pictures, under `DATA_DIR/uploads/`.
 * A file is first written to `uploads/tmp/` and renamed to its random stored
 * name only once it arrived whole and within the limit; any failure removes
 * the partial file, so an aborted or refused upload leaves nothing behind.
 */
export class UploadStore {
  readonly dir: string;
  readonly tmpDir: string;

  constructor(dataDir: string) {
    this.dir = path.join(dataDir, 'uploads');
    this.tmpDir = path.join(this.dir, 'tmp');
  }

  /**
   * Removes partial uploads a killed process left in `tmp/`. Only old ones:
   * another process sharing DATA_DIR may be writing a fresh one right now.
   */
  async sweepTmp(olderThanMs = 3600_000): Promise<number> {
    let removed = 0;
    let names: string[];
    try {
      names = await readdir(this.tmpDir);
    } catch {
      return 0;
    }
    for (const name of names) {
      const file = path.join(this.tmpDir, name);
      const info = await stat(file).catch(() => null);
      if (
        info &&
        Date.now() - info.mtimeMs > olderThanMs &&
        (await rm(file, { force: true }).then(
          () => true,
          () => false,
        ))
      )
        removed++;
    }
    return removed;
  }

  /** The path of a stored file; refuses anything that is not a stored name (no way out of the folder). */
  pathOf(storedName: string): string {
    if (!isStoredName(storedName)) throw new Error(`not a stored file name: ${JSON.stringify(storedName)}`);
    return path.join(this.dir, storedName);
  }

  /**
   * Streams `source` to a temporary file, counting bytes (past `limitBytes` →
   * UploadTooLarge), then renames it to a new stored name whose extension
   * `extension` picks from the file's first bytes (it may throw to refuse the
   * content). The temporary file is removed on every failure.
   */
  async save(source: Readable, options: { limitBytes: number; extension: (head: Buffer) => string | null }): Promise<SavedFile> {
    await mkdir(this.tmpDir, { recursive: true });
    const tmp = path.join(this.tmpDir, `${randomBytes(16).toString('hex')}.part`);
    let size = 0;
    let head = Buffer.alloc(0);
    // Which side failed first: a source error that reaches the file is the client's, not the disk's.
    let firstFailure: 'source' | 'write' | null = null;
    source.once('error', () => (firstFailure ??= 'source'));
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        size += chunk.length;
        if (head.length < HEAD_BYTES) head = Buffer.concat([head, chunk.subarray(0, HEAD_BYTES - head.length)]);
        if (size > options.limitBytes) callback(new UploadTooLarge());
        else callback(null, chunk);
      },
    });
    if (source.destroyed) firstFailure = 'source';
    const target = createWriteStream(tmp, { flags: 'wx', mode: 0o600 });
    target.once('error', () => (firstFailure ??= 'write'));
    try {
      try {
        await pipeline(source, counter, target);
      } catch (error) {
        if (error instanceof UploadTooLarge) throw error;
        const prematureClose = (error as NodeJS.ErrnoException).code === 'ERR_STREAM_PREMATURE_CLOSE';
        if (firstFailure === 'source' || (firstFailure === null && prematureClose)) throw new UploadInterrupted(error);
        throw error;
      }
      // busboy stops at its own size limit and marks the stream truncated instead of failing it.
      if ((source as Readable & { truncated?: boolean }).truncated) throw new UploadTooLarge();
      const storedName = newStoredName(options.extension(head));
      await rename(tmp, this.pathOf(storedName));
      return { storedName, size, head };
    } catch (error) {
      target.destroy();
      await unlink(tmp).catch(() => undefined);
      throw error;
    }
  }

  /** Copies a stored file to a new stored name; null when the file is missing. */
  async copy(storedName: string): Promise<string | null> {
    const copyName = newStoredName(path.extname(storedName).slice(1) || null);
    try {
      await copyFile(this.pathOf(storedName), this.pathOf(copyName), constants.COPYFILE_EXCL);
    } catch (error) {
      await unlink(this.pathOf(copyName)).catch(() => undefined);
      if (isMissing(error)) return null;
      throw error;
    }
    return copyName;
  }

  /** Opens a stored file for reading; null when it is missing. */
  async open(storedName: string): Promise<OpenedFile | null> {
    if (!isStoredName(storedName)) return null;
    try {
      const handle = await open(this.pathOf(storedName), 'r');
      try {
        const { size } = await handle.stat();
        return { stream: handle.createReadStream(), size };
      } catch (error) {
        await handle.close();
        throw error;
      }
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  /** Unlinks files that nothing refers to yet (made by a change that did not commit). */
  async remove(storedNames: Iterable<string>): Promise<void> {
    for (const name of new Set(storedNames)) {
      if (isStoredName(name)) await unlink(this.pathOf(name)).catch(ignoreMissing);
    }
  }

  /**
   * Unlinks each file no attachment and no picture refers to any more: a file
   * still referenced elsewhere (a second attachment row, a picture) is kept.
   * Run after the commit that removed the references.
   */
  async removeIfUnreferenced(db: Db, storedNames: Iterable<string | null>): Promise<void> {
    const names = [...new Set(storedNames)].filter((n): n is string => n !== null && isStoredName(n));
    if (names.length === 0) return;
    const referenced = new Set<string>();
    for (let i = 0; i < names.length; i += 500) {
      const chunk = names.slice(i, i + 500);
      for (const name of await referencedStoredNames(db, chunk)) if (name !== null) referenced.add(name);
    }
    await this.remove(names.filter((n) => !referenced.has(n)));
  }
}

const stores = new Map<string, UploadStore>();

/** Removes these stored files once the transaction that dropped their rows has committed, unless something still uses them. */
export function discardAfterCommit(
  afterCommit: (work: () => Promise<void>) => void,
  deps: { config: { dataDir: string }; database: { db: Db } },
  storedNames: Array<string | null>,
): void {
  const names = storedNames.filter((n): n is string => n !== null);
  if (names.length > 0) afterCommit(() => uploadStore(deps.config.dataDir).removeIfUnreferenced(deps.database.db, names));
}

/** The upload store of a data directory. */
export function uploadStore(dataDir: string): UploadStore {
  let store = stores.get(dataDir);
  if (!store) stores.set(dataDir, (store = new UploadStore(dataDir)));
  return store;
}

function newStoredName(extension: string | null): string {
  const id = randomBytes(16).toString('hex');
  return extension && /^[a-z0-9]{1,10}$/.test(extension) ? `${id}.${extension}` : id;
}

/** The lower-case extension of a file name when it is short and plain (`report.PDF` → `pdf`), else null. */
export function extensionOf(filename: string): string | null {
  const match = /\.([A-Za-z0-9]{1,10})$/.exec(filename);
  return match ? match[1]!.toLowerCase() : null;
}

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | null)?.code === 'ENOENT';
}

function ignoreMissing(error: unknown): void {
  if (!isMissing(error)) throw error;
}

const MAX_FILENAME = 255;
/** Control characters, line and paragraph separators, and the bidirectional overrides used to disguise extensions. */
// eslint-disable-next-line no-control-regex
const UNSAFE_CHARS = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/**
 * A file name that is safe to store and to show: the last path segment only,
 * no control characters, NFC, at most 255 characters with the extension kept,
 * never empty.
 */
export function safeFilename(raw: string | null | undefined): string {
  const segments = (raw ?? '').normalize('NFC').replace(UNSAFE_CHARS, '').split(/[/\\]/);
  let name = '';
  for (let i = segments.length - 1; i >= 0 && name === ''; i--) name = segments[i]!.trim();
  if (name === '' || /^\.+$/.test(name)) name = 'file';
  const chars = Array.from(name);
  if (chars.length <= MAX_FILENAME) return name;
  const dot = name.lastIndexOf('.');
  const extension = dot > 0 ? Array.from(name.slice(dot)) : [];
  const keep = extension.length > 0 && extension.length <= 32 ? extension : [];
  return (
    chars
      .slice(0, MAX_FILENAME - keep.length)
      .join('')
      .trimEnd() + keep.join('')
  );
}

/**
 * `Content-Disposition: attachment` for a file name: a plain ASCII fallback
 * for old clients and the exact name as RFC 5987 `filename*`.
 */
export function contentDisposition(filename: string, type: 'attachment' | 'inline' = 'attachment'): string {
  const name = safeFilename(filename);
  const ascii =
    name
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .replace(/[^\x20-\x7e]|["\\%;/]/g, '_')
      .trim() || 'file';
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${type}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
