import type { Insertable } from 'kysely';
import { sharesBoardWith } from '../../access/index.js';
import type { Db } from '../../db/database.js';
import type {
  AreaTable,
  AttachmentTable,
  CardActivityTable,
  CardTable,
  CommentTable,
  ImageTable,
  LabelTable,
} from '../../db/schema.js';

/**
 * The names of the account and of everyone who shares a board with it (owner
 * or member), as a Trello import may recognise its comment authors.
 */
export async function namesKnownTo(db: Db, actorId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('user')
    .select('name')
    .where((eb) => sharesBoardWith(eb, actorId))
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
