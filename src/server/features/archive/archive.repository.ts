import { ownedBy } from '../../access/index.js';
import type { Db } from '../../db/database.js';
import type { AreaRow, CardRow } from '../../db/schema.js';

/** The board's archived areas, latest first, each with the count of its cards that were not archived on their own. */
export function archivedAreas(db: Db, boardId: number) {
  return db
    .selectFrom('areas')
    .select(['id', 'name', 'archivedAt'])
    .select((eb) =>
      eb
        .selectFrom('cards')
        .select(eb.fn.countAll<number>().as('n'))
        .whereRef('cards.areaId', '=', 'areas.id')
        .where('cards.archivedAt', 'is', null)
        .as('cardCount'),
    )
    .where('boardId', '=', boardId)
    .where('archivedAt', 'is not', null)
    .orderBy('archivedAt', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

/** Cards archived on their own, latest first: those of an archived area come back with it, so they are not listed. */
export function archivedCards(db: Db, boardId: number) {
  return db
    .selectFrom('cards')
    .innerJoin('areas', 'areas.id', 'cards.areaId')
    .select(['cards.id', 'cards.name', 'cards.archivedAt', 'areas.name as areaName'])
    .where('cards.boardId', '=', boardId)
    .where('cards.archivedAt', 'is not', null)
    .where('areas.archivedAt', 'is', null)
    .orderBy('cards.archivedAt', 'desc')
    .orderBy('cards.id', 'desc')
    .execute();
}

/** The archived boards the account owns (only the owner restores a board), latest first. */
export function archivedBoardsOf(db: Db, actorId: string) {
  return db
    .selectFrom('boards')
    .select(['id', 'name', 'archivedAt'])
    .where((eb) => ownedBy(eb, actorId))
    .where('archivedAt', 'is not', null)
    .orderBy('archivedAt', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

export function unarchiveCard(db: Db, id: number, now: string): Promise<CardRow> {
  return db
    .updateTable('cards')
    .set({ archivedAt: null, updatedAt: now })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export function unarchiveArea(db: Db, id: number, now: string): Promise<AreaRow> {
  return db
    .updateTable('areas')
    .set({ archivedAt: null, updatedAt: now })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/*
 * Retention: what has stayed archived since before the cutoff. Read outside
 * the removals' transactions, so each removal checks its row again.
 */

export function boardsArchivedBefore(db: Db, cutoff: string): Promise<Array<{ id: number }>> {
  return db.selectFrom('boards').select('id').where('archivedAt', '<', cutoff).execute();
}

export function areasArchivedBefore(db: Db, cutoff: string): Promise<Array<{ id: number; boardId: number }>> {
  return db.selectFrom('areas').select(['id', 'boardId']).where('archivedAt', '<', cutoff).execute();
}

export function cardsArchivedBefore(db: Db, cutoff: string): Promise<Array<{ id: number; boardId: number }>> {
  return db.selectFrom('cards').select(['id', 'boardId']).where('archivedAt', '<', cutoff).execute();
}
