import type { Db } from '../../db/database.js';
import type { Dialect } from '../../db/dialects/index.js';

/** The account's picture and name, its row locked on PostgreSQL until the transaction ends (two changes take turns). */
export function lockPicture(
  db: Db,
  dialect: Dialect,
  userId: string,
): Promise<{ image: string | null; name: string } | undefined> {
  return db
    .selectFrom('user')
    .select(['image', 'name'])
    .where('id', '=', userId)
    .$call((q) => dialect.lockForUpdate(q))
    .executeTakeFirst();
}

export async function setPicture(db: Db, userId: string, image: string | null, now: string): Promise<void> {
  await db.updateTable('user').set({ image, updatedAt: now }).where('id', '=', userId).execute();
}

/** Whether some account uses this `image` address as its picture: its file must stay (and may be served). */
export async function pictureInUse(db: Db, image: string): Promise<boolean> {
  const row = await db.selectFrom('user').select('id').where('image', '=', image).executeTakeFirst();
  return row !== undefined;
}

/** Whether the stored file belongs to a board (an attachment or a pasted picture), which no profile picture may expose. */
export async function isBoardFile(db: Db, storedName: string): Promise<boolean> {
  const row = await db
    .selectFrom('attachments')
    .select('storedName')
    .where('storedName', '=', storedName)
    .union(db.selectFrom('images').select('storedName').where('storedName', '=', storedName))
    .executeTakeFirst();
  return row !== undefined;
}
