import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import { toIso } from '../db/dialect.js';

/**
 * Counts one more use of a stored fixed window and answers how many it holds
 * now and when it ends. One upsert, so concurrent callers each see their own
 * count; a window that has ended starts again at 1.
 */
export async function countInWindow(
  trx: Db,
  key: string,
  windowMs: number,
  now: Date,
): Promise<{ count: number; endsAt: number }> {
  const start = now.toISOString();
  const cutoff = new Date(now.getTime() - windowMs).toISOString();
  const row = await trx
    .insertInto('invite_limits')
    .values({ key, count: 1, windowStart: start })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet((eb) => {
        const over = eb('invite_limits.windowStart', '<=', cutoff);
        return {
          count: eb
            .case()
            .when(over)
            .then(eb.val(1))
            .else(eb('invite_limits.count', '+', 1))
            .end(),
          windowStart: eb.case().when(over).then(eb.val(start)).else(eb.ref('invite_limits.windowStart')).end(),
        };
      }),
    )
    .returning(['count', 'windowStart'])
    .executeTakeFirstOrThrow();
  return { count: Number(row.count), endsAt: Date.parse(toIso(row.windowStart)) + windowMs };
}

/** Takes one use back (it turned out not to count). */
export async function uncountInWindow(db: Db, key: string): Promise<void> {
  await db
    .updateTable('invite_limits')
    .set({ count: sql`${sql.ref('count')} - 1` })
    .where('key', '=', key)
    .where('count', '>', 0)
    .execute();
}

/** Forgets windows that started before `before`. */
export async function pruneWindows(db: Db, before: Date): Promise<void> {
  await db.deleteFrom('invite_limits').where('windowStart', '<', before.toISOString()).execute();
}

/**
 * Counts a failure of (email, client) unless it is locked now: answers the
 * count, or nothing when locked. One statement counts and checks the lock,
 * so two processes cannot both pass a lock that one of them sets.
 */
export async function countFailure(trx: Db, email: string, client: string, now: Date): Promise<number | undefined> {
  const nowIso = now.toISOString();
  const row = await trx
    .insertInto('signin_failures')
    .values({ email, client, failures: 1, lastAttemptAt: nowIso, lockedUntil: null })
    .onConflict((oc) =>
      oc
        .columns(['email', 'client'])
        .doUpdateSet({ failures: sql`${sql.ref('signin_failures.failures')} + 1`, lastAttemptAt: nowIso })
        .where((eb) => eb.or([eb('signin_failures.lockedUntil', 'is', null), eb('signin_failures.lockedUntil', '<=', nowIso)])),
    )
    .returning('failures')
    .executeTakeFirst();
  return row?.failures;
}

export async function lockedUntil(trx: Db, email: string, client: string): Promise<Date | null> {
  const row = await trx
    .selectFrom('signin_failures')
    .select('lockedUntil')
    .where('email', '=', email)
    .where('client', '=', client)
    .executeTakeFirst();
  return row?.lockedUntil ? new Date(toIso(row.lockedUntil)) : null;
}

export async function lockFailures(trx: Db, email: string, client: string, until: Date): Promise<void> {
  await trx
    .updateTable('signin_failures')
    .set({ lockedUntil: until.toISOString() })
    .where('email', '=', email)
    .where('client', '=', client)
    .execute();
}

export async function uncountFailure(db: Db, email: string, client: string): Promise<void> {
  await db
    .updateTable('signin_failures')
    .set({ failures: sql`${sql.ref('failures')} - 1` })
    .where('email', '=', email)
    .where('client', '=', client)
    .where('failures', '>', 0)
    .execute();
}

export async function clearFailures(db: Db, email: string, client: string): Promise<void> {
  await db.deleteFrom('signin_failures').where('email', '=', email).where('client', '=', client).execute();
}

/** Forgets pairs nobody tried since `before`; answers how many. */
export async function pruneFailures(db: Db, before: Date): Promise<number> {
  const result = await db.deleteFrom('signin_failures').where('lastAttemptAt', '<', before.toISOString()).executeTakeFirst();
  return Number(result.numDeletedRows);
}
