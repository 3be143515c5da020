import { randomBytes } from 'node:crypto';
import { createWriteStream, existsSync, mkdirSync } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { StringDecoder } from 'node:string_decoder';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import type { DialectName } from '../../db/dialect.js';
import { isStoredName, uploadStore, type UploadStore } from '../../files/store.js';
import { sqliteFile } from '../../db/snapshot.js';
import { StatementSplitter, dumpDialect, quoteIdent, type Statement } from './sql-text.js';
import { BadZip, SafeZip, type ZipLimits } from './zip-reader.js';

/** The restore will not run: the input or the target database is not what it needs. Nothing was changed. */
export class RestoreRefused extends Error {}

export interface RestoreSummary {
  dialect: DialectName;
  statements: number;
  files: number;
}

/** An instance export is the administrator's own: its names and links are checked, its size is not capped. */
const OWN_EXPORT: ZipLimits = { maxEntries: Number.MAX_SAFE_INTEGER, maxTotalBytes: null, maxRatio: null, ratioFloorBytes: 0 };

const NAMES: Record<DialectName, string> = { sqlite: 'SQLite', postgres: 'PostgreSQL' };

/**
 * Loads an instance export (GET /api/data/export) into an empty database and
 * puts its files back under `DATA_DIR/uploads/`. `database.sql` is read and
 * run statement by statement as it is unpacked (one transaction: it is the
 * dump's own BEGIN … COMMIT); just before its COMMIT the files are copied to
 * the stored names the restored rows give them. Any failure rolls the
 * database back and removes the files written.
 */
export async function restoreExport(options: {
  zipFile: string;
  databaseUrl: string;
  dataDir: string;
  log?: (line: string) => void;
}): Promise<RestoreSummary> {
  const log = options.log ?? (() => undefined);
  const dialect: DialectName = options.databaseUrl.startsWith('sqlite:') ? 'sqlite' : 'postgres';
  let zip: SafeZip;
  try {
    zip = await SafeZip.open(options.zipFile, OWN_EXPORT);
  } catch (error) {
    throw new RestoreRefused(error instanceof Error ? error.message : String(error));
  }
  try {
    const dump = zip.entries.get('database.sql');
    if (!dump) throw new RestoreRefused('The zip holds no database.sql: restore takes an instance export (GET /api/data/export)');
    const source = await zip.stream(dump);
    const decoder = new StringDecoder('utf8');
    const chunks = source[Symbol.asyncIterator]() as AsyncIterator<Buffer>;

    // The header says which database the dump was written for; read it before touching the target.
    let head = '';
    while (head.length < 1024) {
      const next = await chunks.next();
      if (next.done) break;
      head += decoder.write(next.value);
    }
    const made = dumpDialect(head);
    if (made === null) throw new RestoreRefused('database.sql is not a Tavla database dump');
    if (made !== dialect)
      throw new RestoreRefused(
        `The dump was made for ${NAMES[made]}, but DATABASE_URL points at ${NAMES[dialect]}: restore it into an empty ${NAMES[made]} database`,
      );

    const target = dialect === 'sqlite' ? openSqlite(options.databaseUrl) : await openPostgres(options.databaseUrl);
    const store = uploadStore(options.dataDir);
    const written: string[] = [];
    let statements = 0;
    let committed = false;
    try {
      await clearEmptyTarget(target);
      const splitter = new StatementSplitter(made);
      const run = async (statement: Statement) => {
        if (statement.keyword === 'COMMIT') {
          log('copying the files into the upload folder');
          await copyFiles(target, zip, store, written);
          committed = true;
        }
        await target.exec(statement.text);
        statements++;
        if (statements % 1000 === 0) log(`${statements} statements`);
      };
      for (const statement of splitter.push(head)) await run(statement);
      for (;;) {
        const next = await chunks.next();
        if (next.done) break;
        for (const statement of splitter.push(decoder.write(next.value))) await run(statement);
      }
      for (const statement of splitter.end()) await run(statement);
      if (!committed) throw new Error('database.sql ended before its COMMIT: the export is incomplete');
    } catch (error) {
      await target.rollback().catch(() => undefined);
      await store.remove(written);
      throw error;
    } finally {
      await target.close();
    }
    return { dialect, statements, files: written.length };
  } catch (error) {
    if (error instanceof BadZip) throw new RestoreRefused(error.message);
    throw error;
  } finally {
    zip.close();
  }
}

