import type { Insertable } from 'kysely';
import type { CommentTable } from '../../db/schema.js';
import type { Db } from '../../db/database.js';

/** A comment row with what its presentation needs: its card's board and the author's account, if any. */
export interface CommentRecord {
  id: number;
  cardId: number;
  boardId: number;
  userId: string | null;
  authorName: string | null;
  content: string;
  createdAt: Date | string;
  updatedAt: Date | string;
  userName: string | null;
  userImage: string | null;
}

function selectComments(db: Db) {
  return db
    .selectFrom('comments')
    .innerJoin('cards', 'cards.id', 'comments.cardId')
    .leftJoin('user', 'user.id', 'comments.userId')
    .select([
      'comments.id',
      'comments.cardId',
      'cards.boardId',
      'comments.userId',
      'comments.authorName',
      'comments.content',
      'comments.createdAt',
      'comments.updatedAt',
      'user.name as userName',
      'user.image as userImage',
    ]);
}

export async function findComment(db: Db, id: number): Promise<CommentRecord | undefined> {
  return selectComments(db).where('comments.id', '=', id).executeTakeFirst();
}

/** The newest `limit` comments of a card older than `before` (an id), oldest first. */
export async function commentsOfCard(db: Db, cardId: number, page: { limit: number; before?: number }): Promise<CommentRecord[]> {
  const rows = await selectComments(db)
    .where('comments.cardId', '=', cardId)
    .$if(page.before !== undefined, (q) => q.where('comments.id', '<', page.before!))
    .orderBy('comments.id', 'desc')
    .limit(page.limit)
    .execute();
  return rows.reverse();
}

/** Answers the new comment's id. */
export async function insertComment(db: Db, comment: Insertable<CommentTable>): Promise<number> {
  const { id } = await db.insertInto('comments').values(comment).returning('id').executeTakeFirstOrThrow();
  return id;
}

export async function updateCommentContent(db: Db, id: number, content: string, now: string): Promise<void> {
  await db.updateTable('comments').set({ content, updatedAt: now }).where('id', '=', id).execute();
}

export async function deleteCommentRow(db: Db, id: number): Promise<void> {
  await db.deleteFrom('comments').where('id', '=', id).execute();
}
