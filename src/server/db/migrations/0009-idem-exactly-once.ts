import type { Kysely } from 'kysely';
import type { ColumnTypes } from '../dialect.js';

/**
 * Exactly-once `Idempotency-Key`: each board write a keyed request makes
 * stores its result in the write's own transaction, so a retry after a crash
 * between the commit and the answer finds the write done and answers from its
 * result instead of running it again. `owner` names the attempt that holds the
 * key (null once it gave up after a write): a write whose attempt lost the key
 * to a retry is refused inside its transaction.
 */
export async function up(db: Kysely<unknown>, t: ColumnTypes): Promise<void> {
  await db.schema.alterTable('idempotency_keys').addColumn('owner', 'text').execute();
  // When the attempt last committed a write: its answer follows within milliseconds, unless the process died.
  await db.schema.alterTable('idempotency_keys').addColumn('appliedAt', t.timestamp).execute();
  await db.schema
    .createTable('idempotency_writes')
    .addColumn('userId', 'text', (c) => c.notNull().references('user.id').onDelete('cascade'))
    .addColumn('key', 'text', (c) => c.notNull())
    // The request's n-th write, from 0: a retry runs the same handler, whose writes come in the same order.
    .addColumn('ordinal', 'integer', (c) => c.notNull())
    // `{"value": …}` as JSON, or null when the result held a secret (never kept).
    .addColumn('result', 'text')
    .addPrimaryKeyConstraint('idempotency_writes_pk', ['userId', 'key', 'ordinal'])
    .execute();
}
