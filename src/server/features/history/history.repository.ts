import type { Db } from '../../db/database.js';

/** The board's changes with versions in (floor, before), newest first, with the name of whoever made each. */
export function historyRows(db: Db, boardId: number, floor: number, before: number, limit: number) {
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
    .where('board_events.boardId', '=', boardId)
    .where('board_events.version', '>', floor)
    .where('board_events.version', '<', before)
    .orderBy('board_events.version', 'desc')
    .limit(limit)
    .execute();
}
