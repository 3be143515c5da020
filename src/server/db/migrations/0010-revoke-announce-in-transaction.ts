import { sql, type Kysely } from 'kysely';
import { ACCOUNT_ANNOUNCEMENTS } from '../account-announcements.js';
import type { ColumnTypes } from '../dialect.js';

/**
 * PostgreSQL: an ended session, a ban, a removal or another change of an
 * account is announced to the other processes by the database, inside the
 * transaction that makes it (see account-announcements.ts). SQLite serves one
 * process, which hears its own changes on its bus.
 */
export async function up(db: Kysely<unknown>, t: ColumnTypes): Promise<void> {
  if (t.dialect !== 'postgres') return;
  for (const statement of ACCOUNT_ANNOUNCEMENTS) await sql.raw(statement).execute(db);
}
