import { sql, type Compilable, type RawBuilder } from 'kysely';
import type { BoardEvent } from '../../shared/events.js';
import { ahead, later } from '../db/ahead.js';
import type { Db } from '../db/database.js';
import { dialectOf, type Dialect } from '../db/dialects/index.js';
import { hotQuery } from '../db/hot-query.js';
import type { BoardRow } from '../db/schema.js';

/*
 * The statements of the board write path (board-write.ts, group-commit.ts),
 * its hottest code: the functions hand back the driver's promise itself, so
 * that moving the statements here costs no await of its own.
 */

/**
 * The batch's lock on the board: taken once, it serialises the board's
 * writers across processes. It also reads, under the lock, the column `hook`
 * gives (the board's active webhooks): the caller sends it without waiting
 * and reads the answer at the batch's end, long arrived by then (the first
 * write's access check waits behind it), so the end of the batch needs no
 * round trip of its own to know whether deliveries are due.
 */
export function boardLock(
  hook: () => { read: (dialect: Dialect) => RawBuilder<string> } | undefined,
): (db: Db, boardId: number) => Promise<Array<{ id: number; hooked?: string }>> {
  return hotQuery((db: Db, boardId: number): Compilable<{ id: number; hooked?: string }> => {
    const dialect = dialectOf(db);
    const board = db.selectFrom('boards').where('id', '=', boardId);
    const hooked = hook();
    return dialect
      .lockForUpdate(hooked ? board.select(['id', hooked.read(dialect).as('hooked')]) : board.select('id'))
      .modifyEnd(later);
  });
}

/** The board's stored row, without any caller's access (the service's own writes). */
export function storedBoard(trx: Db, boardId: number): Promise<BoardRow | undefined> {
  return trx.selectFrom('boards').selectAll().where('id', '=', boardId).executeTakeFirst();
}

/**
 * Raises the board's version; answers the new one and, when `hook` gives one,
 * its column too (read under the board's lock). `hook` is asked once per
 * database, when the query is first built.
 */
export function versionBump(
  hook: () => { read: (dialect: Dialect) => RawBuilder<string> } | undefined,
): (db: Db, by: number, boardId: number) => Promise<Array<{ version: number; hooked?: string }>> {
  return hotQuery((db: Db, by: number, boardId: number): Compilable<{ version: number; hooked?: string }> => {
    const bump = db
      .updateTable('boards')
      .set((eb) => ({ version: eb('version', '+', by) }))
      .where('id', '=', boardId);
    const hooked = hook();
    return hooked ? bump.returning(['version', hooked.read(dialectOf(db)).as('hooked')]) : bump.returning('version');
  });
}

export function insertEventRows(trx: Db, events: readonly BoardEvent[]): Promise<unknown> {
  return (
    trx
      .insertInto('board_events')
      .values(
        events.map((e) => ({
          boardId: e.boardId,
          version: e.version,
          name: e.name,
          data: JSON.stringify(e.data),
          actorId: e.actor?.id ?? null,
          createdAt: e.createdAt,
        })),
      )
      // Ahead of the next statement (the deliveries, or the COMMIT), whose answer carries its error (a torn history's duplicate version).
      .modifyEnd(ahead)
      .execute()
  );
}

/** A batch's event rows as JSON, for `Dialect.storeBatch`. */
export function eventRowsJson(events: readonly BoardEvent[]): string {
  return JSON.stringify(
    events.map((e) => ({
      version: e.version,
      name: e.name,
      data: JSON.stringify(e.data),
      actorId: e.actor?.id ?? null,
      createdAt: e.createdAt,
    })),
  );
}

/** Undoes the failed write of a batch alone: back to the savepoint `write` its dialect opened for it. */
export function rollbackToWriteSavepoint(trx: Db): Promise<unknown> {
  return sql`rollback to savepoint write`.execute(trx);
}
