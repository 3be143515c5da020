import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../../test/databases.js';
import { seedBoard, share, uploadedFiles } from '../../../test/factories.js';
import { eachDialect, startApp, type As, type TestContext, type TestUser } from '../../../test/harness.js';
import { multipart } from '../../../test/multipart.js';
import { PNG, REPORT, richBoard } from '../../../test/rich-board.js';
import { startS3 } from '../../../test/s3-server.js';
import { readZip } from '../../../test/zip.js';
import { ConfigError, loadConfig } from '../config.js';
import { purgeArchived } from '../features/archive/retention.js';
import { restoreExport } from '../features/instance-backup/restore-dump.js';
import { moveFilesToS3, type MoveProgress } from './move-to-s3.js';
import { S3Store } from './s3-store.js';
import { fileStore, UploadInterrupted, UploadTooLarge } from './store.js';

// One S3-compatible server for the file, on loopback; each dialect's app uses the same bucket (stored names are random).
const s3 = await startS3();
const scratch = mkdtempSync(path.join(os.tmpdir(), 'tavla-s3-test-'));
afterAll(async () => {
  await s3.close();
  rmSync(scratch, { recursive: true, force: true });
});

const inBucket = (name: string) => s3.storedNames().includes(name);

function attach(t: TestContext, as: As, cardId: number, file: { filename: string; type?: string; data: Buffer | string }) {
  const body = multipart([
    { name: 'cardId', value: String(cardId) },
    { name: 'file', ...file },
  ]);
  return t.inject(as, { method: 'POST', url: '/api/data/attachment', ...body });
}

function uploadAvatar(t: TestContext, as: As, data: Buffer) {
  return t.inject(as, {
    method: 'POST',
    url: '/api/data/avatar',
    ...multipart([{ name: 'file', filename: 'me.png', type: 'image/png', data }]),
  });
}

async function storedNameOf(t: TestContext, id: number): Promise<string> {
  const row = await t.db.selectFrom('attachments').select('storedName').where('id', '=', id).executeTakeFirstOrThrow();
  return row.storedName!;
}

describe('S3 configuration', () => {
  it('takes S3_* only with S3_BUCKET, keys only in pairs, and an http(s) endpoint', () => {
    const base = { DATA_DIR: scratch, AUTH_SECRET: 'x'.repeat(32) };
    expect(loadConfig(base).s3).toBeNull();
    expect(() => loadConfig({ ...base, S3_ENDPOINT: 'http://127.0.0.1:9000' })).toThrow(
      /S3_ENDPOINT is set but S3_BUCKET is not/,
    );
    expect(() => loadConfig({ ...base, S3_BUCKET: 'b-1', S3_ACCESS_KEY_ID: 'k' })).toThrow(/set together/);
    expect(() => loadConfig({ ...base, S3_BUCKET: 'b-1', S3_ENDPOINT: 'ftp://x' })).toThrow(ConfigError);
    expect(() => loadConfig({ ...base, S3_BUCKET: 'Not A Bucket' })).toThrow(/S3_BUCKET must be a bucket name/);
    expect(loadConfig({ ...base, ...s3.env }).s3).toEqual(s3.config);
    // Path-style addressing by default only with an endpoint of one's own.
    expect(loadConfig({ ...base, S3_BUCKET: 'b-1' }).s3).toMatchObject({
      endpoint: null,
      forcePathStyle: false,
      region: 'us-east-1',
    });
  });

  it('check() passes on the bucket and fails on a missing bucket or an unreachable server', async () => {
    const store = new S3Store(s3.config, scratch);
    await expect(store.check()).resolves.toBeUndefined();
    await store.close();
    const missing = new S3Store({ ...s3.config, bucket: 'no-such-bucket' }, scratch);
    await expect(missing.check()).rejects.toThrow();
    await missing.close();
    const closed = await startS3('gone');
    await closed.close();
    const unreachable = new S3Store(closed.config, scratch);
    await expect(unreachable.check()).rejects.toThrow();
    await unreachable.close();
    // The disk store checks that it can write.
    await expect(fileStore({ dataDir: scratch, s3: null }).check()).resolves.toBeUndefined();
  });
});

