import type { Kysely } from 'kysely';
import type { ColumnTypes } from '../dialect.js';

/** Boards, their members and the per-board event log that realtime viewers resume from. */
export async function up(db: Kysely<unknown>, t: ColumnTypes): Promise<void> {
  await db.schema
    .createTable('boards')
    .addColumn('id', t.serial, t.autoKey)
    .addColumn('ownerId', 'text', (c) => c.notNull().references('user.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('style', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('image', 'text')
    .addColumn('color', 'text')
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('archivedAt', t.timestamp)
    .addColumn('createdAt', t.timestamp, (c) => c.notNull())
    .addColumn('updatedAt', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('boards_owner').on('boards').column('ownerId').execute();

  await db.schema
    .createTable('board_members')
    .addColumn('id', t.serial, t.autoKey)
    .addColumn('boardId', 'integer', (c) => c.notNull().references('boards.id').onDelete('cascade'))
    .addColumn('userId', 'text', (c) => c.notNull().references('user.id').onDelete('cascade'))
    .addColumn('permission', 'text', (c) => c.notNull())
    .addColumn('createdAt', t.timestamp, (c) => c.notNull())
    .addUniqueConstraint('board_members_board_user', ['boardId', 'userId'])
    .execute();
  await db.schema.createIndex('board_members_user').on('board_members').column('userId').execute();

  await db.schema
    .createTable('board_events')
    .addColumn('id', t.serial, t.autoKey)
    .addColumn('boardId', 'integer', (c) => c.notNull().references('boards.id').onDelete('cascade'))
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('actorId', 'text')
    .addColumn('createdAt', t.timestamp, (c) => c.notNull())
    .addUniqueConstraint('board_events_board_version', ['boardId', 'version'])
    .execute();
}
