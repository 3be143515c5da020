import { Type, type Static } from 'typebox';
import { NullableString } from './common.js';

/** An account as better-auth's admin plugin lists it (`GET /api/auth/admin/list-users`). */
export const AdminUser = Type.Object({
  id: Type.String(),
  name: Type.String(),
  email: Type.String(),
  image: NullableString,
  role: NullableString,
  /** Whether the account's address is confirmed. */
  emailVerified: Type.Boolean(),
  createdAt: Type.String(),
});
export type AdminUser = Static<typeof AdminUser>;

/** How the instance's mail leaves: through SMTP_URL's server, or into DATA_DIR/outbox as files. */
export const MailTransport = Type.Union([
  Type.Object({ kind: Type.Literal('smtp'), host: Type.String({ description: 'SMTP_URL without its credentials' }) }),
  Type.Object({ kind: Type.Literal('outbox'), directory: Type.String() }),
]);
export type MailTransport = Static<typeof MailTransport>;

export const OutboxEntry = Type.Object({
  id: Type.String({ description: 'the file name in the outbox' }),
  to: Type.String(),
  subject: Type.String(),
  date: Type.String({ format: 'date-time' }),
  size: Type.Integer({ description: 'bytes' }),
});
export type OutboxEntry = Static<typeof OutboxEntry>;

export const OutboxMail = Type.Object({ ...OutboxEntry.properties, text: Type.String({ description: 'the plain-text part' }) });
export type OutboxMail = Static<typeof OutboxMail>;

export const MailOverview = Type.Object({
  transport: MailTransport,
  /** The outbox's newest mails (only without SMTP_URL; empty otherwise), and how many it holds. */
  outbox: Type.Object({ total: Type.Integer(), mails: Type.Array(OutboxEntry) }),
});
export type MailOverview = Static<typeof MailOverview>;

export const TestMailSent = Type.Object({ to: Type.String(), transport: MailTransport });
export type TestMailSent = Static<typeof TestMailSent>;

export const AccountVerification = Type.Object({ id: Type.String(), emailVerified: Type.Boolean() });
export type AccountVerification = Static<typeof AccountVerification>;
