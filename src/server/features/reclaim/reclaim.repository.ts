import type { Db } from '../../db/database.js';

const ownedBoards = (db: Db, userId: string) => db.selectFrom('boards').select('id').where('ownerId', '=', userId);

/** Deletes the account's API keys; answers their ids. */
export async function deleteKeys(db: Db, userId: string): Promise<string[]> {
  const rows = await db.deleteFrom('apikey').where('userId', '=', userId).returning('id').execute();
  return rows.map((r) => r.id);
}

export async function deleteCalendarFeeds(db: Db, userId: string): Promise<void> {
  await db.deleteFrom('ical_feeds').where('userId', '=', userId).execute();
}

/** Webhooks are the owner's alone (see webhooks), so the account's are those of the boards it owns; deliveries go with them. */
export async function deleteWebhooks(db: Db, userId: string): Promise<void> {
  await db.deleteFrom('webhooks').where('boardId', 'in', ownedBoards(db, userId)).execute();
}

/** The public links the account made or that show its boards; answers the boards they showed. */
export async function deletePublicLinks(db: Db, userId: string): Promise<number[]> {
  const rows = await db
    .deleteFrom('public_links')
    .where((eb) => eb.or([eb('createdBy', '=', userId), eb('boardId', 'in', ownedBoards(db, userId))]))
    .returning('boardId')
    .execute();
  return [...new Set(rows.map((r) => r.boardId))];
}
