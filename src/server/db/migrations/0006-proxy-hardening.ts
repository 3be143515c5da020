import { sql, type Kysely } from 'kysely';
import type { ColumnTypes } from '../dialect.js';

/** Failed sign-ins per address (shared by every process), and no secrets left in sent mail. */
export async function up(db: Kysely<unknown>, t: ColumnTypes): Promise<void> {
  await db.schema
    .createTable('signin_failures')
    // The normalized address typed in, whether or not an account has it.
    .addColumn('email', 'text', (c) => c.primaryKey())
    .addColumn('failures', 'integer', (c) => c.notNull())
    .addColumn('lastAttemptAt', t.timestamp, (c) => c.notNull())
    .addColumn('lockedUntil', t.timestamp)
    .execute();
  await db.schema.createIndex('signin_failures_last').on('signin_failures').column('lastAttemptAt').execute();

  // Finished jobs no longer keep their payload; the mails already sent held invitation and reset links.
  await sql`update jobs set payload = '{}' where ${sql.ref('doneAt')} is not null`.execute(db);
}
