import { betterAuth } from 'better-auth';
import { APIError, createAuthMiddleware, isAPIError } from 'better-auth/api';
import type { GenericEndpointContext } from 'better-auth';
import { admin } from 'better-auth/plugins/admin';
import { isSafeImage } from '../../shared/addresses.js';
import type { Config, Language } from '../config.js';
import type { Database } from '../db/database.js';
import { readerLanguage } from '../i18n/language.js';
import { enqueue } from '../jobs/runner.js';
import { betterAuthRateLimit } from '../limits/auth-rules.js';
import { resetPasswordMail, verifyAddressMail } from '../mail/templates.js';
import { randomUUID } from 'node:crypto';
import { addressConfirmed, anyAccountExists, keepOneFirstAdmin, sessionExists } from './accounts.repository.js';
import { refuseUnvouchedSso, ssoPlugins, ssoProvider } from './sso.js';
import { checkNewAccount, currentIdentity } from './sso/policy.js';

/** The header through which we hand better-auth the client address Fastify determined. */
export const CLIENT_IP_HEADER = 'x-tavla-client-ip';

/** How long the link that verifies an address works: a mail read after a holiday still does. */
const VERIFY_LINK_DAYS = 7;

/** What the rest of the service wants to hear from accounts; filled in once the service is built. */
export interface AccountHooks {
  profileChanged?: (user: { id: string; name: string; image?: string | null | undefined }) => Promise<void>;
  accountRemoving?: (user: { id: string }) => Promise<void>;
  accountRemoved?: (user: { id: string; image?: string | null | undefined }) => Promise<void>;
  /** A session ended (sign-out, expiry sweep, revocation), or with no `sessionId` every credential of the account. */
  credentialsEnded?: (ended: { userId: string; sessionId?: string }) => void;
  /**
   * The address's owner just proved it (a password reset, the first confirmation of the address, a password
   * an administrator set): what an earlier holder of the account handed out must end.
   */
  addressReclaimed?: (user: { id: string }) => Promise<void>;
  /** An administrator began acting as another account (only with ADMIN_IMPERSONATION): for the audit log. */
  impersonated?: (event: { adminId: string; userId: string }) => void;
}

/** An account's own mail speaks its language: the account's, else the one its request asks for, else the instance's. */
function mailLanguage(user: object, request: Request | undefined, instance: Language): Language {
  return readerLanguage(
    (user as { language?: string | null }).language,
    request?.headers.get('accept-language') ?? undefined,
    instance,
  );
}

/**
 * How passwords are hashed and checked. The service always uses better-auth's
 * own (scrypt, N=16384); only the tests' harness hands `buildApp` a cheaper one
 * (test/password-hashing.ts), so that making hundreds of accounts does not cost minutes.
 */
export interface PasswordHashing {
  hash: (password: string) => Promise<string>;
  verify: (input: { hash: string; password: string }) => Promise<boolean>;
}

