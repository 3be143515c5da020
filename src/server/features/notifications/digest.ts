import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Deps } from '../../deps.js';
import { enqueue } from '../../jobs/runner.js';
import { digestMail } from '../../mail/templates.js';

/** At most one digest per account and hour. */
export const DIGEST_INTERVAL_MS = 3600_000;
const MAX_LINES = 50;

/**
 * Mails each account (that has not turned it off) its unread notifications
 * no digest carried yet. Claiming the account's hourly slot, marking the
 * notifications as mailed and queuing the mail happen in one transaction, so
 * a digest is never sent twice nor lost.
 */
export async function sendDigests(deps: Pick<Deps, 'database' | 'config'>, now: Date): Promise<number> {
  const { db, dialect } = deps.database;
  const accounts = await db
    .selectFrom('notifications')
    .innerJoin('user', 'user.id', 'notifications.userId')
    .select(['user.id', 'user.email'])
    .distinct()
    .where('notifications.isRead', '=', 0)
    .where('notifications.emailedAt', 'is', null)
    .where(sql<boolean>`${sql.ref('user.emailNotifications')} = ${dialect.true}`)
    .execute();

  const slot = new Date(now.getTime() - DIGEST_INTERVAL_MS).toISOString();
  let sent = 0;
  for (const account of accounts) {
    const mailed = await db.transaction().execute(async (trx) => {
      await trx
        .insertInto('account_mail')
        .values({ userId: account.id, lastDigestAt: null })
        .onConflict((oc) => oc.column('userId').doNothing())
        .execute();
      const claimed = await trx
        .updateTable('account_mail')
        .set({ lastDigestAt: now.toISOString() })
        .where('userId', '=', account.id)
        .where((eb) => eb.or([eb('lastDigestAt', 'is', null), eb('lastDigestAt', '<=', slot)]))
        .executeTakeFirst();
      if (Number(claimed.numUpdatedRows) !== 1) return false;
      const pending = await trx
        .selectFrom('notifications')
        .select(['id', 'message'])
        .where('userId', '=', account.id)
        .where('isRead', '=', 0)
        .where('emailedAt', 'is', null)
        .orderBy('id', 'desc')
        .execute();
      if (pending.length === 0) return false;
      await trx
        .updateTable('notifications')
        .set({ emailedAt: now.toISOString() })
        .where(
          'id',
          'in',
          pending.map((n) => n.id),
        )
        .execute();
      const mail = digestMail(deps.config.language, account.email, {
        messages: pending.slice(0, MAX_LINES).map((n) => n.message),
        total: pending.length,
        link: deps.config.baseUrl + '/',
      });
      await enqueue(trx, 'mail', `mail:${randomUUID()}`, { ...mail }, now);
      return true;
    });
    if (mailed) sent++;
  }
  return sent;
}
