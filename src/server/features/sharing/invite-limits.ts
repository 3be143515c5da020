import { createHash } from 'node:crypto';
import type { Config } from '../../config.js';
import type { Db } from '../../db/database.js';
import { toIso } from '../../db/dialect.js';
import { HttpError } from '../../http/errors.js';

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

/**
 * Counts one more use of a fixed window and answers how many it holds now and
 * when it ends. One upsert, so concurrent callers each see their own count.
 */
async function count(trx: Db, key: string, windowMs: number, now: Date): Promise<{ count: number; endsAt: number }> {
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

/**
 * Every invitation by address counts, whether the address has an account or
 * not, so the limits tell nothing about which addresses do. Called inside the
 * write's transaction: a refused invitation rolls its counts back and sends nothing.
 */
export async function limitInvitations(
  trx: Db,
  config: Pick<Config, 'inviteRateLimit' | 'inviteAddressRateLimit'>,
  inviterId: string,
  mail: string,
): Promise<void> {
  const now = new Date();
  const windows = [
    { ...(await count(trx, `inviter:${inviterId}`, HOUR_MS, now)), max: config.inviteRateLimit },
    // Hashed: the table has no business keeping addresses.
    {
      ...(await count(trx, `address:${createHash('sha256').update(mail).digest('hex')}`, DAY_MS, now)),
      max: config.inviteAddressRateLimit,
    },
  ];
  const full = windows.filter((w) => w.count > w.max);
  if (full.length === 0) return;
  const wait = Math.max(...full.map((w) => Math.ceil((w.endsAt - now.getTime()) / 1000)), 1);
  throw new HttpError(429, 'Too many invitations: try again later', { 'retry-after': String(wait) });
}

/** Forgets windows that have ended (none lasts longer than a day). */
export async function pruneInviteLimits(db: Db, now: Date): Promise<void> {
  await db
    .deleteFrom('invite_limits')
    .where('windowStart', '<', new Date(now.getTime() - DAY_MS).toISOString())
    .execute();
}
