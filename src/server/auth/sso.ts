import type { BetterAuthPlugin } from 'better-auth';
import { APIError, createAuthMiddleware } from 'better-auth/api';
import { genericOAuth } from 'better-auth/plugins/generic-oauth';
import type { FastifyInstance } from 'fastify';
import { SignInOptions } from '../../shared/api/session.js';
import type { Config, OidcConfig } from '../config.js';

/** better-auth's id for the one configured OpenID Connect provider (it is in the callback address). */
export const OIDC_PROVIDER_ID = 'oidc';

/** Where the provider sends people back; register this address with the provider. */
export function oidcRedirectUri(config: Config): string {
  return `${config.baseUrl}/api/auth/callback/${OIDC_PROVIDER_ID}`;
}

/**
 * better-auth's generic OAuth plugin for the configured provider: discovery
 * from the issuer, PKCE and state, the ID token checked against the issuer's
 * keys. Accounts are linked by better-auth's own rule, which we keep at its
 * strict default: only when the provider says the address is verified AND the
 * local account's address is verified too.
 */
export function ssoPlugins(config: Config): BetterAuthPlugin[] {
  const oidc = config.oidc;
  if (!oidc) return [];
  const plugins: BetterAuthPlugin[] = [
    genericOAuth({
      config: [
        {
          providerId: OIDC_PROVIDER_ID,
          name: oidc.name,
          discoveryUrl: `${oidc.issuer}/.well-known/openid-configuration`,
          requireIdTokenVerification: true,
          clientId: oidc.clientId,
          clientSecret: oidc.clientSecret,
          scopes: oidc.scopes,
          pkce: true,
          redirectURI: oidcRedirectUri(config),
        },
      ],
    }),
  ];
  plugins.push(noIdTokenSignIn);
  if (oidc.only) plugins.push(passwordsOff(oidc));
  return plugins;
}

/**
 * better-auth also signs people in from a bare ID token posted to
 * `/sign-in/social`, a path that skips the provider's page, the state and
 * PKCE checks of the redirect flow. Nobody here needs it (the web app uses
 * the redirect), so it is refused rather than kept safe path by path.
 */
const noIdTokenSignIn: BetterAuthPlugin = {
  id: 'tavla-no-id-token',
  hooks: {
    before: [
      {
        matcher: (ctx) =>
          ctx.path === '/sign-in/social' && (ctx.body as { idToken?: unknown } | undefined)?.idToken !== undefined,
        handler: createAuthMiddleware(() => {
          throw new APIError('FORBIDDEN', {
            message:
              'Sign-in with an ID token is turned off: start single sign-on without one and sign in on the provider’s page',
          });
        }),
      },
    ],
  },
};

/** With OIDC_ONLY, password sign-in, sign-up and resets are refused on the server too, not only hidden. */
function passwordsOff(oidc: OidcConfig): BetterAuthPlugin {
  const refused = new Set(['/sign-in/email', '/sign-up/email', '/request-password-reset', '/reset-password']);
  return {
    id: 'tavla-oidc-only',
    hooks: {
      before: [
        {
          matcher: (ctx) => refused.has(ctx.path ?? ''),
          handler: createAuthMiddleware(() => {
            throw new APIError('FORBIDDEN', { message: `Password sign-in is turned off: sign in with ${oidc.name}` });
          }),
        },
      ],
    },
  };
}

/** Every better-auth path where a provider's word makes or links an account: callbacks, sign-in starts, links. */
const PROVIDER_PATHS = /^\/(callback\/|oauth2\/callback\/|sign-in\/(social|oauth2)$|link-social$|oauth2\/link$)/;

/**
 * An account is made from the provider only when it vouches for
 * the address, so an IdP account claiming someone else's address cannot
 * become them here. (A hook on user creation rather than better-auth's
 * `validateUserInfo`, which refuses the creations that run outside a request:
 * the ADMIN_* bootstrap, invitation links.)
 */
export function refuseUnvouchedSso(user: { emailVerified?: unknown }, ctx: { path?: string } | null | undefined): void {
  const fromProvider = PROVIDER_PATHS.test(ctx?.path ?? '');
  if (fromProvider && user.emailVerified !== true) {
    // better-auth sends the person back to the sign-in page with this code.
    throw new APIError('FORBIDDEN', { code: 'email_not_verified', message: 'The provider did not confirm this e-mail address' });
  }
}

/** What the sign-in page offers; public, since it is shown before anyone signs in. */
export function registerSignInOptions(app: FastifyInstance, config: Config): void {
  const answer = {
    password: !config.oidc?.only,
    signup: config.signup && !config.oidc?.only,
    sso: config.oidc ? { name: config.oidc.name } : null,
  };
  app.get(
    '/api/sign-in-options',
    { schema: { tags: ['accounts'], summary: 'How people can sign in here', response: { 200: SignInOptions } } },
    () => answer,
  );
}
