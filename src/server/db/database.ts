import { setImmediate as nextTurn } from 'node:timers/promises';
import { sql, type CompiledQuery, type Kysely } from 'kysely';
import { dialectFor, type Dialect } from './dialects/index.js';
import type { Schema } from './schema.js';

export type Db = Kysely<Schema>;

/** A statement built and not run (`hotQuery(…).compiled`), to be sent with others (`Dialect.pipeline`). */
export type Statement = CompiledQuery<unknown>;

export interface Database {
  db: Db;
  /** What differs between SQLite and PostgreSQL; `dialect.name` for logs. */
  dialect: Dialect;
  /** Answers whether the database responds within `timeoutMs`. */
  ping(timeoutMs?: number): Promise<boolean>;
  /** Runs `work` on one consistent, read-only view, on connections of its own (see `Dialect.openSnapshots`). */
  snapshot<T>(work: (db: Db) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** PostgreSQL: how many connections the snapshots (exports) may hold at once, apart from the requests' pool. */
  snapshotConnections?: number;
}

/** `DATABASE_URL` picks the dialect: `sqlite://<file>` or `postgres://…`. */
export function openDatabase(url: string, options: DatabaseOptions = {}): Database {
  const dialect = dialectFor(url);
  const db = dialect.open(url);
  const snapshots = dialect.openSnapshots(url, db, options.snapshotConnections ?? 4);
  return {
    db,
    dialect,
    async ping(timeoutMs = 2000) {
      let answered: boolean | undefined;
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, timeoutMs);
      });
      const query = sql`select 1`.execute(db).then(
        () => (answered = true),
        () => (answered = false),
      );
      try {
        await Promise.race([query, timeout]);
        // A timer that fires late (the event loop was held) runs before the loop reads the
        // answer that may be waiting on the socket: one more turn, or a held loop reads as
        // an unreachable database.
        if (answered === undefined) await nextTurn();
        return answered === true;
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
