import type { Kysely } from 'kysely';
import type { ColumnTypes } from '../dialect.js';

/**
 * Failed sign-ins count per address and client address, so a stranger's
 * failures lock the stranger out and not the owner. The counts are a day's
 * memory at most: the table starts afresh rather than being converted.
 */
export async function up(db: Kysely<unknown>, t: ColumnTypes): Promise<void> {
  await db.schema.dropTable('signin_failures').execute();
  await db.schema
    .createTable('signin_failures')
    // The normalized address typed in, whether or not an account has it.
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('client', 'text', (c) => c.notNull())
    .addColumn('failures', 'integer', (c) => c.notNull())
    .addColumn('lastAttemptAt', t.timestamp, (c) => c.notNull())
    .addColumn('lockedUntil', t.timestamp)
    .addPrimaryKeyConstraint('signin_failures_pk', ['email', 'client'])
    .execute();
  await db.schema.createIndex('signin_failures_last').on('signin_failures').column('lastAttemptAt').execute();
}
