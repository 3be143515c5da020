import type { Kysely } from 'kysely';
import type { ColumnTypes } from '../dialect.js';

/** Secret calendar feed addresses, one or more per account; only the SHA-256 of each secret is kept. */
export async function up(db: Kysely<unknown>, t: ColumnTypes): Promise<void> {
  await db.schema
    .createTable('ical_feeds')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('userId', 'text', (c) => c.notNull().references('user.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('start', 'text', (c) => c.notNull())
    .addColumn('tokenHash', 'text', (c) => c.notNull().unique())
    .addColumn('boardIds', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('createdAt', t.timestamp, (c) => c.notNull())
    .addColumn('lastUsedAt', t.timestamp)
    .execute();
  await db.schema.createIndex('ical_feeds_user').on('ical_feeds').column('userId').execute();
}