/** The database restored into, reduced to what the restore needs. */
interface Target {
  /** The tables that hold data of their own (FTS shadow tables and the like left out), and every table there is. */
  tables(): Promise<{ data: string[]; all: string[] }>;
  hasRows(table: string): Promise<boolean>;
  drop(tables: string[]): Promise<void>;
  exec(statement: string): Promise<void>;
  attachmentFile(id: number): Promise<string | null>;
  imageExists(storedName: string): Promise<boolean>;
  rollback(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Refuses a database that holds any row; tables left empty (a schema made
 * but never used) are dropped so that the dump can create them again.
 */
async function clearEmptyTarget(target: Target): Promise<void> {
  const { data, all } = await target.tables();
  for (const table of data) {
    if (await target.hasRows(table))
      throw new RestoreRefused(
        `The database is not empty (table ${table} has rows). Restore needs an empty database: point DATABASE_URL at a new one.`,
      );
  }
  if (all.length > 0) await target.drop(all);
}

/** Puts each attachment and picture of the zip back under the stored name its restored row gives it. */
async function copyFiles(target: Target, zip: SafeZip, store: UploadStore, written: string[]): Promise<void> {
  await mkdir(store.tmpDir, { recursive: true });
  const done = new Set<string>();
  for (const [name, entry] of zip.entries) {
    let storedName: string | null = null;
    const attachment = /^attachments\/[^/]+\/(\d+)-[^/]*$/.exec(name);
    const image = /^attachments\/[^/]+\/images\/([^/]+)$/.exec(name);
    if (attachment) storedName = await target.attachmentFile(Number(attachment[1]));
    else if (image && isStoredName(image[1]!) && (await target.imageExists(image[1]!))) storedName = image[1]!;
    if (storedName === null || !isStoredName(storedName)) continue;
    const destination = store.pathOf(storedName);
    if (done.has(storedName) || existsSync(destination)) continue;
    const tmp = path.join(store.tmpDir, `${randomBytes(16).toString('hex')}.part`);
    try {
      await pipeline(await zip.stream(entry), createWriteStream(tmp, { flags: 'wx', mode: 0o600 }));
      await rename(tmp, destination);
      written.push(storedName);
      done.add(storedName);
    } catch (error) {
      await rm(tmp, { force: true });
      throw error;
    }
  }
}

const FTS_SHADOWS = ['_data', '_idx', '_content', '_docsize', '_config', '_segments', '_segdir', '_stat'];

function openSqlite(databaseUrl: string): Target {
  const file = sqliteFile(databaseUrl);
  if (file === null) throw new RestoreRefused('Restore needs a database file, not an in-memory database');
  mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const db = new SQLite(file);
  db.pragma('journal_mode = WAL');
  db.pragma('busy_timeout = 5000');
  return {
    tables: () => {
      const rows = db
        .prepare(`SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`)
        .all() as Array<{
        name: string;
        sql: string;
      }>;
      const virtual = rows.filter((r) => /^CREATE\s+VIRTUAL\s+TABLE/i.test(r.sql)).map((r) => r.name);
      const derived = new Set([...virtual, ...virtual.flatMap((v) => FTS_SHADOWS.map((s) => `${v}${s}`))]);
      return Promise.resolve({
        data: rows.map((r) => r.name).filter((n) => !derived.has(n)),
        all: [...virtual, ...rows.map((r) => r.name).filter((n) => !derived.has(n))],
      });
    },
    hasRows: (table) => Promise.resolve(db.prepare(`SELECT 1 FROM ${quoteIdent(table)} LIMIT 1`).get() !== undefined),
    drop: (tables) => {
      for (const table of tables) db.exec(`DROP TABLE IF EXISTS ${quoteIdent(table)}`);
      return Promise.resolve();
    },
    exec: (statement) => {
      db.exec(statement);
      return Promise.resolve();
    },
    attachmentFile: (id) => {
      const row = db.prepare('SELECT "storedName" AS name FROM attachments WHERE id = ?').get(id) as
        { name: string | null } | undefined;
      return Promise.resolve(row?.name ?? null);
    },
    imageExists: (storedName) =>
      Promise.resolve(db.prepare('SELECT 1 FROM images WHERE "storedName" = ?').get(storedName) !== undefined),
    rollback: () => {
      if (db.inTransaction) db.exec('ROLLBACK');
      return Promise.resolve();
    },
    close: () => {
      db.close();
      return Promise.resolve();
    },
  };
}

async function openPostgres(databaseUrl: string): Promise<Target> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  return {
    tables: async () => {
      const { rows } = await client.query<{ name: string }>(
        'SELECT tablename AS name FROM pg_tables WHERE schemaname = current_schema() ORDER BY tablename',
      );
      const names = rows.map((r) => r.name);
      return { data: names, all: names };
    },
    hasRows: async (table) => (await client.query(`SELECT 1 FROM ${quoteIdent(table)} LIMIT 1`)).rowCount !== 0,
    drop: async (tables) => {
      for (const table of tables) await client.query(`DROP TABLE IF EXISTS ${quoteIdent(table)} CASCADE`);
      const { rows } = await client.query<{ name: string }>(
        `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
         WHERE c.relkind = 'S' AND n.nspname = current_schema()`,
      );
      for (const { name } of rows) await client.query(`DROP SEQUENCE IF EXISTS ${quoteIdent(name)} CASCADE`);
    },
    exec: async (statement) => {
      await client.query(statement);
    },
    attachmentFile: async (id) => {
      const { rows } = await client.query<{ name: string | null }>('SELECT "storedName" AS name FROM attachments WHERE id = $1', [
        id,
      ]);
      return rows[0]?.name ?? null;
    },
    imageExists: async (storedName) =>
      ((await client.query('SELECT 1 FROM images WHERE "storedName" = $1', [storedName])).rowCount ?? 0) > 0,
    rollback: async () => {
      await client.query('ROLLBACK');
    },
    close: () => client.end(),
  };
}
