import type { Insertable } from 'kysely';
import type { Db } from '../../db/database.js';
import type { AttachmentTable, ImageTable } from '../../db/schema.js';

/** Answers the columns an attachment is presented with. */
export function insertAttachment(db: Db, values: Insertable<AttachmentTable>) {
  return db
    .insertInto('attachments')
    .values(values)
    .returning(['id', 'filename', 'filetype', 'filesize', 'createdAt'])
    .executeTakeFirstOrThrow();
}

export function findAttachment(db: Db, id: number) {
  return db.selectFrom('attachments').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The attachment with the board of its card: access to a file is access to that board. */
export function findAttachmentWithBoard(db: Db, id: number) {
  return db
    .selectFrom('attachments')
    .innerJoin('cards', 'cards.id', 'attachments.cardId')
    .selectAll('attachments')
    .select('cards.boardId')
    .where('attachments.id', '=', id)
    .executeTakeFirst();
}

/** Only the row: the file is the caller's to remove once nothing refers to it. */
export async function deleteAttachment(db: Db, id: number): Promise<void> {
  await db.deleteFrom('attachments').where('id', '=', id).execute();
}

/** Answers the new image's id. */
export async function insertImage(db: Db, values: Insertable<ImageTable>): Promise<number> {
  const row = await db.insertInto('images').values(values).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

/** A pasted picture by the name its file is stored under. */
export function findImage(db: Db, storedName: string) {
  return db.selectFrom('images').selectAll().where('storedName', '=', storedName).executeTakeFirst();
}
