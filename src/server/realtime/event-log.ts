import type { BoardEvent } from '../../shared/events.js';
import type { Db } from '../db/database.js';
import { toIso } from '../db/dialect.js';

/** How long the event log keeps a board's events for viewers to resume from. */
export const EVENT_RETENTION_DAYS = 7;

/** The stored events of a board with versions in (after, upTo], oldest first. */
export async function readEvents(db: Db, boardId: number, after: number, upTo: number): Promise<BoardEvent[]> {
  const rows = await db
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
    .where('board_events.version', '>', after)
    .where('board_events.version', '<=', upTo)
    .orderBy('board_events.version')
    .execute();
  return rows.map((row) => ({
    boardId,
    version: row.version,
    name: row.name as BoardEvent['name'],
    actor: row.actorId === null ? null : { id: row.actorId, name: row.actorName ?? '' },
    data: JSON.parse(row.data) as BoardEvent['data'],
    createdAt: toIso(row.createdAt),
  }));
}

/** Forgets events older than the retention window; a viewer further behind reloads the board. */
export async function pruneEvents(db: Db, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - EVENT_RETENTION_DAYS * 86_400_000).toISOString();
  const result = await db.deleteFrom('board_events').where('createdAt', '<', cutoff).executeTakeFirst();
  return Number(result.numDeletedRows);
}
