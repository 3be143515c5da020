import { APIError } from 'better-auth/api';
import type { SamlAdmit } from './settings.js';

/**
 * The simplest policy (the tests', and a starting point): the account already
 * linked to this NameID at this provider; else the account with the address,
 * linked now, but only when that account's address is verified here too (as
 * for OpenID Connect: an unverified local account could belong to anyone);
 * else a new account. The provider's word on the address counts as verified:
 * the operator chose to trust this provider (README, "SAML 2.0").
 */
export const defaultAdmit: SamlAdmit = async (identity, provider, { internalAdapter }) => {
  const providerId = `saml:${provider.id}`;
  const owner = await internalAdapter.findAccountOwnerByKey({ providerId, accountId: identity.nameId });
  if (owner?.kind === 'owned') return owner.user;
  if (owner?.kind === 'orphaned') await internalAdapter.deleteAccount(owner.account.id);
  const existing = await internalAdapter.findUserByEmail(identity.email);
  if (existing) {
    if (!existing.user.emailVerified) {
      throw new APIError('FORBIDDEN', {
        code: 'ACCOUNT_NOT_LINKED',
        message: 'An account with this address exists here, but its address is not verified',
      });
    }
    await internalAdapter.linkAccount({ userId: existing.user.id, providerId, accountId: identity.nameId });
    return existing.user;
  }
  const { user } = await internalAdapter.createOAuthUser(
    { email: identity.email, name: identity.name, emailVerified: true },
    { providerId, accountId: identity.nameId },
  );
  return user;
};
