import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { SQLite } from '../dialects/sqlite-driver.js';
import pg from 'pg';
import { ACCOUNT_ANNOUNCEMENTS } from '../account-announcements.js';
import { sqliteFile } from '../dialects/sqlite.js';
import { quoteIdent } from './sql-text.js';

/** The target cannot take a restore; nothing was changed. */
export class TargetRefused extends Error {}

/** The database restored into, reduced to what the restore needs. */
export interface Target {
  /** The tables that hold data of their own (FTS shadow tables and the like left out), and every table there is. */
  tables(): Promise<{ data: string[]; all: string[] }>;
  hasRows(table: string): Promise<boolean>;
  drop(tables: string[]): Promise<void>;
  exec(statement: string): Promise<void>;
  /** Puts back what a dump holds no statement for (PostgreSQL: the accounts' announcing triggers), before the COMMIT. */
  completeSchema(): Promise<void>;
  attachmentFile(id: number): Promise<string | null>;
  imageExists(storedName: string): Promise<boolean>;
  rollback(): Promise<void>;
  close(): Promise<void>;
}

const FTS_SHADOWS = ['_data', '_idx', '_content', '_docsize', '_config', '_segments', '_segdir', '_stat'];

export function sqliteRestoreTarget(databaseUrl: string): Target {
  const file = sqliteFile(databaseUrl);
  if (file === null) throw new TargetRefused('Restore needs a database file, not an in-memory database');
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
    // One process: it hears its own changes, no trigger announces them.
    completeSchema: () => Promise.resolve(),
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

export async function postgresRestoreTarget(databaseUrl: string): Promise<Target> {
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
    // A restore drops the tables, and with them their triggers.
    completeSchema: async () => {
      for (const statement of ACCOUNT_ANNOUNCEMENTS) await client.query(statement);
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