describe('the S3 store', () => {
  const store = new S3Store(s3.config, scratch);
  afterAll(() => store.close());
  const NINE_MB = 9 * 1024 * 1024;
  /** A source that sends `bytes` in 64 KiB chunks and then fails, as a client that hangs up. */
  const cutOff = (bytes: number) =>
    Readable.from(
      (function* () {
        for (let sent = 0; sent < bytes; sent += 65536) yield Buffer.alloc(65536, 1);
        throw new Error('client went away');
      })(),
    );

  it('keeps nothing of a source that fails after a multipart upload began, and says the client stopped', async () => {
    const before = s3.storedNames();
    await expect(store.save(cutOff(NINE_MB), { limitBytes: 20 * NINE_MB, extension: () => 'bin' })).rejects.toBeInstanceOf(
      UploadInterrupted,
    );
    await expect(store.save(cutOff(100), { limitBytes: NINE_MB, extension: () => 'bin' })).rejects.toBeInstanceOf(
      UploadInterrupted,
    );
    expect(s3.storedNames()).toEqual(before);
  });

  it('stops at the limit in the middle of a multipart upload, and refuses content before sending a byte', async () => {
    const before = s3.storedNames();
    const endless = Readable.from(
      (function* () {
        for (;;) yield Buffer.alloc(65536, 2);
      })(),
    );
    await expect(store.save(endless, { limitBytes: NINE_MB, extension: () => null })).rejects.toBeInstanceOf(UploadTooLarge);
    const refusal = new Error('not a picture');
    await expect(
      store.save(Readable.from([Buffer.from('plain text, no picture')]), {
        limitBytes: NINE_MB,
        extension: () => {
          throw refusal;
        },
      }),
    ).rejects.toBe(refusal);
    expect(s3.storedNames()).toEqual(before);
  });

  it('saves an empty file and a file of a few bytes, telling its kind by the first bytes', async () => {
    const empty = await store.save(Readable.from([]), { limitBytes: 10, extension: () => 'txt' });
    expect(empty).toMatchObject({ size: 0, head: Buffer.alloc(0) });
    expect((await store.open(empty.storedName))!.size).toBe(0);
    const tiny = await store.save(Readable.from([Buffer.from('ab'), Buffer.from('c')]), {
      limitBytes: 10,
      extension: (head) => (head.toString() === 'abc' ? 'abc' : null),
    });
    expect(tiny.storedName).toMatch(/^[0-9a-f]{32}\.abc$/);
    const opened = await store.open(tiny.storedName);
    expect(await opened!.stream.toArray()).toEqual([Buffer.from('abc')]);
    expect(await store.existing([tiny.storedName, empty.storedName, `${'0'.repeat(32)}.txt`, '../x'])).toEqual(
      new Set([tiny.storedName, empty.storedName]),
    );
    await store.remove([tiny.storedName, empty.storedName]);
    expect(await store.open(tiny.storedName)).toBeNull();
  });
});

