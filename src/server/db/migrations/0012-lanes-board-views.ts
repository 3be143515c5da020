import type { Kysely } from 'kysely';
import type { ColumnTypes } from '../dialect.js';

/**
 * A person's own view of a board: for now, how its cards are grouped into
 * swimlanes (`assignee`, `label`, `field:<id>`; null = no lanes). One row per
 * account and board, gone with either.
 */
export async function up(db: Kysely<unknown>, t: ColumnTypes): Promise<void> {
  await db.schema
    .createTable('board_views')
    .addColumn('userId', 'text', (c) => c.notNull().references('user.id').onDelete('cascade'))
    .addColumn('boardId', 'integer', (c) => c.notNull().references('boards.id').onDelete('cascade'))
    .addColumn('lanes', 'text')
    .addColumn('updatedAt', t.timestamp, (c) => c.notNull())
    .addPrimaryKeyConstraint('board_views_pk', ['userId', 'boardId'])
    .execute();
  // Removing a board finds its rows without a scan.
  await db.schema.createIndex('board_views_board').on('board_views').column('boardId').execute();
}
