import { mkdirSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import type { DialectName } from './dialect.js';
import { pgTypes } from './pg-types.js';
import type { Schema } from './schema.js';
import { openSnapshots } from './snapshot.js';

export type Db = Kysely<Schema>;

export interface Database {
  db: Db;
  dialect: DialectName;
  /** Answers whether the database responds within `timeoutMs`. */
  ping(timeoutMs?: number): Promise<boolean>;
  /** Runs `work` on one consistent, read-only view, on connections of its own (see snapshot.ts). */
  snapshot<T>(work: (db: Db) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** PostgreSQL: how many connections the snapshots (exports) may hold at once, apart from the requests' pool. */
  snapshotConnections?: number;
}

/** `DATABASE_URL` picks the dialect: `sqlite://<file>` or `postgres://…`. */
export function openDatabase(url: string, options: DatabaseOptions = {}): Database {
  const db = url.startsWith('sqlite:') ? openSqlite(url) : openPostgres(url);
  const dialect: DialectName = url.startsWith('sqlite:') ? 'sqlite' : 'postgres';
  const snapshots = openSnapshots(url, db, options.snapshotConnections ?? 4);
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
    snapshot: (work) => snapshots.run(work),
    close: async () => {
      await snapshots.close();
      await db.destroy();
    },
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
  return new Kysely<Schema>({ dialect: new SqliteDialect({ database: reusingStatements(sqlite) }) });
}

const STATEMENT_CACHE = 500;

/**
 * Kysely prepares every query afresh; preparing costs about as much as
 * running a small query. The same SQL text gets the same prepared statement
 * back (a fresh one while the cached one is still being iterated).
 */
function reusingStatements(sqlite: SQLite.Database): SQLite.Database {
  const prepare = sqlite.prepare.bind(sqlite);
  const cache = new Map<string, SQLite.Statement>();
  sqlite.prepare = ((source: string) => {
    const cached = cache.get(source);
    if (cached && !cached.busy) return cached;
    const statement = prepare(source);
    if (!cached) {
      if (cache.size >= STATEMENT_CACHE) cache.delete(cache.keys().next().value!);
      cache.set(source, statement);
    }
    return statement;
  }) as SQLite.Database['prepare'];
  return sqlite;
}

function openPostgres(url: string): Db {
  const pool = new pg.Pool({ connectionString: url, max: 10, types: pgTypes });
  // An idle client that loses its server must not crash the process; the pool replaces it.
  pool.on('error', () => undefined);
  return new Kysely<Schema>({ dialect: new PostgresDialect({ pool }) });
}
