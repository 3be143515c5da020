import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, expect, it } from 'vitest';
import { createTestDatabase } from '../../../../test/databases.js';
import type { Db } from '../../db/database.js';
import type { DialectName } from '../../db/dialect.js';
import { BASE_URL, eachDialect, startApp, type TestContext, type TestUser } from '../../../../test/harness.js';
import { RestoreRefused, restoreExport } from './restore-dump.js';
import { PNG, REPORT, richBoard } from '../../../../test/rich-board.js';
import { rawZip, readZip, type ZipContent } from '../../../../test/zip.js';

const today = () => new Date().toISOString().slice(0, 10);
const scratch = mkdtempSync(path.join(os.tmpdir(), 'tavla-export-test-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

async function instanceExport(t: TestContext, as: TestUser | { key: string }): Promise<{ raw: Buffer; zip: ZipContent }> {
  const res = await t.inject(as, { method: 'GET', url: '/api/data/export' });
  expect(res.statusCode, res.body).toBe(200);
  return { raw: res.rawPayload, zip: await readZip(res.rawPayload) };
}

/** Every board file of an instance export, without the moment it was written. */
function boardFiles(zip: ZipContent): Map<string, unknown> {
  const out = new Map<string, unknown>();
  for (const [name, data] of zip.files) {
    if (!name.startsWith('boards/')) continue;
    const file = JSON.parse(data.toString('utf8')) as Record<string, unknown>;
    delete file.exportedAt;
    out.set(name, file);
  }
  return out;
}

/** What defines the schema, from the catalog. */
async function schemaOf(db: Db, dialect: DialectName): Promise<unknown[]> {
  if (dialect === 'sqlite') {
    return (await sql`SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name`.execute(db)).rows;
  }
  const queries = [
    sql`SELECT table_name, column_name, data_type, is_nullable, column_default, is_generated, generation_expression
        FROM information_schema.columns WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position`,
    sql`SELECT conrelid::regclass::text AS t, conname, pg_get_constraintdef(oid) AS def FROM pg_constraint
        WHERE connamespace = current_schema()::regnamespace ORDER BY 1, 2`,
    sql`SELECT tablename, indexname, indexdef FROM pg_indexes WHERE schemaname = current_schema() ORDER BY 1, 2`,
    sql`SELECT relname, relkind, reloptions FROM pg_class WHERE relnamespace = current_schema()::regnamespace ORDER BY 1`,
  ];
  const out: unknown[] = [];
  for (const query of queries) out.push(...(await query.execute(db)).rows);
  return out;
}

async function rowCounts(db: Db, dialect: DialectName): Promise<Record<string, number>> {
  const tables =
    dialect === 'sqlite'
      ? (
          await sql<{
            name: string;
          }>`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'cards_fts%'`.execute(
            db,
          )
        ).rows
      : (await sql<{ name: string }>`SELECT tablename AS name FROM pg_tables WHERE schemaname = current_schema()`.execute(db))
          .rows;
  const counts: Record<string, number> = {};
  for (const { name } of tables) {
    const [row] = (await sql<{ n: number }>`SELECT count(*) AS n FROM ${sql.id(name)}`.execute(db)).rows;
    counts[name] = Number(row!.n);
  }
  return counts;
}

eachDialect('instance export and restore', (t) => {
  let admin: TestUser;
  let member: TestUser;
  let fixture: Awaited<ReturnType<typeof richBoard>>;
  let exported: { raw: Buffer; zip: ZipContent };

  it('is for administrators only: the first account is one, anyone else gets 403', async () => {
    admin = await t.signUp('Ada');
    member = await t.signUp('Mika');
    const refused = await t.inject(member, { method: 'GET', url: '/api/data/export' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ error: expect.any(String) });
    expect((await t.inject(null, { method: 'GET', url: '/api/data/export' })).statusCode).toBe(403);
    // A read-only key of an administrator may export: it is a read.
    const readOnly = await t.createKey(admin, true);
    const res = await t.inject({ key: readOnly }, { method: 'GET', url: '/api/data/export' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="tavla-export-${today()}.zip"; filename*=UTF-8''tavla-export-${today()}.zip`,
    );
  });

  it('holds every board file (archived boards too), each board’s files and database.sql', async () => {
    fixture = await richBoard(t, admin, member, BASE_URL);
    const other = await t.createBoard(member, { name: 'Mika’s list', style: 'todo' });
    await t.inject(member, { method: 'DELETE', url: `/api/data/board?id=${other.id}&userId=${member.id}` });
    await t.inject(admin, {
      method: 'POST',
      url: '/api/data/comment',
      payload: { cardId: fixture.cards.dash.id, content: 'it’s here' },
    });
    exported = await instanceExport(t, admin);
    const { zip } = exported;
    const { board, attachments, image } = fixture;
    const stored = image.split('/').pop()!;
    const folder = `attachments/${board.id}-unicode-board`;
    expect(zip.names).toEqual([
      `boards/${board.id}-unicode-board.json`,
      `${folder}/${attachments.report.id}-Q1_ report_.pdf`,
      `${folder}/${attachments.lost.id}-lost.txt`,
      `${folder}/images/${stored}`,
      `boards/${other.id}-mika-s-list.json`,
      'database.sql',
    ]);
    expect(zip.files.get(`${folder}/${attachments.report.id}-Q1_ report_.pdf`)!.equals(REPORT)).toBe(true);
    expect(zip.files.get(`${folder}/images/${stored}`)!.equals(PNG)).toBe(true);

    const file = JSON.parse(zip.files.get(`boards/${board.id}-unicode-board.json`)!.toString()) as {
      images: Record<string, string>;
      areas: Array<{ cards: Array<{ attachments: Array<{ file: string | null }> }> }>;
    };
    expect(Object.values(file.images)).toEqual([`${folder}/images/${stored}`, `${folder}/images/${stored}`]);
    expect(file.areas[0]!.cards[0]!.attachments[0]!.file).toBe(`${folder}/${attachments.report.id}-Q1_ report_.pdf`);
    const archived = JSON.parse(zip.files.get(`boards/${other.id}-mika-s-list.json`)!.toString()) as {
      board: { archivedAt: string | null };
    };
    expect(archived.board.archivedAt).not.toBeNull();

    const dump = zip.files.get('database.sql')!.toString('utf8');
    expect(dump.split('\n').slice(0, 2)).toEqual(['-- Tavla database dump', `-- dialect: ${t.dialect}`]);
    // Sessions and pending verifications are not carried over: their tables come empty.
    expect(dump).toMatch(/CREATE TABLE "?session"? \(/);
    expect(dump).toMatch(/CREATE TABLE "?verification"? \(/);
    expect(dump).not.toContain('INSERT INTO "session"');
    expect(dump).not.toContain('INSERT INTO "verification"');
    const hash = await t.db.selectFrom('account').select('password').where('userId', '=', admin.id).executeTakeFirstOrThrow();
    expect(dump).toContain(hash.password!);
    expect(dump).toContain('INSERT INTO "kysely_migration"');
    expect(dump).not.toContain(admin.key); // API keys are stored hashed
    if (t.dialect === 'sqlite') {
      expect(dump).toContain('CREATE VIRTUAL TABLE cards_fts');
      expect(dump).not.toMatch(/CREATE TABLE '?cards_fts_(data|idx|docsize|config)/);
      expect(dump).toContain(`INSERT INTO "cards_fts"("cards_fts") VALUES('rebuild');`);
    } else {
      // A plain column kept by a trigger since migration 0010: the function and the trigger come last.
      expect(dump).toContain('"search" tsvector,');
      expect(dump).toContain('CREATE FUNCTION cards_search_vector()');
      expect(dump).toContain(
        'CREATE TRIGGER cards_search BEFORE INSERT OR UPDATE OF name, content ON cards FOR EACH ROW EXECUTE FUNCTION cards_search_vector();',
      );
      expect(dump).toMatch(/SELECT pg_catalog\.setval\('"cards_id_seq"', \d+, true\);/);
      expect(dump).toContain('CREATE INDEX cards_search ON cards USING gin (search);');
      expect(dump).toMatch(/CREATE TABLE "cards" \([^;]*\) WITH \(fillfactor=70\);/);
    }
    expect(dump.trimEnd().endsWith('COMMIT;')).toBe(true);
  });

  it('restores into an empty database of the same kind: the service starts on it and exports the same boards', async () => {
    const zipFile = path.join(scratch, `export-${t.dialect}.zip`);
    writeFileSync(zipFile, exported.raw);
    const target = await createTestDatabase(t.dialect);
    let restored: Awaited<ReturnType<typeof startApp>> | undefined;
    try {
      const summary = await restoreExport({ zipFile, databaseUrl: target.url, dataDir: target.dataDir, s3: null });
      expect(summary.dialect).toBe(t.dialect);
      expect(summary.files).toBe(3); // two attachments and the picture
      restored = await startApp(t.dialect, target.url, target.dataDir);
      // The same schema (tables, columns, defaults, keys, indexes, triggers, storage) and the same rows.
      expect(await schemaOf(restored.db, t.dialect)).toEqual(await schemaOf(t.db, t.dialect));
      expect(await rowCounts(restored.db, t.dialect)).toEqual({
        ...(await rowCounts(t.db, t.dialect)),
        session: 0,
        verification: 0,
      });

      // The same keys work (they are rows); passwords too, sessions not.
      const again = await restored.inject({ key: admin.key }, { method: 'GET', url: '/api/data/export' });
      expect(again.statusCode).toBe(200);
      const zip = await readZip(again.rawPayload);
      expect(boardFiles(zip)).toEqual(boardFiles(exported.zip));
      for (const name of exported.zip.names.filter((n) => n.startsWith('attachments/')))
        expect(zip.files.get(name)?.equals(exported.zip.files.get(name)!), name).toBe(true);
      expect((await restored.inject({ cookie: admin.cookie }, { method: 'GET', url: '/api/data/export' })).statusCode).toBe(403);
      const signIn = await restored.app.inject({
        method: 'POST',
        url: '/api/auth/sign-in/email',
        headers: { origin: BASE_URL },
        payload: { email: admin.email, password: admin.password },
      });
      expect(signIn.statusCode).toBe(200);

      // The search index was rebuilt, and new rows get fresh ids after the restored ones.
      const search = await restored.inject(member, { method: 'GET', url: '/api/data/search?q=dash' });
      expect(search.json().cards.map((c: { id: number }) => c.id)).toEqual([fixture.cards.dash.id]);
      const card = await restored.inject(admin, {
        method: 'POST',
        url: '/api/data/card',
        payload: { areaId: fixture.areas.todo.id, name: 'After restore' },
      });
      expect(card.statusCode, card.body).toBe(200);
      expect(card.json().card.id).toBeGreaterThan(fixture.cards.inside.id);
      // A card written after the restore is found too (PostgreSQL's search trigger came with the dump).
      const found = await restored.inject(admin, { method: 'GET', url: '/api/data/search?q=restore' });
      expect(found.json().cards.map((c: { id: number }) => c.id)).toEqual([card.json().card.id]);
      const picture = await restored.inject(member, { method: 'GET', url: fixture.image });
      expect(picture.rawPayload.equals(PNG)).toBe(true);

      // A second restore into the now filled database is refused, and changes nothing.
      await expect(restoreExport({ zipFile, databaseUrl: target.url, dataDir: target.dataDir, s3: null })).rejects.toThrow(
        /not empty/,
      );
    } finally {
      await restored?.app.close();
      await restored?.database.close();
      await target.drop();
    }
  });

  it('refuses a dump made for the other kind of database, or a zip without one', async () => {
    const other = t.dialect === 'sqlite' ? 'postgres' : 'sqlite';
    const entries = [...exported.zip.files].map(([name, data]) => ({
      name,
      data:
        name === 'database.sql'
          ? Buffer.from(data.toString('utf8').replace(`-- dialect: ${t.dialect}`, `-- dialect: ${other}`))
          : data,
    }));
    const zipFile = path.join(scratch, `other-${t.dialect}.zip`);
    writeFileSync(zipFile, rawZip(entries));
    const target = await createTestDatabase(t.dialect);
    try {
      const refusal = restoreExport({ zipFile, databaseUrl: target.url, dataDir: target.dataDir, s3: null });
      await expect(refusal).rejects.toBeInstanceOf(RestoreRefused);
      await expect(refusal).rejects.toThrow(/made for (SQLite|PostgreSQL), but DATABASE_URL points at/);
      const boardOnly = path.join(scratch, `board-${t.dialect}.zip`);
      writeFileSync(boardOnly, rawZip([{ name: '1-board.json', data: '{}' }]));
      await expect(
        restoreExport({ zipFile: boardOnly, databaseUrl: target.url, dataDir: target.dataDir, s3: null }),
      ).rejects.toThrow(/no database\.sql/);
    } finally {
      await target.drop();
    }
  });

  it('starts answering at once and streams the rest', async () => {
    const base = await t.listen();
    const started = Date.now();
    const res = await fetch(`${base}/api/data/export`, { headers: { 'x-api-key': admin.key } });
    const reader = res.body!.getReader();
    const first = await reader.read();
    expect(first.done).toBe(false);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(Buffer.from(first.value!.subarray(0, 4)).toString('latin1')).toBe('PK\u0003\u0004');
    await reader.cancel();
  });
});
