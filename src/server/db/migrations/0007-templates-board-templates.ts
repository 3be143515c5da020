import type { Kysely } from 'kysely';
import type { ColumnTypes } from '../dialect.js';

/**
 * Board templates an account saved: the structure of a board as one JSON
 * snapshot (areas, cards, labels), private to that account. The counts are
 * kept beside it so a list needs not read the snapshots.
 */
export async function up(db: Kysely<unknown>, t: ColumnTypes): Promise<void> {
  await db.schema
    .createTable('templates')
    .addColumn('id', t.serial, t.autoKey)
    .addColumn('ownerId', 'text', (c) => c.notNull().references('user.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('snapshot', 'text', (c) => c.notNull())
    .addColumn('areaCount', 'integer', (c) => c.notNull())
    .addColumn('cardCount', 'integer', (c) => c.notNull())
    .addColumn('createdAt', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('templates_owner').on('templates').column('ownerId').execute();
}