export function createAuth(config: Config, database: Database, hooks: AccountHooks = {}, passwordHashing?: PasswordHashing) {
  const { db, dialect } = database;
  /** Addresses of accounts made as an instance's first, confirmed for that alone, until their sign-up is through. */
  const firstAccounts = new Set<string>();
  return betterAuth({
    appName: 'Tavla',
    baseURL: config.baseUrl,
    basePath: '/api/auth',
    secret: config.authSecret,
    trustedOrigins: [new URL(config.baseUrl).origin],
    // No transactions: the library's hooks query on connections of their own, so a transaction held
    // across them would starve the pool when as many sign-ups as connections arrive at once.
    database: { db, type: dialect.name },
    telemetry: { enabled: false },
    emailAndPassword: {
      enabled: true,
      disableSignUp: !config.signup,
      minPasswordLength: 8,
      maxPasswordLength: 256,
      ...(passwordHashing ? { password: { hash: passwordHashing.hash, verify: passwordHashing.verify } } : {}),
      // Whoever held the old password (or a session opened with it) is out.
      revokeSessionsOnPasswordReset: true,
      // ...and so does every key, feed, webhook and link they made: whoever squatted the address keeps nothing.
      onPasswordReset: async ({ user }) => {
        await hooks.addressReclaimed?.(user);
      },
      // Queued, not sent in the request: the answer takes as long whether or not the address has an account.
      sendResetPassword: async ({ user, url }, request) => {
        const language = mailLanguage(user, request, config.language);
        await enqueue(db, 'mail', `mail:${randomUUID()}`, { ...resetPasswordMail(language, user.email, url) }, new Date());
      },
    },
    // Sign-in never waits for it: only invitations by address need the proof (see sharing).
    emailVerification: {
      sendOnSignUp: true,
      autoSignInAfterVerification: true,
      expiresIn: VERIFY_LINK_DAYS * 24 * 60 * 60,
      // Called once per address, when it turns confirmed (better-auth skips an address already confirmed).
      afterEmailVerification: async (user) => {
        await hooks.addressReclaimed?.(user);
      },
      sendVerificationEmail: async ({ user, url }, request) => {
        // The instance's first account counts as confirmed: no link to mail, unless it stepped down meanwhile.
        if (firstAccounts.delete(user.email) && (await addressConfirmed(db, user.id))) return;
        const language = mailLanguage(user, request, config.language);
        await enqueue(
          db,
          'mail',
          `mail:${randomUUID()}`,
          { ...verifyAddressMail(language, user.email, url, VERIFY_LINK_DAYS) },
          new Date(),
        );
      },
    },
    user: {
      additionalFields: {
        type: { type: 'string', required: false, defaultValue: 'human', input: false },
        language: { type: 'string', required: false, input: true },
        emailNotifications: { type: 'boolean', required: false, defaultValue: true, input: true },
      },
    },
    plugins: [admin(), ...ssoPlugins(config, db)],
    hooks: {
      before: createAuthMiddleware((ctx) => {
        // The admin role grants nothing on other people's boards: acting as them is off unless the instance opts in.
        if (ctx.path === '/admin/impersonate-user' && !config.adminImpersonation) {
          throw new APIError('FORBIDDEN', { message: 'Impersonation is turned off on this instance (ADMIN_IMPERSONATION)' });
        }
        // A changed password ends every other session, whatever the client asked for.
        return Promise.resolve(
          ctx.path === '/change-password'
            ? { context: { body: { ...(ctx.body as object), revokeOtherSessions: true } } }
            : undefined,
        );
      }),
      // So does a password an administrator sets for an account: its sessions end, and what it handed out.
      after: createAuthMiddleware(async (ctx) => {
        if (isAPIError(ctx.context.returned)) return;
        if (ctx.path === '/admin/impersonate-user') {
          const admin = (ctx.context.session as { user?: { id?: string } } | null)?.user?.id;
          hooks.impersonated?.({ adminId: admin ?? 'unknown', userId: (ctx.body as { userId: string }).userId });
          return;
        }
        if (ctx.path !== '/admin/set-user-password') return;
        await passwordSetByOperator(ctx.context, hooks, (ctx.body as { userId: string }).userId);
      }),
    },
    rateLimit: betterAuthRateLimit(config.limits),
    advanced: {
      ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER] },
    },
    databaseHooks: {
      user: {
        create: {
          // The first account of an instance administers it.
          // The first account of an instance administers it, and its address counts as confirmed: on a fresh
          // instance without SMTP_URL nobody could read the mailed link but the one who can read DATA_DIR.
          before: async (user, ctx) => {
            // A provider that signs in only existing accounts makes none (provisioning `existing`).
            const identity = currentIdentity();
            if (identity) checkNewAccount(ssoProvider(config.sso, identity.providerId));
            refuseUnvouchedSso(user, ctx);
            checkPicture(user.image, config.baseUrl);
            const first = !(await anyAccountExists(db));
            if (first && user.emailVerified !== true) firstAccounts.add(user.email);
            return {
              data: { ...user, role: first ? 'admin' : (user.role ?? 'user'), emailVerified: first ? true : user.emailVerified },
            };
          },
          // Decided on an instance that looked empty; another first sign-up may have looked at the same time:
          // the one that steps down is an ordinary account again, its address unconfirmed unless it came so.
          after: async (user) => {
            if ((user as { role?: string | null }).role === 'admin') {
              await keepOneFirstAdmin(db, database.dialect, user.id, firstAccounts.has(user.email));
            }
          },
        },
        update: {
          before: (user) => {
            checkPicture(user.image, config.baseUrl);
            return Promise.resolve();
          },
          // A new name or picture shows on every board the account is on.
          after: async (user) => {
            await hooks.profileChanged?.(user);
            if ((user as { banned?: boolean | null }).banned) hooks.credentialsEnded?.({ userId: user.id });
          },
        },
        delete: {
          // The database would cascade the rows, but not the files on disk nor the viewers' screens.
          before: async (user) => {
            await hooks.accountRemoving?.(user);
          },
          after: async (user) => {
            hooks.credentialsEnded?.({ userId: user.id });
            await hooks.accountRemoved?.(user);
          },
        },
      },
      session: {
        create: {
          // A changed password ends every session and opens a new one for the tab that changed it. The new
          // one keeps that tab's session id (its token, the secret, is new), so the tab's sockets, which are
          // bound to the id, go on instead of being closed while the answer with the new cookie is on its way.
          before: (session, ctx) => {
            const id = changingSessionId(ctx);
            return Promise.resolve(id ? { data: { ...session, id } } : undefined);
          },
        },
        delete: {
          // Runs for every removed row (sign-out, revocation, a password reset or change, a ban, a removed account), after the commit.
          after: async (session, ctx) => {
            // The changing tab's session is kept only if its row came back: the change could fail between ending
            // the sessions and opening the new one (better-auth runs them without a transaction here), and then
            // the tab's sockets must close like any other.
            if (session.id === changingSessionId(ctx) && (await sessionExists(db, session.id))) return;
            hooks.credentialsEnded?.({ userId: session.userId, sessionId: session.id });
          },
        },
      },
    },
  });
}

export type Auth = ReturnType<typeof createAuth>;

export type AuthContext = Awaited<Auth['$context']>;

/**
 * A password someone else set for the account (an administrator through the
 * API, the operator through the command line): its sessions end, and what it
 * handed out, as after a reset by mail.
 */
export async function passwordSetByOperator(
  context: Pick<AuthContext, 'internalAdapter'>,
  hooks: AccountHooks,
  userId: string,
): Promise<void> {
  await context.internalAdapter.deleteUserSessions(userId);
  await hooks.addressReclaimed?.({ id: userId });
}

/** The session that is changing its account's password, during that change. */
function changingSessionId(ctx: GenericEndpointContext | null): string | undefined {
  if (ctx?.path !== '/change-password') return undefined;
  return (ctx.context.session as { session?: { id?: string } } | null)?.session?.id;
}

/** A profile picture shows wherever the account appears, so it is held to the rule of board covers (see addresses.ts). */
function checkPicture(image: string | null | undefined, baseUrl: string): void {
  if (image && !isSafeImage(image, baseUrl)) {
    throw new APIError('BAD_REQUEST', { message: 'image must be an http(s) address or a picture uploaded here' });
  }
}
