import type { AccountVerification, MailOverview, OutboxMail, TestMailSent } from '../../../shared/api/admin.js';
import { requireAdmin } from '../../access/index.js';
import type { Actor } from '../../auth/actor.js';
import type { Deps } from '../../deps.js';
import { conflict, HttpError, notFound } from '../../http/errors.js';
import { mailTransport, type Mailer } from '../../mail/mailer.js';
import { listOutbox, readOutboxMail } from '../../mail/outbox.js';
import { testMail } from '../../mail/templates.js';
import { recordedEffect, recordedWrite } from '../../events/write-record.js';
import { accountAddress, confirmAddress } from './admin-mail.repository.js';

/** The outbox's newest mails the overview lists. */
const OUTBOX_PAGE = 50;

export async function mailOverview(deps: Pick<Deps, 'config'>, actor: Actor): Promise<MailOverview> {
  requireAdmin(actor, 'see how mail is sent');
  const transport = mailTransport(deps.config);
  const outbox = transport.kind === 'outbox' ? await listOutbox(deps.config.dataDir, OUTBOX_PAGE) : { total: 0, mails: [] };
  return { transport, outbox };
}

export async function outboxMail(deps: Pick<Deps, 'config'>, actor: Actor, id: string): Promise<OutboxMail> {
  requireAdmin(actor, 'read the outbox');
  const mail = await readOutboxMail(deps.config.dataDir, id);
  if (!mail) throw notFound('No such mail in the outbox');
  return mail;
}

/** Sent now, not queued: the administrator sees at once whether the SMTP server takes it (502 with its refusal). */
export async function sendTestMail(
  deps: Pick<Deps, 'config' | 'database' | 'log'>,
  mailer: Mailer,
  actor: Actor,
): Promise<TestMailSent> {
  requireAdmin(actor, 'send a test mail');
  const { config } = deps;
  const to = await accountAddress(deps.database.db, actor.id);
  if (!to) throw notFound('Account not found');
  // Recorded like a keyed write: a retry after a lost answer gets this answer and sends nothing again.
  return recordedEffect(deps.database.db, async () => {
    try {
      await mailer.send(testMail(config.language, to.email, { link: config.baseUrl, admin: actor.name }));
    } catch (error) {
      deps.log.warn({ err: error }, 'test mail failed');
      throw new HttpError(502, `The mail could not be sent: ${error instanceof Error ? error.message : String(error)}`);
    }
    return { to: to.email, transport: mailTransport(config) };
  });
}

/** An administrator vouches for the address (the account's owner could not read the mailed link). */
export async function confirmAccountAddress(
  deps: Pick<Deps, 'database' | 'log'>,
  actor: Actor,
  userId: string,
): Promise<AccountVerification> {
  requireAdmin(actor, 'confirm an address');
  const found = await accountAddress(deps.database.db, userId);
  if (!found) throw notFound('Account not found');
  const { db, dialect } = deps.database;
  if (await recordedWrite(db, (trx) => confirmAddress(trx, dialect, found.id))) {
    deps.log.info({ userId: found.id, by: actor.id }, 'address confirmed by an administrator');
  }
  return { id: found.id, emailVerified: true };
}

export async function resendVerificationMail(
  deps: Pick<Deps, 'database' | 'auth'>,
  actor: Actor,
  userId: string,
): Promise<AccountVerification> {
  requireAdmin(actor, 'send a confirmation mail');
  const found = await accountAddress(deps.database.db, userId);
  if (!found) throw notFound('Account not found');
  if (found.emailVerified) throw conflict('This address is confirmed already');
  await deps.auth.api.sendVerificationEmail({ body: { email: found.email, callbackURL: '/' } });
  return { id: found.id, emailVerified: false };
}
