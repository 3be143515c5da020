import type { Db } from '../../db/database.js';
import type { Dialect } from '../../db/dialects/index.js';

export interface AccountAddress {
  id: string;
  email: string;
  emailVerified: boolean;
}

export async function accountAddress(db: Db, id: string): Promise<AccountAddress | undefined> {
  const row = await db.selectFrom('user').select(['id', 'email', 'emailVerified']).where('id', '=', id).executeTakeFirst();
  return row && { id: row.id, email: row.email, emailVerified: row.emailVerified === true || row.emailVerified === 1 };
}

/** Answers whether the address was unconfirmed until now. */
export async function confirmAddress(db: Db, dialect: Dialect, id: string): Promise<boolean> {
  const result = await db
    .updateTable('user')
    .set({ emailVerified: dialect.true, updatedAt: new Date().toISOString() })
    .where('id', '=', id)
    .where('emailVerified', '<>', dialect.true)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
