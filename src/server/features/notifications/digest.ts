import { randomUUID } from 'node:crypto';
import type { Deps } from '../../deps.js';
import { enqueue } from '../../jobs/runner.js';
import { readerLanguage } from '../../i18n/language.js';
import { notificationText } from '../../i18n/notifications.js';
import { digestMail } from '../../mail/templates.js';
import * as repo from './notifications.repository.js';

/** At most one digest per account and hour. */
export const DIGEST_INTERVAL_MS = 3600_000;
const MAX_LINES = 50;

/**
 * Mails each account (that has not turned it off) its unread notifications
 * no digest carried yet, in the account's language (else the instance's). Claiming the account's hourly slot, marking the
 * notifications as mailed and queuing the mail happen in one transaction, so
 * a digest is never sent twice nor lost.
 */
export async function sendDigests(deps: Pick<Deps, 'database' | 'config'>, now: Date): Promise<number> {
  const { db, dialect } = deps.database;
  const accounts = await repo.accountsAwaitingDigest(db, dialect);

  const slot = new Date(now.getTime() - DIGEST_INTERVAL_MS).toISOString();
  let sent = 0;
  for (const account of accounts) {
    const mailed = await db.transaction().execute(async (trx) => {
      if (!(await repo.claimDigestSlot(trx, account.id, now.toISOString(), slot))) return false;
      const pending = await repo.undigested(trx, account.id);
      if (pending.length === 0) return false;
      await repo.markEmailed(
        trx,
        pending.map((n) => n.id),
        now.toISOString(),
      );
      const language = readerLanguage(account.language, undefined, deps.config.language);
      const mail = digestMail(language, account.email, {
        messages: pending.slice(0, MAX_LINES).map((n) => notificationText(n, language)),
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
