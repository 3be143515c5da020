import type { Kysely } from 'kysely';
import type { ColumnTypes } from '../dialect.js';

/**
 * Counters for invitations by address, one row per inviting account and per
 * address: a fixed window that starts again once it has passed.
 */
export async function up(db: Kysely<unknown>, t: ColumnTypes): Promise<void> {
  await db.schema
    .createTable('invite_limits')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addColumn('windowStart', t.timestamp, (c) => c.notNull())
    .execute();
}
