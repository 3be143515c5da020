import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import type { Database, Db } from '../../db/database.js';
import type { Schema } from '../../db/schema.js';

/**
 * Runs `work` on one consistent view of the database, so an export taken
 * while people keep working is a single moment (a dump whose rows refer to
 * each other restores without dangling references).
 *
 * - PostgreSQL: a read-only REPEATABLE READ transaction on one pooled connection.
 * - SQLite: a read transaction on a separate read-only connection to the
 *   same file. WAL lets the service keep writing meanwhile; on the service's
 *   own connection a transaction would hold every other request until the
 *   export is done. (An in-memory database has no second connection: `work`
 *   then reads it directly.)
 */
export async function withSnapshot<T>(database: Database, databaseUrl: string, work: (db: Db) => Promise<T>): Promise<T> {
  if (database.dialect === 'postgres') {
    return database.db
      .transaction()
      .setIsolationLevel('repeatable read')
      .execute(async (trx) => {
        await sql`SET TRANSACTION READ ONLY`.execute(trx);
        await sql`SET LOCAL TIME ZONE 'UTC'`.execute(trx);
        return work(trx);
      });
  }
  const file = sqliteFile(databaseUrl);
  if (file === null) return work(database.db);
  const connection = reusingStatements(new SQLite(file, { readonly: true, fileMustExist: true }));
  connection.pragma('busy_timeout = 5000');
  const reader = new Kysely<Schema>({ dialect: new SqliteDialect({ database: connection }) });
  try {
    return await reader.transaction().execute(work);
  } finally {
    await reader.destroy();
  }
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