eachDialect(
  'files in an S3 bucket',
  (t) => {
    let owner: TestUser;
    let reader: TestUser;
    let stranger: TestUser;

    it('uses the bucket, not DATA_DIR', async () => {
      owner = await t.signUp('Ada');
      reader = await t.signUp('Rita');
      stranger = await t.signUp('Sam');
      expect(fileStore(t.config).kind).toBe('s3');
    });

    it('streams an attachment in and out through the same access checks, and deletes it', async () => {
      const { board, cards } = await seedBoard(t, owner, { A: ['x'] });
      await share(t, board.id, reader, 'read');
      // Larger than one part of a multipart upload (8 MiB), so that path is taken too.
      const data = randomBytes(9 * 1024 * 1024 + 123);
      const res = await attach(t, owner, cards.x!.id, { filename: 'Übersicht.pdf', type: 'application/pdf', data });
      expect(res.statusCode, res.body).toBe(200);
      const { attachment } = res.json();
      const storedName = await storedNameOf(t, attachment.id);
      expect(inBucket(storedName)).toBe(true);
      expect(uploadedFiles(t)).toEqual([]);

      const url = `/api/data/attachment?id=${attachment.id}`;
      for (const who of [owner, reader]) {
        const got = await t.inject(who, { method: 'GET', url });
        expect(got.statusCode).toBe(200);
        expect(got.rawPayload.equals(data)).toBe(true);
        expect(got.headers['content-type']).toBe('application/pdf');
        expect(got.headers['content-length']).toBe(String(data.length));
        expect(got.headers['content-disposition']).toBe(
          `attachment; filename="Ubersicht.pdf"; filename*=UTF-8''%C3%9Cbersicht.pdf`,
        );
        expect(got.headers['x-content-type-options']).toBe('nosniff');
      }
      expect((await t.inject(stranger, { method: 'GET', url })).statusCode).toBe(404);
      expect((await t.inject(null, { method: 'GET', url })).statusCode).toBe(403);

      // A page is still served as a download of bytes.
      const page = await attach(t, owner, cards.x!.id, { filename: 'p.html', type: 'text/html', data: '<script>1</script>' });
      const served = await t.inject(owner, { method: 'GET', url: `/api/data/attachment?id=${page.json().attachment.id}` });
      expect(served.headers['content-type']).toBe('application/octet-stream');
      expect(served.body).toBe('<script>1</script>');

      // Refused deletes keep the object; the owner's removes it.
      for (const who of [reader, stranger]) {
        const refused = await t.inject(who, { method: 'DELETE', url, payload: {} });
        expect([403, 404]).toContain(refused.statusCode);
        expect(inBucket(storedName)).toBe(true);
      }
      const removed = await t.inject(owner, { method: 'DELETE', url });
      expect(removed.statusCode, removed.body).toBe(200);
      expect(inBucket(storedName)).toBe(false);
    });

    it('refused uploads leave nothing in the bucket: a reader, a stranger, too large, not a picture', async () => {
      const { board, cards } = await seedBoard(t, owner, { A: ['x'] });
      await share(t, board.id, reader, 'read');
      const before = s3.storedNames();
      for (const who of [reader, stranger]) {
        const res = await attach(t, who, cards.x!.id, { filename: 'a.txt', data: 'nope' });
        expect([403, 404]).toContain(res.statusCode);
      }
      // MAX_UPLOAD_MB is 10 here: the first 8 MiB part is sent before the limit is passed, and the upload is aborted.
      const big = await attach(t, owner, cards.x!.id, { filename: 'big.bin', data: randomBytes(10 * 1024 * 1024 + 1) });
      expect(big.statusCode).toBe(413);
      const image = await t.inject(owner, {
        method: 'POST',
        url: '/api/data/image',
        ...multipart([
          { name: 'boardId', value: String(board.id) },
          { name: 'file', filename: 'x.png', type: 'image/png', data: 'not a picture at all' },
        ]),
      });
      expect(image.statusCode).toBe(400);
      const avatar = await uploadAvatar(t, owner, Buffer.from('GIF87 is not this'));
      expect(avatar.statusCode).toBe(415);
      expect(s3.storedNames()).toEqual(before);
      expect(await t.db.selectFrom('attachments').select('id').where('cardId', '=', cards.x!.id).execute()).toEqual([]);
    });

    it('keeps avatars in the bucket: served to accounts only, the old one removed on change and on removal', async () => {
      const first = await uploadAvatar(t, owner, PNG);
      expect(first.statusCode, first.body).toBe(200);
      const image = first.json<{ image: string }>().image;
      const name = image.split('/').pop()!;
      expect(inBucket(name)).toBe(true);
      const got = await t.inject(stranger, { method: 'GET', url: image });
      expect(got.statusCode).toBe(200);
      expect(got.rawPayload.equals(PNG)).toBe(true);
      expect(got.headers['content-type']).toBe('image/png');
      expect((await t.inject(null, { method: 'GET', url: image })).statusCode).toBe(403);

      const second = await uploadAvatar(t, owner, Buffer.concat([PNG, Buffer.from('2')]));
      const secondName = second.json<{ image: string }>().image.split('/').pop()!;
      expect(inBucket(secondName)).toBe(true);
      expect(inBucket(name)).toBe(false);
      expect((await t.inject(null, { method: 'DELETE', url: '/api/data/avatar' })).statusCode).toBe(403);
      expect(inBucket(secondName)).toBe(true);
      expect((await t.inject(owner, { method: 'DELETE', url: '/api/data/avatar' })).statusCode).toBe(200);
      expect(inBucket(secondName)).toBe(false);
    });

    it('copies objects for a duplicated card, and a permanent delete removes them', async () => {
      const { cards } = await seedBoard(t, owner, { A: ['x'] });
      const res = await attach(t, owner, cards.x!.id, { filename: 'a.txt', data: 'the same bytes' });
      const original = await storedNameOf(t, res.json().attachment.id);
      const copy = await t.inject(owner, { method: 'POST', url: '/api/data/card-duplicate', payload: { cardID: cards.x!.id } });
      expect(copy.statusCode, copy.body).toBe(200);
      const copied = await t.db
        .selectFrom('attachments')
        .select('storedName')
        .where('cardId', '=', copy.json().card.id)
        .executeTakeFirstOrThrow();
      expect(copied.storedName).not.toBe(original);
      expect(inBucket(copied.storedName!)).toBe(true);
      const removed = await t.inject(owner, {
        method: 'DELETE',
        url: '/api/data/card',
        payload: { cardID: cards.x!.id, permanent: true },
      });
      expect(removed.statusCode, removed.body).toBe(200);
      expect(inBucket(original)).toBe(false);
      expect(inBucket(copied.storedName!)).toBe(true);
    });

    it('retention removes the objects of what stayed archived too long, and keeps the rest', async () => {
      const old = await seedBoard(t, owner, { A: ['x'] });
      const kept = await seedBoard(t, owner, { A: ['y'] });
      const oldFile = await storedNameOf(
        t,
        (await attach(t, owner, old.cards.x!.id, { filename: 'o.txt', data: 'old' })).json().attachment.id,
      );
      const keptFile = await storedNameOf(
        t,
        (await attach(t, owner, kept.cards.y!.id, { filename: 'k.txt', data: 'kept' })).json().attachment.id,
      );
      await t.inject(owner, { method: 'DELETE', url: `/api/data/board?id=${old.board.id}&userId=${owner.id}` });
      await t.inject(owner, { method: 'DELETE', url: '/api/data/card', payload: { cardID: kept.cards.y!.id } });
      const longAgo = new Date(Date.now() - 40 * 86_400_000).toISOString();
      await t.db.updateTable('boards').set({ archivedAt: longAgo }).where('id', '=', old.board.id).execute();
      expect(await purgeArchived(t.app.deps, new Date())).toBe(1);
      expect(inBucket(oldFile)).toBe(false);
      expect(inBucket(keptFile)).toBe(true);
    });

    it('exports a board with its files, and backs up and restores the instance into another bucket', async () => {
      const admin = (await t.db.selectFrom('user').select('id').orderBy('createdAt').executeTakeFirstOrThrow()).id;
      expect(admin).toBe(owner.id);
      const fixture = await richBoard(t, owner, reader, t.config.baseUrl);
      const boardZip = await t.inject(owner, { method: 'GET', url: `/api/data/board-export?boardId=${fixture.board.id}` });
      expect(boardZip.statusCode).toBe(200);
      const zip = await readZip(boardZip.rawPayload);
      expect(zip.files.get(`attachments/${fixture.attachments.report.id}-Q1_ report_.pdf`)!.equals(REPORT)).toBe(true);
      expect(zip.files.get(`attachments/images/${fixture.image.split('/').pop()}`)!.equals(PNG)).toBe(true);

      // Imported again as a new board: its files are new objects with the same bytes.
      const imported = await t.inject(owner, {
        method: 'POST',
        url: '/api/data/board-import',
        ...multipart([{ name: 'file', filename: 'board.zip', type: 'application/zip', data: boardZip.rawPayload }]),
      });
      expect(imported.statusCode, imported.body).toBe(200);
      const copies = await t.db
        .selectFrom('attachments')
        .innerJoin('cards', 'cards.id', 'attachments.cardId')
        .select(['attachments.id', 'attachments.storedName'])
        .where('cards.boardId', '=', imported.json().board.id)
        .execute();
      expect(copies.length).toBeGreaterThan(0);
      for (const copy of copies) expect(inBucket(copy.storedName!)).toBe(true);
      const pdf = copies.find((c) => c.storedName!.endsWith('.pdf'))!;
      const again = await t.inject(owner, { method: 'GET', url: `/api/data/attachment?id=${pdf.id}` });
      expect(again.rawPayload.equals(REPORT)).toBe(true);

      const backup = await t.inject(owner, { method: 'GET', url: '/api/data/export' });
      expect(backup.statusCode).toBe(200);
      const exported = await readZip(backup.rawPayload);
      const zipFile = path.join(scratch, `backup-${t.dialect}.zip`);
      writeFileSync(zipFile, backup.rawPayload);

      const other = await startS3('tavla-restored');
      const target = await createTestDatabase(t.dialect);
      let restored: Awaited<ReturnType<typeof startApp>> | undefined;
      try {
        const summary = await restoreExport({ zipFile, databaseUrl: target.url, dataDir: target.dataDir, s3: other.config });
        const attachmentRows = await t.db
          .selectFrom('attachments')
          .select('storedName')
          .where('storedName', 'is not', null)
          .execute();
        const imageRows = await t.db.selectFrom('images').select('storedName').execute();
        const expected = new Set([...attachmentRows, ...imageRows].map((r) => r.storedName!));
        expect(summary.files).toBe(expected.size);
        expect(other.storedNames()).toEqual([...expected].sort());
        expect(existsSync(path.join(target.dataDir, 'uploads'))).toBe(false);

        restored = await startApp(t.dialect, target.url, target.dataDir, { env: { ...other.env } });
        const again = await restored.inject({ key: owner.key }, { method: 'GET', url: '/api/data/export' });
        expect(again.statusCode).toBe(200);
        const second = await readZip(again.rawPayload);
        for (const name of exported.names.filter((n) => n.startsWith('attachments/')))
          expect(second.files.get(name)?.equals(exported.files.get(name)!), name).toBe(true);
        const download = await restored.inject(
          { key: owner.key },
          {
            method: 'GET',
            url: `/api/data/attachment?id=${fixture.attachments.report.id}`,
          },
        );
        expect(download.rawPayload.equals(REPORT)).toBe(true);
      } finally {
        await restored?.app.close();
        await restored?.database.close();
        await target.drop();
        await other.close();
      }
    });
  },
  { env: { ...s3.env, MAX_UPLOAD_MB: '10', ARCHIVE_RETENTION_DAYS: '30' } },
);

