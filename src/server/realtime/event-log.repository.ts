import type { Db } from '../db/database.js';

/** A board's events with the name of whoever made each: what a replay and the history list read. */
export function eventsWithActors(db: Db, boardId: number) {
  return db
    .selectFrom('board_events')
    .leftJoin('user', 'user.id', 'board_events.actorId')
    .select([
      'board_events.version',
      'board_events.name',
      'board_events.data',
      'board_events.actorId',
      'board_events.createdAt',
      'user.name as actorName',
    ])
    .where('board_events.boardId', '=', boardId);
}

/** The rows of a board's events with versions in (after, upTo], leaving out `skipped` ones, oldest first. */
export function eventRows(db: Db, boardId: number, after: number, upTo: number, skipped: string) {
  return eventsWithActors(db, boardId)
    .where('board_events.version', '>', after)
    .where('board_events.version', '<=', upTo)
    .where('board_events.name', '!=', skipped)
    .orderBy('board_events.version')
    .execute();
}

/**
 * The board's events of these names whose data may mention the cards or
 * comments: a coarse textual prefilter (data is compact JSON) that spares
 * parsing every event of a busy board; the caller's parse decides.
 */
export function eventsMentioning(
  db: Db,
  boardId: number,
  names: readonly string[],
  mentions: { ids: readonly number[]; cardIds: readonly number[] },
) {
  return db
    .selectFrom('board_events')
    .select(['id', 'name', 'data'])
    .where('boardId', '=', boardId)
    .where('name', 'in', names)
    .where((eb) =>
      eb.or([
        ...mentions.ids.map((id) => eb('data', 'like', `%"id":${id}%`)),
        ...mentions.cardIds.map((id) => eb('data', 'like', `%"cardId":${id}%`)),
      ]),
    )
    .execute();
}

/** Rewrites a stored event (its version stays). */
export async function rewriteEvent(db: Db, id: number, changes: { name?: string; data: string }): Promise<void> {
  await db.updateTable('board_events').set(changes).where('id', '=', id).execute();
}

/** Answers how many events went. */
export async function deleteEventsBefore(db: Db, cutoff: string): Promise<number> {
  const result = await db.deleteFrom('board_events').where('createdAt', '<', cutoff).executeTakeFirst();
  return Number(result.numDeletedRows);
}
