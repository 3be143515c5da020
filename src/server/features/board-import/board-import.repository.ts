import type { Insertable } from 'kysely';
import { sharesBoardWith } from '../../access/index.js';
import type { Db } from '../../db/database.js';
import type {
  AreaTable,
  CardFieldValueTable,
  CustomFieldTable,
  CardAssigneeTable,
  CardLabelTable,
  CardReminderTable,
  Schema,
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
 * The writes of an import: a whole new board, many rows per statement within
 * the caller's transaction. Each insert answers the new ids in the order of
 * the rows given: one statement numbers its rows in the order of its VALUES,
 * so the ids, sorted, line up with the rows whatever order RETURNING uses.
 */

/**
 * Rows per statement: a few hundred, and within SQLite's 32,766 bound
 * parameters (PostgreSQL allows 65,535) whatever the number of columns.
 */
const MAX_ROWS = 500;
const MAX_PARAMETERS = 32_766;

function chunks<T extends object>(rows: T[]): T[][] {
  if (rows.length === 0) return [];
  const columns = Math.max(1, Object.keys(rows[0]!).length);
  const size = Math.max(1, Math.min(MAX_ROWS, Math.floor(MAX_PARAMETERS / columns)));
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += size) out.push(rows.slice(i, i + size));
  return out;
}

type WithId = 'labels' | 'areas' | 'cards' | 'comments' | 'attachments' | 'custom_fields';
type Row<T extends WithId> = {
  labels: Insertable<LabelTable>;
  custom_fields: Insertable<CustomFieldTable>;
  areas: Insertable<AreaTable>;
  cards: Insertable<CardTable>;
  comments: Insertable<CommentTable>;
  attachments: Insertable<AttachmentTable>;
}[T];

async function insertNumbered<T extends WithId>(db: Db, table: T, rows: Array<Row<T>>): Promise<number[]> {
  const ids: number[] = [];
  for (const chunk of chunks(rows)) {
    // One table of several: the rows' type is checked by the typed wrappers below.
    const out = await db
      .insertInto(table as 'labels')
      .values(chunk as Array<Insertable<LabelTable>>)
      .returning('id')
      .execute();
    ids.push(...out.map((r) => Number(r.id)).sort((a, b) => a - b));
  }
  return ids;
}

async function insertAll<
  T extends 'images' | 'card_labels' | 'card_assignees' | 'card_reminders' | 'card_activity' | 'card_field_values',
>(db: Db, table: T, rows: Array<Insertable<Schema[T]>>): Promise<void> {
  for (const chunk of chunks(rows)) await db.insertInto(table).values(chunk).execute();
}

export const insertLabels = (db: Db, rows: Array<Insertable<LabelTable>>) => insertNumbered(db, 'labels', rows);
export const insertFields = (db: Db, rows: Array<Insertable<CustomFieldTable>>) => insertNumbered(db, 'custom_fields', rows);
export const insertAreas = (db: Db, rows: Array<Insertable<AreaTable>>) => insertNumbered(db, 'areas', rows);
export const insertCards = (db: Db, rows: Array<Insertable<CardTable>>) => insertNumbered(db, 'cards', rows);
export const insertComments = (db: Db, rows: Array<Insertable<CommentTable>>) => insertNumbered(db, 'comments', rows);
export const insertAttachments = (db: Db, rows: Array<Insertable<AttachmentTable>>) => insertNumbered(db, 'attachments', rows);

export const insertImages = (db: Db, rows: Array<Insertable<ImageTable>>) => insertAll(db, 'images', rows);
export const addCardLabels = (db: Db, rows: Array<Insertable<CardLabelTable>>) => insertAll(db, 'card_labels', rows);
/** In the order given: a card's first assignee is the one a single-assignee client shows. */
export const addAssignees = (db: Db, rows: Array<Insertable<CardAssigneeTable>>) => insertAll(db, 'card_assignees', rows);
export const addReminders = (db: Db, rows: Array<Insertable<CardReminderTable>>) => insertAll(db, 'card_reminders', rows);
export const addFieldValues = (db: Db, rows: Array<Insertable<CardFieldValueTable>>) => insertAll(db, 'card_field_values', rows);
export const insertActivity = (db: Db, rows: Array<Insertable<CardActivityTable>>) => insertAll(db, 'card_activity', rows);
