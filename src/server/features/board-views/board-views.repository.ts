import type { Db } from '../../db/database.js';

/** The lanes the account chose for the board, or undefined when it never chose. */
export async function storedLanes(db: Db, userId: string, boardId: number): Promise<string | null | undefined> {
  const row = await db
    .selectFrom('board_views')
    .select('lanes')
    .where('userId', '=', userId)
    .where('boardId', '=', boardId)
    .executeTakeFirst();
  return row?.lanes;
}

export async function putLanes(db: Db, userId: string, boardId: number, lanes: string | null, at: string): Promise<void> {
  await db
    .insertInto('board_views')
    .values({ userId, boardId, lanes, updatedAt: at })
    .onConflict((oc) => oc.columns(['userId', 'boardId']).doUpdateSet({ lanes, updatedAt: at }))
    .execute();
}
