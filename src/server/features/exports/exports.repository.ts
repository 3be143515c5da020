import type { Insertable } from 'kysely';
import type { Db } from '../../db/database.js';
import { joinedBy } from '../../access/audience.js';
import type {
  AreaRow,
  AreaTable,
  AttachmentTable,
  BoardRow,
  CardActivityTable,
  CardTable,
  CommentTable,
  ImageTable,
  LabelTable,
} from '../../db/schema.js';

/** Rows read per query: memory holds one batch, however large the instance. */
export const BATCH = 500;

/** The board as the export's own snapshot sees it: it may have gone since the access check. */
export function findBoard(db: Db, boardId: number): Promise<BoardRow | undefined> {
  return db.selectFrom('boards').selectAll().where('id', '=', boardId).executeTakeFirst();
}

/** Every board by id, `BATCH` at a time. */
export async function* allBoards(db: Db): AsyncGenerator<BoardRow> {
  let after = 0;
  for (;;) {
    const rows = await db.selectFrom('boards').selectAll().where('id', '>', after).orderBy('id').limit(BATCH).execute();
    yield* rows;
    if (rows.length < BATCH) return;
    after = rows[rows.length - 1]!.id;
  }
}

/** Every attachment on the board's cards (archived ones too), by id, `BATCH` at a time. */
export async function* boardAttachments(db: Db, boardId: number) {
  let after = 0;
  for (;;) {
    const rows = await db
      .selectFrom('attachments')
      .innerJoin('cards', 'cards.id', 'attachments.cardId')
      .select(['attachments.id', 'attachments.filename', 'attachments.storedName', 'attachments.createdAt'])
      .where('cards.boardId', '=', boardId)
      .where('attachments.id', '>', after)
      .orderBy('attachments.id')
      .limit(BATCH)
      .execute();
    yield* rows;
    if (rows.length < BATCH) return;
    after = rows[rows.length - 1]!.id;
  }
}

/** Every picture uploaded to the board, by id, `BATCH` at a time. */
export async function* boardImages(db: Db, boardId: number) {
  let after = 0;
  for (;;) {
    const rows = await db
      .selectFrom('images')
      .select(['id', 'storedName', 'createdAt'])
      .where('boardId', '=', boardId)
      .where('id', '>', after)
      .orderBy('id')
      .limit(BATCH)
      .execute();
    yield* rows;
    if (rows.length < BATCH) return;
    after = rows[rows.length - 1]!.id;
  }
}

/** An account's name, as the board file names the owner. */
export function findAccount(db: Db, id: string): Promise<{ id: string; name: string } | undefined> {
  return db.selectFrom('user').select(['id', 'name']).where('id', '=', id).executeTakeFirst();
}

/** Every area of the board, archived ones too, in board order (equal sorts by id, so every export lists them alike). */
export function areasInOrder(db: Db, boardId: number): Promise<AreaRow[]> {
  return db.selectFrom('areas').selectAll().where('boardId', '=', boardId).orderBy('sort').orderBy('id').execute();
}

/** The areas a reader sees (none archived), in board order as `areasInOrder` has them. */
export function visibleAreasInOrder(db: Db, boardId: number): Promise<Array<{ id: number; name: string }>> {
  return db
    .selectFrom('areas')
    .select(['id', 'name'])
    .where('boardId', '=', boardId)
    .where('archivedAt', 'is', null)
    .orderBy('sort')
    .orderBy('id')
    .execute();
}

/** Which of these stored names are pictures of this board: a picture of another board never goes into its zip. */
export function boardImagesNamed(db: Db, boardId: number, storedNames: string[]): Promise<Array<{ storedName: string }>> {
  return db
    .selectFrom('images')
    .select('storedName')
    .where('boardId', '=', boardId)
    .where('storedName', 'in', storedNames)
    .execute();
}

/**
 * The names of the account and of everyone who shares a board with it (owner
 * or member), as a Trello import may recognise its comment authors.
 */
export async function namesKnownTo(db: Db, actorId: string): Promise<string[]> {
  const boards = db
    .selectFrom('boards')
    .select('id')
    .where((eb) => joinedBy(eb, actorId));
  const rows = await db
    .selectFrom('user')
    .select('name')
    .where((eb) =>
      eb.or([
        eb('id', '=', actorId),
        eb('id', 'in', eb.selectFrom('boards').select('ownerId').where('id', 'in', boards)),
        eb('id', 'in', eb.selectFrom('board_members').select('userId').where('boardId', 'in', boards)),
      ]),
    )
    .execute();
  return rows.map((r) => r.name);
}

/*
 * The writes of an import: a whole new board, row by row within the
 * caller's transaction, each answering the new id the rows after it point at.
 */

export function insertLabel(db: Db, label: Insertable<LabelTable>): Promise<{ id: number }> {
  return db.insertInto('labels').values(label).returning('id').executeTakeFirstOrThrow();
}

export async function insertImage(db: Db, image: Insertable<ImageTable>): Promise<void> {
  await db.insertInto('images').values(image).execute();
}

export function insertArea(db: Db, area: Insertable<AreaTable>): Promise<{ id: number }> {
  return db.insertInto('areas').values(area).returning('id').executeTakeFirstOrThrow();
}

export function insertCard(db: Db, card: Insertable<CardTable>): Promise<{ id: number }> {
  return db.insertInto('cards').values(card).returning('id').executeTakeFirstOrThrow();
}

export async function addCardLabels(db: Db, cardId: number, labelIds: number[]): Promise<void> {
  await db
    .insertInto('card_labels')
    .values(labelIds.map((labelId) => ({ cardId, labelId })))
    .execute();
}

/** In this order: the first assignee is the one a single-assignee client shows. */
export async function addAssignees(db: Db, cardId: number, userIds: string[], now: string): Promise<void> {
  await db
    .insertInto('card_assignees')
    .values(userIds.map((userId) => ({ cardId, userId, createdAt: now })))
    .execute();
}

export async function addReminders(db: Db, cardId: number, minutesBefore: number[]): Promise<void> {
  await db
    .insertInto('card_reminders')
    .values(minutesBefore.map((minutes) => ({ cardId, minutesBefore: minutes })))
    .execute();
}

export function insertComment(db: Db, comment: Insertable<CommentTable>): Promise<{ id: number }> {
  return db.insertInto('comments').values(comment).returning('id').executeTakeFirstOrThrow();
}

export function insertAttachment(db: Db, attachment: Insertable<AttachmentTable>): Promise<{ id: number }> {
  return db.insertInto('attachments').values(attachment).returning('id').executeTakeFirstOrThrow();
}

export async function insertActivity(db: Db, entries: Array<Insertable<CardActivityTable>>): Promise<void> {
  await db.insertInto('card_activity').values(entries).execute();
}
