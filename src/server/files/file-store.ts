import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import { Transform } from 'node:stream';
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

export interface SaveOptions {
  limitBytes: number;
  /** The stored name's extension, told from the file's first bytes; it may throw to refuse the content. */
  extension: (head: Buffer) => string | null;
}

/** How many leading bytes `save` keeps for content checks. */
export const HEAD_BYTES = 16;
/** A stored name: 32 random hex digits and an optional short lower-case extension. */
const STORED_NAME = /^[0-9a-f]{32}(\.[a-z0-9]{1,10})?$/;

export function isStoredName(name: string): boolean {
  return STORED_NAME.test(name);
}

export function newStoredName(extension: string | null): string {
  const id = randomBytes(16).toString('hex');
  return extension && /^[a-z0-9]{1,10}$/.test(extension) ? `${id}.${extension}` : id;
}

/**
 * The files behind attachments, pasted pictures and profile pictures, each
 * under a random stored name: on disk (`DATA_DIR/uploads/`) or in an
 * S3-compatible bucket. Every implementation keeps the same promises: a file
 * appears under its stored name only once it arrived whole and within the
 * limit, and a refused or aborted upload leaves nothing behind.
 */
export abstract class FileStore {
  abstract readonly kind: 'disk' | 's3';
  /** A folder on this machine for one process's own passing files (an import's upload): never shared. */
  abstract readonly scratchDir: string;

  /**
   * Streams `source` in (past `limitBytes` → UploadTooLarge), under a new
   * stored name whose extension `options.extension` picks from the first bytes.
   */
  abstract save(source: Readable, options: SaveOptions): Promise<SavedFile>;

  /** Writes a file under a given stored name (a restore) unless one is there; answers whether it wrote. */
  abstract put(storedName: string, source: Readable): Promise<boolean>;

  /** Copies a stored file to a new stored name; null when the file is missing. */
  abstract copy(storedName: string): Promise<string | null>;

  /** Opens a stored file for reading; null when it is missing. */
  abstract open(storedName: string): Promise<OpenedFile | null>;

  /** Which of these stored files are there. */
  abstract existing(storedNames: readonly string[]): Promise<Set<string>>;

  /** Deletes files that nothing refers to yet (made by a change that did not commit); a missing one is no error. */
  abstract remove(storedNames: Iterable<string>): Promise<void>;

  /** Removes partial files a killed process left in the scratch folder; only old ones (another process may be writing). */
  abstract sweepScratch(olderThanMs?: number): Promise<number>;

  /** Resolves when the store can be written, read and deleted from; rejects with the reason otherwise (`doctor`, start-up). */
  abstract check(): Promise<void>;

  /** Where the files are, for people (logs, the CLI). */
  abstract describe(): string;

  /**
   * Deletes each file no attachment and no picture refers to any more: a file
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

/** A pass-through that counts bytes, keeps the first HEAD_BYTES, and fails with UploadTooLarge past the limit. */
export function countingStream(limitBytes: number): Transform & { size: number; head: Buffer } {
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      state.size += chunk.length;
      if (state.head.length < HEAD_BYTES)
        state.head = Buffer.concat([state.head, chunk.subarray(0, HEAD_BYTES - state.head.length)]);
      if (state.size > limitBytes) callback(new UploadTooLarge());
      else callback(null, chunk);
    },
  });
  const state = Object.assign(counter, { size: 0, head: Buffer.alloc(0) });
  return state;
}

/**
 * Sorts a failed upload's error: UploadTooLarge stays; a failure that began
 * at the source (the client went away) becomes UploadInterrupted; anything
 * else (the disk, the bucket) is passed on as it is.
 */
export function uploadFailure(error: unknown, firstFailure: 'source' | 'write' | null): unknown {
  if (error instanceof UploadTooLarge) return error;
  const prematureClose = (error as NodeJS.ErrnoException | null)?.code === 'ERR_STREAM_PREMATURE_CLOSE';
  if (firstFailure === 'source' || (firstFailure === null && prematureClose)) return new UploadInterrupted(error);
  return error;
}

/** busboy stops at its own size limit and marks the stream truncated instead of failing it. */
export function wasTruncated(source: Readable): boolean {
  return (source as Readable & { truncated?: boolean }).truncated === true;
}
