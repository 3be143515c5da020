import type { Db } from '../db/database.js';
import type { Dialect } from '../db/dialects/index.js';

export async function anyAccountExists(db: Db): Promise<boolean> {
  return (await db.selectFrom('user').select('id').limit(1).executeTakeFirst()) !== undefined;
}

/**
 * Two first sign-ups at once both saw an empty instance and both came in as
 * administrators: one at a time (across processes), each such account steps
 * down when another administrator already exists, so exactly one stays.
 */
export async function keepOneFirstAdmin(db: Db, dialect: Dialect, userId: string, confirmedAsFirst = false): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await dialect.exclusive(trx, 'tavla:first-admin');
    const other = await trx
      .selectFrom('user')
      .select('id')
      .where('role', '=', 'admin')
      .where('id', '<>', userId)
      .limit(1)
      .executeTakeFirst();
    if (!other) return;
    await trx
      .updateTable('user')
      .set(confirmedAsFirst ? { role: 'user', emailVerified: dialect.true === true ? false : 0 } : { role: 'user' })
      .where('id', '=', userId)
      .execute();
  });
}

/** Whether the account's address is confirmed. */
export async function addressConfirmed(db: Db, userId: string): Promise<boolean> {
  const row = await db.selectFrom('user').select('emailVerified').where('id', '=', userId).executeTakeFirst();
  return row?.emailVerified === true || row?.emailVerified === 1;
}

/** Whether a session row exists. */
export async function sessionExists(db: Db, id: string): Promise<boolean> {
  return (await db.selectFrom('session').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
}

/** The id of the account with exactly this address (as stored), if any. */
export async function accountIdByEmail(db: Db, email: string): Promise<string | undefined> {
  return (await db.selectFrom('user').select('id').where('email', '=', email).executeTakeFirst())?.id;
}

export async function makeAdmin(db: Db, userId: string): Promise<void> {
  await db.updateTable('user').set({ role: 'admin' }).where('id', '=', userId).execute();
}

export interface Account {
  id: string;
  name: string;
  image: string | null;
  email: string;
  /** Whether someone proved to receive mail at the address. */
  emailVerified: boolean;
}

const accountColumns = ['id', 'name', 'image', 'email', 'emailVerified'] as const;
const toAccount = (row: Omit<Account, 'emailVerified'> & { emailVerified: boolean | number }): Account => ({
  ...row,
  emailVerified: row.emailVerified === true || row.emailVerified === 1,
});

export async function findAccountById(db: Db, id: string): Promise<Account | undefined> {
  const row = await db.selectFrom('user').select(accountColumns).where('id', '=', id).executeTakeFirst();
  return row && toAccount(row);
}

/** The account with this address (given in lower case), whatever the case it was stored in. */
export async function findAccountByMail(db: Db, mail: string): Promise<Account | undefined> {
  const row = await db
    .selectFrom('user')
    .select(accountColumns)
    .where((eb) => eb(eb.fn('lower', ['email']), '=', mail))
    .executeTakeFirst();
  return row && toAccount(row);
}

/** Answers whether the address was unconfirmed until now. */
export async function markMailVerified(db: Db, dialect: Dialect, userId: string): Promise<boolean> {
  const result = await db
    .updateTable('user')
    .set({ emailVerified: dialect.true })
    .where('id', '=', userId)
    .where('emailVerified', '<>', dialect.true)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function deleteAccount(db: Db, id: string): Promise<void> {
  await db.deleteFrom('user').where('id', '=', id).execute();
}

/** An account as the operator's list shows it. */
export interface ListedAccount {
  id: string;
  email: string;
  name: string;
  role: string;
  emailVerified: boolean;
  banned: boolean;
  createdAt: string;
}

/** Every account, oldest first (the instance's first administrator at the top). */
export async function listAccounts(db: Db): Promise<ListedAccount[]> {
  const rows = await db
    .selectFrom('user')
    .select(['id', 'email', 'name', 'role', 'emailVerified', 'banned', 'createdAt'])
    .orderBy('createdAt')
    .orderBy('id')
    .execute();
  return rows.map((row) => ({
    id: row.id,
    email: row.email,
    name: row.name,
    role: row.role ?? 'user',
    emailVerified: row.emailVerified === true || row.emailVerified === 1,
    banned: row.banned === true || row.banned === 1,
    createdAt: new Date(row.createdAt).toISOString(),
  }));
}

/** How many accounts hold the administrator role. */
export async function adminCount(db: Db): Promise<number> {
  const row = await db
    .selectFrom('user')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('role', '=', 'admin')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
