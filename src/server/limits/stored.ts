import { createHash } from 'node:crypto';
import type { Db } from '../db/database.js';
import { LIMIT_NAMES, spec, type LimitSettings, type StoredLimit } from './catalog.js';
import { countInWindow, pruneWindows, uncountInWindow } from './limits.repository.js';

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** The row key of a stored window: an e-mail address only hashed (the table has no business keeping addresses). */
function rowKey(name: StoredLimit, key: string): string {
  const { per, storedAs } = spec(name);
  const value = per === 'e-mail address' ? createHash('sha256').update(normalizeEmail(key)).digest('hex') : key;
  return `${storedAs ?? name}:${value}`;
}

/** Fixed windows counted in the database, shared by every process. */
export class StoredWindows {
  constructor(
    private readonly settings: LimitSettings,
    private readonly clock: () => Date,
  ) {}

  /**
   * Counts one use inside the caller's transaction: 0, or the seconds until
   * the window has room. A refused use stays counted until the transaction
   * rolls back, which the caller makes happen (a refusal changes nothing).
   */
  async hit(trx: Db, name: StoredLimit, key: string): Promise<number> {
    const now = this.clock();
    const windowMs = (spec(name).seconds ?? 0) * 1000;
    const { count, endsAt } = await countInWindow(trx, rowKey(name, key), windowMs, now);
    if (count <= this.settings[name]) return 0;
    return Math.max(1, Math.ceil((endsAt - now.getTime()) / 1000));
  }

  /** Takes back a use that turned out not to count. */
  async giveBack(db: Db, name: StoredLimit, key: string): Promise<void> {
    await uncountInWindow(db, rowKey(name, key));
  }
}

/** Forgets stored windows that have ended (a recurring job). */
export async function pruneStoredWindows(db: Db, now: Date): Promise<void> {
  const longest = Math.max(...LIMIT_NAMES.map((name) => (spec(name).kind === 'stored' ? (spec(name).seconds ?? 0) : 0)));
  await pruneWindows(db, new Date(now.getTime() - longest * 1000));
}
