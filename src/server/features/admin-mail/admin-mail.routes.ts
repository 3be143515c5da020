import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { AccountVerification, MailOverview, OutboxMail, TestMailSent } from '../../../shared/api/admin.js';
import { ErrorBody, errorResponses } from '../../../shared/api/common.js';
import type { Deps } from '../../deps.js';
import type { Mailer } from '../../mail/mailer.js';
import { confirmAccountAddress, mailOverview, outboxMail, resendVerificationMail, sendTestMail } from './admin-mail.service.js';

const tags = ['Administration'];

/**
 * The administrators' view of mail (`/api/data/admin/...`): how it leaves,
 * a test mail, the outbox's mails to read (without SMTP_URL they are the only
 * copy), and an account's address confirmed by hand or its mail sent again.
 */
export function adminMailRoutes(app: FastifyInstance, deps: Deps, mailer: Mailer): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.get(
    '/admin/mail',
    {
      schema: {
        tags,
        summary: 'How mail leaves (the SMTP server, or the outbox directory) and the outbox’s newest mails (administrators)',
        response: { 200: MailOverview, ...errorResponses },
      },
    },
    (request) => mailOverview(deps, request.actor),
  );

  r.get(
    '/admin/mail/outbox/:id',
    {
      schema: {
        tags,
        summary: 'One mail of the outbox, its plain text decoded (administrators)',
        params: Type.Object({ id: Type.String({ maxLength: 80 }) }),
        response: { 200: OutboxMail, ...errorResponses },
      },
    },
    (request) => outboxMail(deps, request.actor, request.params.id),
  );

  r.post(
    '/admin/mail/test',
    {
      schema: {
        tags,
        summary:
          'Send a test mail to my own address now, through SMTP or into the outbox (administrators; 502 with the server’s refusal when SMTP fails)',
        body: Type.Optional(Type.Object({})),
        response: { 200: TestMailSent, ...errorResponses, 502: ErrorBody },
      },
    },
    (request) => sendTestMail(deps, mailer, request.actor),
  );

  const account = Type.Object({ userId: Type.String({ minLength: 1, maxLength: 200 }) });

  r.post(
    '/admin/accounts/verify',
    {
      schema: {
        tags,
        summary: 'Count an account’s address as confirmed, vouched for by an administrator',
        body: account,
        response: { 200: AccountVerification, ...errorResponses },
      },
    },
    (request) => confirmAccountAddress(deps, request.actor, request.body.userId),
  );

  r.post(
    '/admin/accounts/verification-mail',
    {
      schema: {
        tags,
        summary: 'Mail an account the link that confirms its address again (409 when it is confirmed already)',
        body: account,
        response: { 200: AccountVerification, ...errorResponses, 409: ErrorBody },
      },
    },
    (request) => resendVerificationMail(deps, request.actor, request.body.userId),
  );
}
