import type { Db } from '../../db/database.js';

/** Deletes the account's API keys; answers their ids. */
export async function deleteKeys(db: Db, userId: string): Promise<string[]> {
  const rows = await db.deleteFrom('apikey').where('userId', '=', userId).returning('id').execute();
  return rows.map((r) => r.id);
}

export async function deleteCalendarFeeds(db: Db, userId: string): Promise<void> {
  await db.deleteFrom('ical_feeds').where('userId', '=', userId).execute();
}

/**
 * Webhooks are the owner's alone (see webhooks), so the account's are those
 * of the boards it owns; deliveries go with them. Answers the boards that had one.
 */
export async function deleteWebhooks(db: Db, userId: string): Promise<number[]> {
  const rows = await db
    .deleteFrom('webhooks')
    .where('boardId', 'in', db.selectFrom('boards').select('id').where('ownerId', '=', userId))
    .returning('boardId')
    .execute();
  return [...new Set(rows.map((r) => r.boardId))];
}

/** The boards showing a public link the account made or on a board it owns. */
export async function boardsWithLinks(db: Db, userId: string): Promise<number[]> {
  const rows = await db
    .selectFrom('public_links')
    .select('boardId')
    .where((eb) =>
      eb.or([
        eb('createdBy', '=', userId),
        eb('boardId', 'in', db.selectFrom('boards').select('id').where('ownerId', '=', userId)),
      ]),
    )
    .execute();
  return [...new Set(rows.map((r) => r.boardId))];
}

/** On the board's write path: its public link if the account made it or owns the board; answers how many. */
export async function deleteBoardLinks(db: Db, boardId: number, userId: string): Promise<number> {
  const result = await db
    .deleteFrom('public_links')
    .where('boardId', '=', boardId)
    .where((eb) =>
      eb.or([
        eb('createdBy', '=', userId),
        eb('boardId', 'in', db.selectFrom('boards').select('id').where('ownerId', '=', userId)),
      ]),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
