import type { Kysely } from 'kysely';
import type { ColumnTypes } from '../dialect.js';

/** Answers to writes sent with an Idempotency-Key, kept 24 hours so that a retry is answered, not repeated. */
export async function up(db: Kysely<unknown>, t: ColumnTypes): Promise<void> {
  await db.schema
    .createTable('idempotency_keys')
    .addColumn('userId', 'text', (c) => c.notNull().references('user.id').onDelete('cascade'))
    .addColumn('key', 'text', (c) => c.notNull())
    // What the request was (method, address, body): the same key with another request is refused.
    .addColumn('fingerprint', 'text', (c) => c.notNull())
    // Null while the first request is still being answered.
    .addColumn('status', 'integer')
    .addColumn('response', 'text')
    .addColumn('createdAt', t.timestamp, (c) => c.notNull())
    .addPrimaryKeyConstraint('idempotency_keys_pk', ['userId', 'key'])
    .execute();
  await db.schema.createIndex('idempotency_keys_created').on('idempotency_keys').column('createdAt').execute();
}
