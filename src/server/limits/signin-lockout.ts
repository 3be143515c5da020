import type { Db } from '../db/database.js';
import type { LimitSettings } from './catalog.js';
import { clientKey } from './client-key.js';
import { clearFailures, countFailure, lockFailures, lockedUntil, pruneFailures, uncountFailure } from './limits.repository.js';
import { normalizeEmail, type StoredWindows } from './stored.js';

/** The longest wait between two attempts from one client address on one address. */
export const MAX_LOCK_SECONDS = 15 * 60;
/** A pair's count is forgotten this long after its last attempt. */
const FORGET_AFTER_MS = 24 * 3600_000;

/** The wait after the `failures`-th failure in a row when `allowed` may fail freely: none before, then 1 s, 2 s, 4 s… */
export function lockSeconds(failures: number, allowed: number): number {
  if (failures < allowed) return 0;
  return Math.min(2 ** (failures - allowed), MAX_LOCK_SECONDS);
}

/** The attempt was refused by the ceiling for the whole address: everything it counted is rolled back. */
class OverCeiling extends Error {
  constructor(readonly wait: number) {
    super('over the address ceiling');
  }
}

/**
 * Slows password guessing down where it comes from. Failures count per
 * (address, client address): after `signin.failures.client` in a row, each
 * further attempt from that client waits 1 s, 2 s, 4 s… while the owner,
 * signing in from elsewhere, is not held up. A ceiling per address over all
 * clients (`signin.failures.address` per 15 minutes) stops a guesser spread
 * over many client addresses; only such an attack can reach it, and while it
 * does, the owner waits too.
 *
 * Every attempt counts when it starts (so parallel guesses cannot all slip in
 * before the first failure is written), is given back when no password was
 * checked (a malformed request, the per-client request limit) and a success
 * clears its client's count. The address typed in is the key whether or not
 * an account has it, so an unknown address is answered exactly like a known one.
 * The counts live in the database, shared by every process.
 */
export class SignInLockout {
  constructor(
    private readonly db: Db,
    private readonly settings: Pick<LimitSettings, 'signin.failures.client'>,
    private readonly windows: StoredWindows,
    private readonly clock: () => Date,
  ) {}

  /** Counts an attempt on `email` from `client`; answers 0, or how many seconds must still pass (the attempt is then not counted). */
  async attempt(email: string, client: string): Promise<number> {
    const key = normalizeEmail(email);
    const from = clientKey(client);
    const now = this.clock();
    try {
      return await this.db.transaction().execute(async (trx) => {
        const failures = await countFailure(trx, key, from, now);
        if (failures === undefined) {
          const until = (await lockedUntil(trx, key, from)) ?? now;
          return Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 1000));
        }
        const ceiling = await this.windows.hit(trx, 'signin.failures.address', key);
        if (ceiling > 0) throw new OverCeiling(ceiling);
        const wait = lockSeconds(failures, this.settings['signin.failures.client']);
        if (wait > 0) await lockFailures(trx, key, from, new Date(now.getTime() + wait * 1000));
        return 0;
      });
    } catch (error) {
      if (error instanceof OverCeiling) return error.wait;
      throw error;
    }
  }

  /** The attempt ended before any password was checked. A lock it set stays: a short wait too many beats a guess too many. */
  async notChecked(email: string, client: string): Promise<void> {
    const key = normalizeEmail(email);
    await uncountFailure(this.db, key, clientKey(client));
    await this.windows.giveBack(this.db, 'signin.failures.address', key);
  }

  /**
   * The password was right: this client starts afresh on the address. The
   * count over all clients keeps the failures before it (they measure
   * guessing, which the owner's success does not end); only this attempt is taken back.
   */
  async succeeded(email: string, client: string): Promise<void> {
    const key = normalizeEmail(email);
    await clearFailures(this.db, key, clientKey(client));
    await this.windows.giveBack(this.db, 'signin.failures.address', key);
  }
}

/** Forgets pairs nobody tried for a day (a recurring job). */
export async function pruneSignInFailures(db: Db, now: Date): Promise<number> {
  return pruneFailures(db, new Date(now.getTime() - FORGET_AFTER_MS));
}
