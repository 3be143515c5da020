import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type * as S3Sdk from '@aws-sdk/client-s3';
import type { Upload as UploadClass } from '@aws-sdk/lib-storage';
import type { S3Config } from '../config.js';
import { sweepFolder } from './disk-store.js';
import {
  FileStore,
  HEAD_BYTES,
  countingStream,
  isStoredName,
  newStoredName,
  uploadFailure,
  UploadTooLarge,
  wasTruncated,
  type OpenedFile,
  type SavedFile,
  type SaveOptions,
} from './file-store.js';

/** Where the stored files live in the bucket: one folder, as on disk. */
const PREFIX = 'uploads/';
/** Parts of a multipart upload: each is held in memory while it goes, one at a time per upload. */
const PART_BYTES = 8 * 1024 * 1024;
/** Requests one existence check sends at once. */
const HEAD_CONCURRENCY = 8;

interface Sdk {
  s3: typeof S3Sdk;
  client: S3Sdk.S3Client;
  Upload: typeof UploadClass;
}

/** What a stored object says about itself. */
export interface ObjectInfo {
  size: number;
  /** The SHA-256 (hex) recorded when the file was moved from disk, if it was. */
  sha256: string | null;
}

/**
 * Files in an S3-compatible bucket under `uploads/<stored name>`. Uploads
 * stream in (one PUT, or a multipart upload of 8 MiB parts for larger files,
 * aborted on any failure); the stored name is chosen after the first bytes,
 * so a refused picture sends nothing. The SDK loads on first use: an
 * instance on disk never loads it.
 */
export class S3Store extends FileStore {
  readonly kind = 's3';
  readonly scratchDir: string;
  private sdk: Promise<Sdk> | undefined;

  constructor(
    private readonly options: S3Config,
    dataDir: string,
  ) {
    super();
    this.scratchDir = path.join(dataDir, 'tmp');
  }

  describe(): string {
    return `s3://${this.options.bucket}/${PREFIX}${this.options.endpoint ? ` at ${this.options.endpoint}` : ''}`;
  }

  /** The object key of a stored file; refuses anything that is not a stored name. */
  keyOf(storedName: string): string {
    if (!isStoredName(storedName)) throw new Error(`not a stored file name: ${JSON.stringify(storedName)}`);
    return `${PREFIX}${storedName}`;
  }

  async save(source: Readable, options: SaveOptions): Promise<SavedFile> {
    // Which side failed first: a source error that reaches the upload is the client's, not the bucket's.
    let firstFailure: 'source' | 'write' | null = null;
    source.once('error', () => (firstFailure ??= 'source'));
    if (source.destroyed) firstFailure = 'source';
    const counter = countingStream(options.limitBytes);
    let storedName: string | null = null;
    let uploaded = false;
    try {
      try {
        await pipeline(source, counter, async (stream: AsyncIterable<Buffer>) => {
          const chunks = stream[Symbol.asyncIterator]();
          const first: Buffer[] = [];
          let ended = false;
          for (let got = 0; got < HEAD_BYTES;) {
            const next = await chunks.next();
            if (next.done) {
              ended = true;
              break;
            }
            first.push(next.value);
            got += next.value.length;
          }
          try {
            storedName = newStoredName(options.extension(counter.head));
            await this.upload(storedName, Readable.from(rest(first, ended ? null : chunks)));
            uploaded = true;
          } catch (error) {
            // The refusal of the content or the bucket's failure: either way not the client's doing.
            firstFailure ??= 'write';
            throw error;
          }
        });
      } catch (error) {
        throw uploadFailure(error, firstFailure);
      }
      if (wasTruncated(source)) throw new UploadTooLarge();
      return { storedName: storedName!, size: counter.size, head: counter.head };
    } catch (error) {
      if (uploaded && storedName !== null) await this.remove([storedName]).catch(() => undefined);
      throw error;
    }
  }

  async put(storedName: string, source: Readable): Promise<boolean> {
    if (await this.head(storedName)) {
      source.resume();
      return false;
    }
    await this.upload(storedName, source);
    return true;
  }

  /** Streams `body` to the object of `storedName` (replacing it); `metadata` goes along as `x-amz-meta-*`. */
  async upload(storedName: string, body: Readable, metadata?: Record<string, string>): Promise<void> {
    const { s3, client, Upload } = await this.load();
    const Key = this.keyOf(storedName);
    const upload = new Upload({
      client,
      params: {
        Bucket: this.options.bucket,
        Key,
        Body: body,
        // Never served from the bucket as a page: Tavla sends each file with its own safe type.
        ContentType: 'application/octet-stream',
        ...(metadata ? { Metadata: metadata } : {}),
      },
      partSize: PART_BYTES,
      queueSize: 1,
      // Aborted here instead: the SDK would answer a failed abort's error in place of the upload's own.
      leavePartsOnError: true,
    });
    try {
      await upload.done();
    } catch (error) {
      if (upload.uploadId) {
        const abort = new s3.AbortMultipartUploadCommand({ Bucket: this.options.bucket, Key, UploadId: upload.uploadId });
        // Parts left by a failed abort go with the bucket's lifecycle rule (README, "Object storage").
        await client.send(abort).catch(() => undefined);
      }
      throw error;
    }
  }

