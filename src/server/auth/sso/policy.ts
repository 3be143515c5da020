import { AsyncLocalStorage } from 'node:async_hooks';
import { APIError } from 'better-auth/api';
import type { Db } from '../../db/database.js';
import { adminCount } from '../accounts.repository.js';
import type { SsoProvider } from './config.js';

/**
 * What the sign-in service decides about a person a provider (OpenID Connect
 * or SAML) sends: whether a new account may be made (provisioning), which
 * address it vouches for (the verified-address rule), and the administrator
 * role its group gives or takes. Both protocols come here: OpenID Connect
 * through better-auth's callback and the hooks in auth.ts, SAML through
 * `admitFromProvider`.
 */

/** What a provider said about the person signing in. */
export interface ProviderIdentity {
  providerId: string;
  email: string;
  /** The provider vouches for the address (see `vouches`). */
  emailVerified: boolean;
  name: string;
  /** The admin-group claim's or attribute's values (empty when the provider has no `adminGroup`). */
  groups: string[];
  /** SAML's subject, when the identity came from SAML: the account's link to the provider. */
  nameId?: string;
}

/** A sign-in refused by the policy, in better-auth's shape: the callback sends the person to `/sign-in?error=<code>`. */
export function refusal(code: 'account_not_found' | 'email_not_verified' | 'account_not_linked', message: string): APIError {
  return new APIError('FORBIDDEN', { code, message });
}

/**
 * The verified-address rule: a provider vouches for an address when it says
 * so, and — when it claims domains — only for addresses in its own domains,
 * so one company's provider cannot vouch for another company's people.
 */
export function vouches(provider: SsoProvider, email: string, saysVerified: boolean): boolean {
  if (!saysVerified) return false;
  if (provider.domains.length === 0) return true;
  const domain = email.toLowerCase().split('@').pop() ?? '';
  return provider.domains.includes(domain);
}

/** A claim's or attribute's values: an array of strings, a string, or nothing. */
export function groupValues(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string');
  return [];
}

/** The provider's answer for the request it came in, from the provider's answer to the session. */
const signIns = new AsyncLocalStorage<{ identity?: ProviderIdentity }>();

/** Runs one request to the sign-in library with room for a provider's answer (auth.routes.ts). */
export function withSignInScope<T>(run: () => Promise<T>): Promise<T> {
  return signIns.run({}, run);
}

/** Notes what the provider said, for the account hooks that run later in the same request. */
export function noteIdentity(identity: ProviderIdentity): void {
  const scope = signIns.getStore();
  // Without a scope the provisioning and admin-group rules could not run: refuse rather than skip them.
  if (!scope) throw new Error('A provider sign-in outside a request scope (withSignInScope)');
  scope.identity = identity;
}

export function currentIdentity(): ProviderIdentity | undefined {
  return signIns.getStore()?.identity;
}

/** Refuses to make an account for a provider that only signs in accounts that exist (provisioning `existing`). */
export function checkNewAccount(provider: SsoProvider | undefined): void {
  if (provider?.provisioning === 'existing') {
    throw refusal('account_not_found', `${provider.name} signs in only people who already have an account here`);
  }
}

/** What the policy needs of the sign-in library (better-auth's internal adapter and logger). */
export interface PolicyContext {
  internalAdapter: {
    findUserById(id: string): Promise<object | null>;
    updateUser(id: string, data: Record<string, unknown>): Promise<unknown>;
  };
  /** better-auth's logger; the SAML plugin's context has it too, but its type does not say so. */
  logger?: { warn(message: string, ...args: unknown[]): void; info(message: string, ...args: unknown[]): void };
}

/**
 * With `adminGroup`, each sign-in through the provider sets the account's
 * administrator role from the group: made one when the claim or attribute
 * holds the value, made an ordinary account when it does not. The last
 * administrator of the instance is not demoted (nobody could make another):
 * that is logged, and the account stays an administrator.
 */
