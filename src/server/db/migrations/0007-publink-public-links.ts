import type { Kysely } from 'kysely';
import type { ColumnTypes } from '../dialect.js';

/**
 * A board's public read-only link: at most one per board (a new one replaces
 * it), kept only as the hash of its token, like invitation links.
 */
export async function up(db: Kysely<unknown>, t: ColumnTypes): Promise<void> {
  await db.schema
    .createTable('public_links')
    .addColumn('boardId', 'integer', (c) => c.primaryKey().references('boards.id').onDelete('cascade'))
    .addColumn('tokenHash', 'text', (c) => c.notNull().unique())
    .addColumn('createdBy', 'text')
    .addColumn('createdAt', t.timestamp, (c) => c.notNull())
    .execute();
}
