import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import { SQLite } from './sqlite-driver.js';
import { Kysely, SqliteDialect, sql } from 'kysely';
import type { Db } from '../database.js';
import { dumpSqlite } from '../dump/dump-sqlite.js';
import { sqliteRestoreTarget } from '../dump/restore-target.js';
import type { Schema } from '../schema.js';
import type { Dialect, Snapshots } from './index.js';
import { describePool } from '../pool-load.js';
import { querySpans } from '../../telemetry/tracing.js';

/** SQLite: one process, one connection, one writer at a time. */
export const sqlite: Dialect = {
  name: 'sqlite',
  label: 'SQLite',
  announcesSessionEnds: false,
  true: 1,
  holdsLoop: true,

  open(url) {
    const file = url.replace(/^sqlite:(\/\/)?/, '');
    if (file !== ':memory:') mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
    const connection = new SQLite(file);
    // WAL lets readers run beside a writer; FULL makes every commit durable across a power cut.
    connection.pragma('journal_mode = WAL');
    connection.pragma('synchronous = FULL');
    connection.pragma('busy_timeout = 5000');
    connection.pragma('foreign_keys = ON');
    const db = new Kysely<Schema>({
      dialect: new SqliteDialect({ database: reusingStatements(connection, 500) }),
      log: querySpans('sqlite'),
    });
    // One connection: in use while a transaction holds it; the queries waiting for it are not counted anywhere.
    describePool(db, () =>
      connection.inTransaction ? { inUse: 1, idle: 0, waiting: null } : { inUse: 0, idle: 1, waiting: null },
    );
    return db;
  },

  openSnapshots: (url, main) => sqliteSnapshots(url, main),

  lockForUpdate: (query) => query,
  skipLocked: (query) => query,
  exclusive: () => Promise.resolve(),
  writeQueue: () => 0,
  async savepoint(trx, replaceLast) {
    if (replaceLast) await sql`release savepoint write`.execute(trx);
    await sql`savepoint write`.execute(trx);
  },

  settle: () => Promise.resolve(),
  // Its statements answer as they run: the writes of a batch run one by one.
  pipeline: null,
  async savepointNamed(trx, name) {
    await sql.raw(`savepoint ${name}`).execute(trx);
  },
  async rollbackTo(trx, name) {
    await sql.raw(`rollback to savepoint ${name}`).execute(trx);
  },
  // Its statements answer as they run: nothing to gain by folding them into one.
  storeBatch: () => Promise.resolve(false),
  notify: () => Promise.resolve(false),
  listen: () => null,

  json: {
    // json(): the array stays JSON (not a string) when json_object takes it from the subquery.
    array: (value, order, from) => `json((SELECT json_group_array(${value} ORDER BY ${order}) FROM ${from}))`,
    object: (p) => `json_object(${jsonPairs(p)})`,
    text: (value) => value,
    quote: (value) => `json_quote(${value})`,
  },
  cursor: () => null,

  // FTS5: every term quoted (so it is a plain word) and prefix-matched; a name hit weighs ten times a
  // description hit. The index comes first in the plan, so only the matching cards are looked up.
  cardHits(db, terms) {
    const match = terms.map((t) => `"${t}"*`).join(' ');
    return db
      .selectFrom(sql`cards_fts`.as('cards_fts'))
      .select([sql<number>`cards_fts.rowid`.as('id'), sql<number>`bm25(cards_fts, 10.0, 1.0)`.as('rank')])
      .where(sql<boolean>`cards_fts MATCH ${match}`);
  },

  dump: dumpSqlite,
  restoreTarget: (url) => Promise.resolve(sqliteRestoreTarget(url)),
};

export function jsonPairs(p: Record<string, string>): string {
  return Object.entries(p)
    .map(([k, v]) => `'${k}', ${v}`)
    .join(', ');
}

/**
 * Kysely prepares every query afresh; preparing costs about as much as
 * running a small query. The same SQL text gets the same prepared statement
 * back (a fresh one while the cached one is still being iterated); the
 * `size` most recently added texts are kept.
 */
function reusingStatements(connection: BetterSqlite3.Database, size: number): BetterSqlite3.Database {
  const prepare = connection.prepare.bind(connection);
  const cache = new Map<string, BetterSqlite3.Statement>();
  connection.prepare = ((source: string) => {
    const cached = cache.get(source);
    if (cached && !cached.busy) return cached;
    const statement = prepare(source);
    if (!cached) {
      if (cache.size >= size) cache.delete(cache.keys().next().value!);
      cache.set(source, statement);
    }
    return statement;
  }) as BetterSqlite3.Database['prepare'];
  return connection;
}

/**
 * A read transaction on a separate read-only connection to the same file.
 * WAL lets the service keep writing meanwhile; on the service's own
 * connection a transaction would hold every other request until the export
 * is done. (An in-memory database has no second connection: `work` then
 * reads through the service's, one query at a time.)
 */
function sqliteSnapshots(url: string, main: Db): Snapshots {
  return {
    async run(work) {
      const file = sqliteFile(url);
      if (file === null) return work(main);
      // An export runs the same few queries thousands of times.
      const connection = reusingStatements(new SQLite(file, { readonly: true, fileMustExist: true }), 200);
      connection.pragma('busy_timeout = 5000');
      const reader = new Kysely<Schema>({ dialect: new SqliteDialect({ database: connection }), log: querySpans('sqlite') });
      try {
        return await reader.transaction().execute(work);
      } finally {
        await reader.destroy();
      }
    },
    close: () => Promise.resolve(),
  };
}

/** The file of a `sqlite://` address, or null for an in-memory database. */
export function sqliteFile(databaseUrl: string): string | null {
  const file = databaseUrl.replace(/^sqlite:(\/\/)?/, '');
  return file === ':memory:' || file === '' ? null : file;
}