export async function applyAdminGroup(
  context: PolicyContext,
  db: Db,
  userId: string,
  provider: SsoProvider,
  groups: string[],
): Promise<void> {
  if (!provider.adminGroup) return;
  const want = groups.includes(provider.adminGroup.value) ? 'admin' : 'user';
  const current = ((await context.internalAdapter.findUserById(userId)) as { role?: string | null } | null)?.role ?? 'user';
  if (current === want) return;
  // Through the library, so the account's update hooks run (its cached actors are forgotten everywhere).
  await context.internalAdapter.updateUser(userId, { role: want });
  if (want === 'user' && (await adminCount(db)) === 0) {
    // Checked after the change, so that two demotions at once cannot both pass a check made before either.
    await context.internalAdapter.updateUser(userId, { role: 'admin' });
    (context.logger ?? console).warn(
      `SSO ${provider.id}: account ${userId} is not in the admin group but stays an administrator: it is the last one`,
    );
    return;
  }
  (context.logger ?? console).info(
    `SSO ${provider.id}: account ${userId} ${want === 'admin' ? 'made an administrator' : 'no longer an administrator'} by its group`,
  );
}

/** The account a provider's sign-in lands on, as the sign-in library stores it. */
export interface AdmittedUser {
  id: string;
  email: string;
  name: string;
  emailVerified: boolean;
  role?: string | null;
  [field: string]: unknown;
}

/** What `admitFromProvider` needs of the sign-in library (better-auth's context). */
export interface AdmitContext extends PolicyContext {
  internalAdapter: PolicyContext['internalAdapter'] & {
    findAccountOwnerByKey(key: {
      providerId: string;
      accountId: string;
    }): Promise<{ kind: 'owned'; user: object } | { kind: 'orphaned'; account: { id: string } } | null>;
    deleteAccount(id: string): Promise<unknown>;
    findUserByEmail(email: string): Promise<{ user: object } | null>;
    createUser(user: Record<string, unknown>, source?: never): Promise<object | null>;
    linkAccount(account: { userId: string; providerId: string; accountId: string }): Promise<unknown>;
  };
}

/**
 * A person a provider signed in without better-auth's OAuth callback (SAML):
 * the account they land on, by the rules the callback follows for OpenID
 * Connect. The account already linked to this provider subject; else the
 * account with the address, linked when the provider vouches for the address
 * and the account's address is verified too; else a new account, when the
 * provisioning allows one and the provider vouches for the address. Then the
 * admin group. Throws a `refusal` otherwise, and changes nothing.
 */
export async function admitFromProvider(
  context: AdmitContext,
  db: Db,
  identity: ProviderIdentity,
  provider: SsoProvider,
): Promise<AdmittedUser> {
  const email = identity.email.trim().toLowerCase();
  const accountId = identity.nameId ?? email;
  // SAML links are kept apart from OpenID ones: `saml:<id>`, the provider's NameID.
  const providerId = provider.type === 'saml' ? `saml:${provider.id}` : provider.id;
  const verified = vouches(provider, email, identity.emailVerified);
  const adapter = context.internalAdapter;
  let user: AdmittedUser | null = null;
  const owner = await adapter.findAccountOwnerByKey({ providerId, accountId });
  if (owner?.kind === 'owned') user = owner.user as AdmittedUser;
  // A link whose account is gone would clash with the new one.
  if (owner?.kind === 'orphaned') await adapter.deleteAccount(owner.account.id);
  if (!user) {
    const existing = (await adapter.findUserByEmail(email))?.user as AdmittedUser | undefined;
    if (existing) {
      if (!verified || !existing.emailVerified) {
        throw refusal(
          'account_not_linked',
          `${provider.name} cannot sign in to this account: its address is not confirmed on both sides`,
        );
      }
      await adapter.linkAccount({ userId: existing.id, providerId, accountId });
      user = existing;
    } else {
      checkNewAccount(provider);
      if (!verified) throw refusal('email_not_verified', `${provider.name} did not confirm this e-mail address`);
      user = (await adapter.createUser({ email, name: identity.name || email, emailVerified: true })) as AdmittedUser | null;
      if (!user) throw refusal('account_not_found', 'The account could not be made');
      await adapter.linkAccount({ userId: user.id, providerId, accountId });
    }
  }
  await applyAdminGroup(context, db, user.id, provider, identity.groups);
  return ((await adapter.findUserById(user.id)) as AdmittedUser | null) ?? user;
}
