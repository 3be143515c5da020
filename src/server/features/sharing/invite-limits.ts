import type { Db } from '../../db/database.js';
import type { Limits } from '../../limits/limits.js';
import { pruneStoredWindows } from '../../limits/stored.js';

/**
 * Every invitation by address counts, whether the address has an account or
 * not, so the limits tell nothing about which addresses do. Called inside the
 * write's transaction: a refused invitation rolls its counts back and sends nothing.
 */
export async function limitInvitations(trx: Db, limits: Limits, inviterId: string, mail: string): Promise<void> {
  const waits = [await limits.hitStored(trx, 'invites.account', inviterId), await limits.hitStored(trx, 'invites.address', mail)];
  const wait = Math.max(...waits);
  if (wait > 0) throw limits.refusal('invites.account', wait);
}

/** Forgets ended windows: the invitation limits' and every other limit counted in the database (a recurring job). */
export const pruneInviteLimits = pruneStoredWindows;
