import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import type { Db } from './database.js';
import { pgTypes } from './pg-types.js';
import type { Schema } from './schema.js';

/**
 * Consistent views of the database for exports, kept apart from the
 * connections that answer requests: an export streams to a reader that may
 * be slow or stall, and it must never hold what the rest of the service
 * needs meanwhile.
 */
export interface Snapshots {
  /**
   * Runs `work` on one consistent view of the database, so an export taken
   * while people keep working is a single moment (a dump whose rows refer to
   * each other restores without dangling references).
   */
  run<T>(work: (db: Db) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/**
 * - PostgreSQL: a read-only REPEATABLE READ transaction on a connection of
 *   a pool of its own (`connections` at most), never one of the requests' pool.
 * - SQLite: a read transaction on a separate read-only connection to the
 *   same file. WAL lets the service keep writing meanwhile; on the service's
 *   own connection a transaction would hold every other request until the
 *   export is done. (An in-memory database has no second connection: `work`
 *   then reads through the service's, one query at a time.)
 */
export function openSnapshots(url: string, main: Db, connections: number): Snapshots {
  if (url.startsWith('sqlite:')) return sqliteSnapshots(url, main);
  let pool: Kysely<Schema> | undefined;
  return {
    run(work) {
      pool ??= new Kysely<Schema>({ dialect: new PostgresDialect({ pool: exportPool(url, connections) }) });
      return pool
        .transaction()
        .setIsolationLevel('repeatable read')
        .execute(async (trx) => {
          await sql`SET TRANSACTION READ ONLY`.execute(trx);
          await sql`SET LOCAL TIME ZONE 'UTC'`.execute(trx);
          return work(trx);
        });
    },
    close: async () => {
      await pool?.destroy();
      pool = undefined;
    },
  };
}

function exportPool(url: string, max: number): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max, types: pgTypes, application_name: 'tavla-export' });
  pool.on('error', () => undefined);
  return pool;
}

function sqliteSnapshots(url: string, main: Db): Snapshots {
  return {
    async run(work) {
      const file = sqliteFile(url);
      if (file === null) return work(main);
      const connection = reusingStatements(new SQLite(file, { readonly: true, fileMustExist: true }));
      connection.pragma('busy_timeout = 5000');
      const reader = new Kysely<Schema>({ dialect: new SqliteDialect({ database: connection }) });
      try {
        return await reader.transaction().execute(work);
      } finally {
        await reader.destroy();
      }
    },
    close: () => Promise.resolve(),
  };
}

/**
 * An export runs the same few queries thousands of times; Kysely prepares
 * each afresh, which costs about as much as running it. The same text gets
 * the same prepared statement back (a fresh one while that one is still busy).
 */
function reusingStatements(sqlite: SQLite.Database): SQLite.Database {
  const prepare = sqlite.prepare.bind(sqlite);
  const cache = new Map<string, SQLite.Statement>();
  sqlite.prepare = ((source: string) => {
    const cached = cache.get(source);
    if (cached && !cached.busy) return cached;
    const statement = prepare(source);
    if (!cached && cache.size < 200) cache.set(source, statement);
    return statement;
  }) as SQLite.Database['prepare'];
  return sqlite;
}

/** The file of a `sqlite://` address, or null for an in-memory database. */
export function sqliteFile(databaseUrl: string): string | null {
  const file = databaseUrl.replace(/^sqlite:(\/\/)?/, '');
  return file === ':memory:' || file === '' ? null : file;
}
