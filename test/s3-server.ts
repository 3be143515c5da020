import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import S3rver from '@20minutes/s3rver';
import type { S3Config } from '../src/server/config.js';

export interface TestS3 {
  /** The variables that point Tavla at the bucket. */
  env: Record<string, string>;
  config: S3Config;
  /** The stored names under `uploads/` in the bucket, read from the server's own folder. */
  storedNames(): string[];
  close(): Promise<void>;
}

const OBJECT_SUFFIX = '._S3rver_object';

/**
 * An S3-compatible server (s3rver, its maintained fork) on a free loopback
 * port, keeping its objects in a temporary folder, with one empty bucket.
 * Each call makes its own server and bucket.
 */
export async function startS3(bucket = 'tavla-test'): Promise<TestS3> {
  const directory = mkdtempSync(path.join(os.tmpdir(), 'tavla-s3-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket }] });
  const { port } = await server.run();
  const config: S3Config = {
    bucket,
    endpoint: `http://127.0.0.1:${port}`,
    region: 'us-east-1',
    // s3rver's fixed keys: it checks every request's signature with them.
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    forcePathStyle: true,
  };
  const uploads = path.join(directory, bucket, 'uploads');
  return {
    config,
    env: {
      S3_BUCKET: bucket,
      S3_ENDPOINT: config.endpoint!,
      S3_REGION: config.region,
      S3_ACCESS_KEY_ID: config.accessKeyId!,
      S3_SECRET_ACCESS_KEY: config.secretAccessKey!,
      S3_FORCE_PATH_STYLE: 'true',
    },
    storedNames: () =>
      existsSync(uploads)
        ? readdirSync(uploads)
            .filter((name) => name.endsWith(OBJECT_SUFFIX))
            .map((name) => name.slice(0, -OBJECT_SUFFIX.length))
            .filter((name) => !name.startsWith('.'))
            .sort()
        : [],
    close: async () => {
      await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
