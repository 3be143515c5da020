import { sql, type Kysely } from 'kysely';
import type { ColumnTypes } from '../dialect.js';

/**
 * Areas, cards and what hangs on a card (labels, assignees, reminders), and
 * invitations by address. `sort` numbers every area of a board, and every card
 * of an area, 0..n-1 with the archived ones in place, so an archived thing
 * keeps its spot to come back to and a move rewrites ranges, not every row.
 */
export async function up(db: Kysely<unknown>, t: ColumnTypes): Promise<void> {
  await db.schema
    .createTable('areas')
    .addColumn('id', t.serial, t.autoKey)
    .addColumn('boardId', 'integer', (c) => c.notNull().references('boards.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('sort', 'integer', (c) => c.notNull())
    .addColumn('archivedAt', t.timestamp)
    .addColumn('createdAt', t.timestamp, (c) => c.notNull())
    .addColumn('updatedAt', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('areas_board_sort').on('areas').columns(['boardId', 'sort']).execute();

  await db.schema
    .createTable('cards')
    .addColumn('id', t.serial, t.autoKey)
    .addColumn('areaId', 'integer', (c) => c.notNull().references('areas.id').onDelete('cascade'))
    // A card never leaves its board, so the board is kept on the card for one-step access checks.
    .addColumn('boardId', 'integer', (c) => c.notNull().references('boards.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('sort', 'integer', (c) => c.notNull())
    .addColumn('dueDate', t.timestamp)
    .addColumn('repeatEvery', 'text')
    // The due date the rhythm counts from, and the area the next card goes to.
    .addColumn('repeatAnchor', t.timestamp)
    .addColumn('repeatAreaId', 'integer')
    .addColumn('archivedAt', t.timestamp)
    .addColumn('createdAt', t.timestamp, (c) => c.notNull())
    .addColumn('updatedAt', t.timestamp, (c) => c.notNull())
    .execute();
  if (t.dialect === 'postgres') {
    // A move rewrites the sort of many cards: with sort out of every index and room left in each page,
    // PostgreSQL updates those rows in place (HOT) instead of leaving a dead copy and new index entries.
    await db.schema.createIndex('cards_area').on('cards').column('areaId').execute();
    await sql`ALTER TABLE cards SET (fillfactor = 70)`.execute(db);
  } else {
    await db.schema.createIndex('cards_area_sort').on('cards').columns(['areaId', 'sort']).execute();
  }
  await db.schema.createIndex('cards_board').on('cards').column('boardId').execute();

  await db.schema
    .createTable('labels')
    .addColumn('id', t.serial, t.autoKey)
    .addColumn('boardId', 'integer', (c) => c.notNull().references('boards.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    // Unicode lower case of the trimmed name: one label per word per board, whatever its case.
    .addColumn('nameKey', 'text', (c) => c.notNull())
    .addColumn('createdAt', t.timestamp, (c) => c.notNull())
    .addUniqueConstraint('labels_board_name', ['boardId', 'nameKey'])
    .execute();

  await db.schema
    .createTable('card_labels')
    .addColumn('cardId', 'integer', (c) => c.notNull().references('cards.id').onDelete('cascade'))
    .addColumn('labelId', 'integer', (c) => c.notNull().references('labels.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('card_labels_pk', ['cardId', 'labelId'])
    .execute();
  await db.schema.createIndex('card_labels_label').on('card_labels').column('labelId').execute();

  await db.schema
    .createTable('card_assignees')
    // The id keeps the order in which people were put on the card.
    .addColumn('id', t.serial, t.autoKey)
    .addColumn('cardId', 'integer', (c) => c.notNull().references('cards.id').onDelete('cascade'))
    .addColumn('userId', 'text', (c) => c.notNull().references('user.id').onDelete('cascade'))
    .addColumn('createdAt', t.timestamp, (c) => c.notNull())
    .addUniqueConstraint('card_assignees_card_user', ['cardId', 'userId'])
    .execute();
  await db.schema.createIndex('card_assignees_user').on('card_assignees').column('userId').execute();

  await db.schema
    .createTable('card_reminders')
    .addColumn('id', t.serial, t.autoKey)
    .addColumn('cardId', 'integer', (c) => c.notNull().references('cards.id').onDelete('cascade'))
    .addColumn('minutesBefore', 'integer', (c) => c.notNull())
    .addUniqueConstraint('card_reminders_card_minutes', ['cardId', 'minutesBefore'])
    .execute();

  await db.schema
    .createTable('board_invites')
    .addColumn('id', t.serial, t.autoKey)
    .addColumn('boardId', 'integer', (c) => c.notNull().references('boards.id').onDelete('cascade'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('permission', 'text', (c) => c.notNull())
    .addColumn('tokenHash', 'text', (c) => c.notNull().unique())
    .addColumn('invitedBy', 'text')
    .addColumn('expiresAt', t.timestamp, (c) => c.notNull())
    .addColumn('usedAt', t.timestamp)
    .addColumn('createdAt', t.timestamp, (c) => c.notNull())
    .addUniqueConstraint('board_invites_board_email', ['boardId', 'email'])
    .execute();
}
