import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import { toIso } from '../db/dialect.js';
import type { Clock } from '../jobs/runner.js';

/** Attempts an address may fail in a row before each further one waits. */
export const FREE_ATTEMPTS = 4;
/** The longest wait between two attempts on one address. */
export const MAX_LOCK_SECONDS = 15 * 60;
/** An address's count is forgotten this long after its last attempt. */
const FORGET_AFTER_MS = 24 * 3600_000;

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** The wait after the `attempts`-th attempt in a row: none for the first few, then 1 s, 2 s, 4 s… */
export function lockSeconds(attempts: number): number {
  if (attempts <= FREE_ATTEMPTS) return 0;
  return Math.min(2 ** (attempts - FREE_ATTEMPTS - 1), MAX_LOCK_SECONDS);
}

/**
 * Slows down password guessing against one address, from any number of client
 * addresses and processes: the count lives in the database. Every attempt
 * counts when it starts (so parallel guesses cannot all slip in before the
 * first failure is written), is given back when no password was checked (a
 * malformed request, the per-client limit) and a success clears it. The address
 * typed in is the key whether or not an account has it, so an unknown address
 * is answered exactly like a known one.
 */
export class SignInLockout {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock = () => new Date(),
  ) {}

  /** Counts an attempt on `email`; answers 0, or how many seconds the address must still wait (the attempt is then not counted). */
  async attempt(email: string): Promise<number> {
    const key = normalizeEmail(email);
    const now = this.clock();
    const nowIso = now.toISOString();
    return this.db.transaction().execute(async (trx) => {
      // One statement counts and checks the lock, so two processes cannot both pass a lock that one of them sets.
      const counted = await trx
        .insertInto('signin_failures')
        .values({ email: key, failures: 1, lastAttemptAt: nowIso, lockedUntil: null })
        .onConflict((oc) =>
          oc
            .column('email')
            .doUpdateSet({ failures: sql`${sql.ref('signin_failures.failures')} + 1`, lastAttemptAt: nowIso })
            .where((eb) =>
              eb.or([eb('signin_failures.lockedUntil', 'is', null), eb('signin_failures.lockedUntil', '<=', nowIso)]),
            ),
        )
        .returning('failures')
        .executeTakeFirst();
      if (!counted) {
        const row = await trx.selectFrom('signin_failures').select('lockedUntil').where('email', '=', key).executeTakeFirst();
        const until = row?.lockedUntil ? Date.parse(toIso(row.lockedUntil)) : now.getTime();
        return Math.max(1, Math.ceil((until - now.getTime()) / 1000));
      }
      const wait = lockSeconds(counted.failures);
      if (wait > 0) {
        await trx
          .updateTable('signin_failures')
          .set({ lockedUntil: new Date(now.getTime() + wait * 1000).toISOString() })
          .where('email', '=', key)
          .execute();
      }
      return 0;
    });
  }

  /** The attempt ended before any password was checked. A lock it set stays: a short wait too many beats a guess too many. */
  async notChecked(email: string): Promise<void> {
    await this.db
      .updateTable('signin_failures')
      .set({ failures: sql`${sql.ref('failures')} - 1` })
      .where('email', '=', normalizeEmail(email))
      .where('failures', '>', 0)
      .execute();
  }

  /** The password was right: the address starts afresh. */
  async succeeded(email: string): Promise<void> {
    await this.db.deleteFrom('signin_failures').where('email', '=', normalizeEmail(email)).execute();
  }
}

/** Forgets addresses nobody tried for a day (a recurring job). */
export async function pruneSignInFailures(db: Db, now: Date): Promise<number> {
  const result = await db
    .deleteFrom('signin_failures')
    .where('lastAttemptAt', '<', new Date(now.getTime() - FORGET_AFTER_MS).toISOString())
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
