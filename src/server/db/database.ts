import { mkdirSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import type { DialectName } from './dialect.js';
import type { Schema } from './schema.js';

export type Db = Kysely<Schema>;

export interface Database {
  db: Db;
  dialect: DialectName;
  /** Answers whether the database responds within `timeoutMs`. */
  ping(timeoutMs?: number): Promise<boolean>;
  close(): Promise<void>;
}

/** `DATABASE_URL` picks the dialect: `sqlite://<file>` or `postgres://…`. */
export function openDatabase(url: string): Database {
  const db = url.startsWith('sqlite:') ? openSqlite(url) : openPostgres(url);
  const dialect: DialectName = url.startsWith('sqlite:') ? 'sqlite' : 'postgres';
  return {
    db,
    dialect,
    async ping(timeoutMs = 2000) {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<false>((resolve) => {
        timer = setTimeout(() => resolve(false), timeoutMs);
      });
      const query = sql`select 1`.execute(db).then(
        () => true,
        () => false,
      );
      try {
        return await Promise.race([query, timeout]);
      } finally {
        clearTimeout(timer);
      }
    },
    close: () => db.destroy(),
  };
}

function openSqlite(url: string): Db {
  const file = url.replace(/^sqlite:(\/\/)?/, '');
  if (file !== ':memory:') mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const sqlite = new SQLite(file);
  // WAL lets readers run beside a writer; FULL makes every commit durable across a power cut.
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('foreign_keys = ON');
  return new Kysely<Schema>({ dialect: new SqliteDialect({ database: sqlite }) });
}

// 64-bit integers (counts, millisecond times) as numbers: every value we store fits in 2^53.
const INT8_OID = 20;
const pgTypes: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format: 'text'): ((value: string) => unknown) =>
    oid === INT8_OID
      ? (value: string) => Number(value)
      : (pg.types.getTypeParser(oid, format) as (value: string) => unknown)) as pg.CustomTypesConfig['getTypeParser'],
};

function openPostgres(url: string): Db {
  const pool = new pg.Pool({ connectionString: url, max: 10, types: pgTypes });
  // An idle client that loses its server must not crash the process; the pool replaces it.
  pool.on('error', () => undefined);
  return new Kysely<Schema>({ dialect: new PostgresDialect({ pool }) });
}
