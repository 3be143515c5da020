import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat, unlink } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import type { S3Config } from '../config.js';
import { DiskStore } from './disk-store.js';
import { S3Store } from './s3-store.js';

export interface MoveOptions {
  /** The DATA_DIR whose `uploads/` holds the files. */
  dataDir: string;
  /** The bucket they go to (the configuration's `s3`). */
  s3: S3Config;
  /** Delete each file from disk once its copy in the bucket is verified; off by default (copy only). */
  removeFromDisk?: boolean;
  /** `content` (default) reads each copy back and compares its SHA-256; `size` only asks the bucket for its size and recorded hash. */
  verify?: 'content' | 'size';
  /** Files copied at once (default 4). */
  concurrency?: number;
  /** Called once for every file, as it is done with. */
  onProgress?: (progress: MoveProgress) => void;
}

export interface MoveProgress {
  storedName: string;
  /** copied: sent and verified; skipped: the bucket already held the same bytes; failed: see `error`. */
  outcome: 'copied' | 'skipped' | 'failed';
  size: number;
  error?: string;
  /** Files handled so far, this one included, of `total`. */
  done: number;
  total: number;
  /** Bytes sent so far. */
  bytes: number;
}

export interface MoveSummary {
  total: number;
  copied: number;
  skipped: number;
  failed: Array<{ storedName: string; error: string }>;
  /** Bytes sent. */
  bytes: number;
  /** Files deleted from disk (with `removeFromDisk`). */
  removed: number;
}

/**
 * Copies every stored file of `DATA_DIR/uploads/` into the bucket under the
 * same stored name, so rows need no change. Idempotent: a file whose copy is
 * already there with the same SHA-256 is skipped, so an interrupted run is
 * simply run again. Each copy carries its SHA-256 as metadata and is verified
 * before it counts (and before its disk file is deleted, if asked). A file
 * that fails is reported and the others go on; the disk is never changed
 * unless `removeFromDisk`.
 */
export async function moveFilesToS3(options: MoveOptions): Promise<MoveSummary> {
  const disk = new DiskStore(options.dataDir);
  const bucket = new S3Store(options.s3, options.dataDir);
  const names = await disk.list();
  const summary: MoveSummary = { total: names.length, copied: 0, skipped: 0, failed: [], bytes: 0, removed: 0 };
  let next = 0;
  let done = 0;
  const one = async (storedName: string) => {
    let size = 0;
    let outcome: MoveProgress['outcome'];
    let error: string | undefined;
    try {
      const file = disk.pathOf(storedName);
      size = (await stat(file)).size;
      const sha256 = await hashOf(createReadStream(file));
      const there = await bucket.head(storedName);
      if (there && there.size === size && (there.sha256 ?? (await remoteHash(bucket, storedName))) === sha256) {
        outcome = 'skipped';
        summary.skipped++;
      } else {
        await bucket.upload(storedName, createReadStream(file), { sha256 });
        await verify(bucket, storedName, size, sha256, options.verify ?? 'content');
        outcome = 'copied';
        summary.copied++;
        summary.bytes += size;
      }
      if (options.removeFromDisk) {
        await unlink(file);
        summary.removed++;
      }
    } catch (failure) {
      outcome = 'failed';
      error = failure instanceof Error ? failure.message : String(failure);
      summary.failed.push({ storedName, error });
    }
    done++;
    options.onProgress?.({
      storedName,
      outcome,
      size,
      ...(error === undefined ? {} : { error }),
      done,
      total: names.length,
      bytes: summary.bytes,
    });
  };
  const worker = async () => {
    while (next < names.length) await one(names[next++]!);
  };
  try {
    await Promise.all(Array.from({ length: Math.max(1, Math.min(options.concurrency ?? 4, names.length)) }, worker));
  } finally {
    await bucket.close();
  }
  return summary;
}

async function verify(bucket: S3Store, storedName: string, size: number, sha256: string, how: 'content' | 'size') {
  const there = await bucket.head(storedName);
  if (!there) throw new Error('the copy is not in the bucket after its upload');
  if (there.size !== size) throw new Error(`the copy has ${there.size} bytes, the file ${size}`);
  if (there.sha256 !== null && there.sha256 !== sha256) throw new Error('the bucket recorded another SHA-256 for the copy');
  if (how === 'content' && (await remoteHash(bucket, storedName)) !== sha256)
    throw new Error('the copy read back differs from the file');
}

async function remoteHash(bucket: S3Store, storedName: string): Promise<string | null> {
  const opened = await bucket.open(storedName);
  return opened ? hashOf(opened.stream) : null;
}

async function hashOf(stream: Readable): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of stream) hash.update(chunk as Buffer);
  return hash.digest('hex');
}