eachDialect('moving files from disk to a bucket', (t) => {
  it('copies every stored file once, verified, with progress; again skips them; the service then reads them from the bucket', async () => {
    const owner = await t.signUp('Ada');
    const { cards } = await seedBoard(t, owner, { A: ['x'] });
    const data = randomBytes(300_000);
    const res = await attach(t, owner, cards.x!.id, { filename: 'r.bin', data });
    expect(res.statusCode, res.body).toBe(200);
    const avatar = await uploadAvatar(t, owner, PNG);
    const files = uploadedFiles(t);
    expect(files).toHaveLength(2);
    const bucket = await startS3('tavla-moved');
    try {
      // A wrong object under one of the names (a run cut short elsewhere) is replaced, not taken as done.
      const wrong = new S3Store(bucket.config, t.config.dataDir);
      await wrong.upload(files[0]!, Readable.from([Buffer.from('wrong bytes')]));
      await wrong.close();

      const progress: MoveProgress[] = [];
      const first = await moveFilesToS3({ dataDir: t.config.dataDir, s3: bucket.config, onProgress: (p) => progress.push(p) });
      expect(first).toEqual({ total: 2, copied: 2, skipped: 0, failed: [], bytes: data.length + PNG.length, removed: 0 });
      expect(progress.map((p) => [p.done, p.total, p.outcome])).toEqual([
        [1, 2, 'copied'],
        [2, 2, 'copied'],
      ]);
      expect(progress.at(-1)!.bytes).toBe(data.length + PNG.length);
      expect(bucket.storedNames()).toEqual(files);
      expect(uploadedFiles(t)).toEqual(files);

      const again = await moveFilesToS3({ dataDir: t.config.dataDir, s3: bucket.config });
      expect(again).toMatchObject({ total: 2, copied: 0, skipped: 2, failed: [], bytes: 0 });

      // The same database with the bucket: the files come from there.
      const moved = await startApp(t.dialect, t.config.databaseUrl, mkdtempSync(path.join(scratch, 'moved-')), {
        env: bucket.env,
      });
      try {
        const got = await moved.inject(
          { key: owner.key },
          { method: 'GET', url: `/api/data/attachment?id=${res.json().attachment.id}` },
        );
        expect(got.statusCode).toBe(200);
        expect(got.rawPayload.equals(data)).toBe(true);
        const picture = await moved.inject({ key: owner.key }, { method: 'GET', url: avatar.json<{ image: string }>().image });
        expect(picture.rawPayload.equals(PNG)).toBe(true);
      } finally {
        await moved.app.close();
        await moved.database.close();
      }

      // Removing from disk happens only after verification, and a further run finds nothing to do.
      const removal = await moveFilesToS3({ dataDir: t.config.dataDir, s3: bucket.config, removeFromDisk: true, verify: 'size' });
      expect(removal).toMatchObject({ total: 2, skipped: 2, removed: 2, failed: [] });
      expect(uploadedFiles(t)).toEqual([]);
      expect(await moveFilesToS3({ dataDir: t.config.dataDir, s3: bucket.config })).toMatchObject({ total: 0 });
    } finally {
      await bucket.close();
    }
  });

  it('reports a file it cannot copy and goes on with the others', async () => {
    const owner = await t.signUp();
    const { cards } = await seedBoard(t, owner, { A: ['y'] });
    await attach(t, owner, cards.y!.id, { filename: 'a.txt', data: 'a' });
    const progress: MoveProgress[] = [];
    const summary = await moveFilesToS3({
      dataDir: t.config.dataDir,
      s3: { ...s3.config, bucket: 'no-such-bucket' },
      onProgress: (p) => progress.push(p),
    });
    expect(summary.failed.length).toBe(summary.total);
    expect(summary.total).toBeGreaterThan(0);
    expect(progress.every((p) => p.outcome === 'failed' && typeof p.error === 'string')).toBe(true);
    expect(uploadedFiles(t).length).toBe(summary.total);
  });
});
