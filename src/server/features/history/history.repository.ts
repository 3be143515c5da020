import type { Db } from '../../db/database.js';
import { eventsWithActors } from '../../realtime/event-log.repository.js';

/** The board's changes with versions in (floor, before), newest first, with the name of whoever made each. */
export function historyRows(db: Db, boardId: number, floor: number, before: number, limit: number) {
  return eventsWithActors(db, boardId)
    .where('board_events.version', '>', floor)
    .where('board_events.version', '<', before)
    .orderBy('board_events.version', 'desc')
    .limit(limit)
    .execute();
}