  async copy(storedName: string): Promise<string | null> {
    const { s3, client } = await this.load();
    const copyName = newStoredName(path.extname(storedName).slice(1) || null);
    try {
      await client.send(
        new s3.CopyObjectCommand({
          Bucket: this.options.bucket,
          Key: this.keyOf(copyName),
          CopySource: `${this.options.bucket}/${this.keyOf(storedName)}`,
        }),
      );
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
    return copyName;
  }

  async open(storedName: string): Promise<OpenedFile | null> {
    if (!isStoredName(storedName)) return null;
    const { s3, client } = await this.load();
    try {
      const answer = await client.send(new s3.GetObjectCommand({ Bucket: this.options.bucket, Key: this.keyOf(storedName) }));
      return { stream: answer.Body as Readable, size: answer.ContentLength ?? 0 };
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  /** The object's size and recorded checksum; null when it is not there. */
  async head(storedName: string): Promise<ObjectInfo | null> {
    const { s3, client } = await this.load();
    try {
      const answer = await client.send(new s3.HeadObjectCommand({ Bucket: this.options.bucket, Key: this.keyOf(storedName) }));
      return { size: answer.ContentLength ?? 0, sha256: answer.Metadata?.sha256 ?? null };
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  async existing(storedNames: readonly string[]): Promise<Set<string>> {
    const names = [...new Set(storedNames)].filter(isStoredName);
    const found = new Set<string>();
    let next = 0;
    const worker = async () => {
      while (next < names.length) {
        const name = names[next++]!;
        if (await this.head(name)) found.add(name);
      }
    };
    await Promise.all(Array.from({ length: Math.min(HEAD_CONCURRENCY, names.length) }, worker));
    return found;
  }

  async remove(storedNames: Iterable<string>): Promise<void> {
    const { s3, client } = await this.load();
    // One request each: a missing object is no error, and not every S3-compatible server takes batch deletes.
    for (const name of new Set(storedNames)) {
      if (isStoredName(name))
        await client.send(new s3.DeleteObjectCommand({ Bucket: this.options.bucket, Key: this.keyOf(name) }));
    }
  }

  sweepScratch(olderThanMs?: number): Promise<number> {
    return sweepFolder(this.scratchDir, olderThanMs);
  }

  async check(): Promise<void> {
    const { s3, client } = await this.load();
    const Bucket = this.options.bucket;
    const Key = `${PREFIX}.check-${randomBytes(8).toString('hex')}`;
    await client.send(new s3.PutObjectCommand({ Bucket, Key, Body: 'tavla' }));
    try {
      const answer = await client.send(new s3.GetObjectCommand({ Bucket, Key }));
      const text = await answer.Body?.transformToString();
      if (text !== 'tavla') throw new Error(`the bucket answered ${JSON.stringify(text)} for the file just written`);
    } finally {
      await client.send(new s3.DeleteObjectCommand({ Bucket, Key }));
    }
  }

  /** Lets go of the client's connections (a command that ends, a test). */
  async close(): Promise<void> {
    if (this.sdk) (await this.sdk).client.destroy();
    this.sdk = undefined;
  }

  private load(): Promise<Sdk> {
    return (this.sdk ??= (async () => {
      const [s3, { Upload }] = await Promise.all([import('@aws-sdk/client-s3'), import('@aws-sdk/lib-storage')]);
      const { endpoint, region, accessKeyId, secretAccessKey, forcePathStyle } = this.options;
      const client = new s3.S3Client({
        region,
        forcePathStyle,
        ...(endpoint ? { endpoint } : {}),
        // Without keys the SDK's own chain applies (AWS_* variables, an instance role).
        ...(accessKeyId && secretAccessKey ? { credentials: { accessKeyId, secretAccessKey } } : {}),
        // Checksums only where S3 requires them: many S3-compatible servers refuse the SDK's default checksum trailers.
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
      });
      return { s3, client, Upload };
    })());
  }
}

async function* rest(first: Buffer[], chunks: AsyncIterator<Buffer> | null): AsyncGenerator<Buffer> {
  yield* first;
  if (!chunks) return;
  for (;;) {
    const next = await chunks.next();
    if (next.done) return;
    yield next.value;
  }
}

function isNotFound(error: unknown): boolean {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } } | null;
  return e?.name === 'NoSuchKey' || e?.name === 'NotFound' || e?.$metadata?.httpStatusCode === 404;
}
