import { CompiledQuery, Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { AHEAD, LATER, SETTLE, ahead } from '../ahead.js';
import { hotQuery } from '../hot-query.js';
import type { Db } from '../database.js';
import { dumpPostgres } from '../dump/dump-postgres.js';
import { postgresRestoreTarget } from '../dump/restore-target.js';
import type { Schema } from '../schema.js';
import type { Cursor, Dialect, Snapshots } from './index.js';
import { listenOn } from './pg-listen.js';
import { PreparingClient } from './pg-prepared.js';
import { pgTypes } from './pg-types.js';
import { describePool } from '../pool-load.js';
import { jsonPairs } from './sqlite.js';
import { querySpans } from '../../telemetry/tracing.js';

let cursors = 0;

/** PostgreSQL: a pool per process, any number of processes; row locks and NOTIFY keep them in step. */
export const postgres: Dialect = {
  name: 'postgres',
  label: 'PostgreSQL',
  announcesSessionEnds: true,
  true: true,
  holdsLoop: false,

  open(url) {
    const pool = new pg.Pool({ connectionString: url, max: 10, types: pgTypes, Client: PreparingClient });
    // An idle client that loses its server must not crash the process; the pool replaces it.
    pool.on('error', () => undefined);
    const db = new Kysely<Schema>({ dialect: new PostgresDialect({ pool }), log: querySpans('postgresql') });
    describePool(db, () => ({ inUse: pool.totalCount - pool.idleCount, idle: pool.idleCount, waiting: pool.waitingCount }));
    return db;
  },

  openSnapshots: (url, _main, connections) => postgresSnapshots(url, connections),

  lockForUpdate: (query, of) => (of ? query.forUpdate(of) : query.forUpdate()) as typeof query,
  skipLocked: (query) => query.forUpdate().skipLocked() as typeof query,
  exclusive: async (trx, name) => {
    await sql`select pg_advisory_xact_lock(hashtext(${name}))`.execute(trx);
  },
  writeQueue: (boardId) => boardId,
  // No parameters, so the simple protocol: both statements go as one message.
  savepoint: (trx, replaceLast) =>
    sql
      .raw(`${replaceLast ? 'release savepoint write; ' : ''}savepoint write${AHEAD}`)
      .execute(trx)
      .then(() => undefined),

  settle: (trx) =>
    sql
      .raw(SETTLE)
      .execute(trx)
      .then(() => undefined),

  pipeline: (trx, writes) =>
    // Held for the whole exchange: no statement of `trx` can come in between.
    trx.getExecutor().provideConnection(async (connection) => {
      const answers: Array<Promise<unknown[]>> = [];
      writes.forEach((write, w) => {
        if (write.savepoint !== null) {
          void connection.executeQuery(CompiledQuery.raw(`savepoint ${write.savepoint}${AHEAD}`)).catch(() => undefined);
        }
        write.statements.forEach((query, s) => {
          const own = s === write.statements.length - 1;
          // Everything but the very last statement waits in the socket's buffer (db/ahead.ts): one write for all.
          const end = own ? (w === writes.length - 1 ? '' : LATER) : query.sql.endsWith(AHEAD) ? '' : AHEAD;
          const sent = connection.executeQuery(CompiledQuery.raw(query.sql + end, [...query.parameters]));
          if (own) answers.push(sent.then((result) => result.rows));
          else void sent.catch(() => undefined);
        });
      });
      return Promise.allSettled(answers);
    }),

  savepointNamed: (trx, name) =>
    sql
      .raw(`savepoint ${name}${AHEAD}`)
      .execute(trx)
      .then(() => undefined),

  rollbackTo: (trx, name) =>
    sql
      .raw(`rollback to savepoint ${name}`)
      .execute(trx)
      .then(() => undefined),

  async storeBatch(trx, batch) {
    await storeBatchInOne(
      trx,
      batch.boardId,
      batch.count,
      batch.last,
      batch.events,
      batch.channel,
      JSON.stringify(batch.payload),
    );
    return true;
  },

  async notify(db, channel, payload, inTransaction = false) {
    await sql`select pg_notify(${channel}, ${JSON.stringify(payload)})${inTransaction ? ahead : sql``}`.execute(db);
    return true;
  },
  listen: listenOn,

  json: {
    array: (value, order, from) => `(SELECT coalesce(json_agg(${value} ORDER BY ${order}), '[]'::json) FROM ${from})`,
    object: (p) => `json_build_object(${jsonPairs(p)})`,
    text: (value) => `(${value})::text`,
    quote: (value) => `to_json((${value})::text)::text`,
  },

  // A cursor lives in its transaction: the export's snapshot is one.
  cursor<R>(db: Db, query: Parameters<Dialect['cursor']>[1], size: number): Cursor<R> {
    const name = sql.raw(`export_cursor_${++cursors}`);
    let declared = false;
    return {
      async next() {
        if (!declared) {
          await sql`DECLARE ${name} NO SCROLL CURSOR FOR ${query}`.execute(db);
          declared = true;
        }
        return (await sql<R>`FETCH ${sql.raw(String(size))} FROM ${name}`.execute(db)).rows;
      },
      async close() {
        if (!declared) return;
        declared = false;
        await sql`CLOSE ${name}`.execute(db).catch(() => undefined);
      },
    };
  },

  cardHits(db, terms) {
    const query = terms.map((t) => `${t}:*`).join(' & ');
    // Negated, so that lower comes first as with SQLite's bm25.
    return db
      .selectFrom('cards')
      .select(['cards.id', sql<number>`-ts_rank(cards.search, to_tsquery('simple', ${query}))`.as('rank')])
      .where(sql<boolean>`cards.search @@ to_tsquery('simple', ${query})`);
  },

  dump: dumpPostgres,
  restoreTarget: postgresRestoreTarget,
};

/**
 * `storeBatch`'s statement: the version bump, the event rows (read from JSON)
 * and the announcement, sent ahead. On a torn history the `case` casts a
 * message to an integer: the insert fails with it.
 */
const storeBatchInOne = hotQuery(
  (db: Db, boardId: number, count: number, last: number, events: string, channel: string, payload: string) => sql`
    with b as (update boards set version = version + ${count} where id = ${boardId} returning version),
    e as (
      insert into board_events ("boardId", version, name, data, "actorId", "createdAt")
      select case when b.version = ${last} then ${boardId}
          else cast('torn history: board ' || ${boardId} || ' is at version ' || b.version || ', its events end at ' || ${last} as integer) end,
        x.version, x.name, x.data, x."actorId", x."createdAt"
      from b, json_to_recordset(cast(${events} as json))
        as x(version integer, name text, data text, "actorId" text, "createdAt" timestamptz)
    )
    select pg_notify(${channel}, ${payload})${ahead}`,
);

/**
 * A read-only REPEATABLE READ transaction on a connection of a pool of its
 * own (`connections` at most), never one of the requests' pool: an export
 * streams to a reader that may be slow or stall, and it must never hold what
 * the rest of the service needs meanwhile.
 */
function postgresSnapshots(url: string, connections: number): Snapshots {
  let pool: Kysely<Schema> | undefined;
  return {
    run(work) {
      pool ??= new Kysely<Schema>({
        dialect: new PostgresDialect({ pool: exportPool(url, connections) }),
        log: querySpans('postgresql'),
      });
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
