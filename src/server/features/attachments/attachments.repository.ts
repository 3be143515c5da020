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

/** The stored files of a card's attachments (links have none). */
export function storedNamesOfCard(db: Db, cardId: number) {
  return db.selectFrom('attachments').select('storedName').where('cardId', '=', cardId).execute();
}

/** A card's attachments that have a stored file, in the order they were added. */
export function storedAttachmentsOfCard(db: Db, cardId: number) {
  return db
    .selectFrom('attachments')
    .select(['id', 'storedName'])
    .where('cardId', '=', cardId)
    .where('storedName', 'is not', null)
    .orderBy('id')
    .execute();
}

/** All of a card's attachments, in the order they were added. */
export function attachmentsOfCard(db: Db, cardId: number) {
  return db.selectFrom('attachments').selectAll().where('cardId', '=', cardId).orderBy('id').execute();
}

/** A copy of an attachment on another card: a stored one with its copied file, a link as it is. */
export async function copyAttachment(
  db: Db,
  cardId: number,
  a: { filename: string; filetype: string; filesize: number; url: string | null; userId: string | null },
  storedName: string | null,
  now: string,
): Promise<void> {
  await db
    .insertInto('attachments')
    .values({
      cardId,
      filename: a.filename,
      filetype: a.filetype,
      filesize: a.filesize,
      storedName,
      url: storedName === null ? a.url : null,
      userId: a.userId,
      createdAt: now,
    })
    .execute();
}
