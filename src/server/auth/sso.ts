import type { BetterAuthPlugin } from 'better-auth';
import { APIError, createAuthMiddleware } from 'better-auth/api';
import { genericOAuth, type GenericOAuthConfig } from 'better-auth/plugins/generic-oauth';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { ErrorBody } from '../../shared/api/common.js';
import { SignInOptions, SsoRoute, SsoRouteRequest } from '../../shared/api/session.js';
import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import type { Limits } from '../limits/limits.js';
import {
  LEGACY_OIDC_ID,
  providerForAddress,
  type OidcProvider,
  type SamlProvider,
  type SsoConfig,
  type SsoProvider,
} from './sso/config.js';
import { samlPlugin, type SamlProviderSettings } from './saml/index.js';
import {
  admitFromProvider,
  applyAdminGroup,
  currentIdentity,
  groupValues,
  noteIdentity,
  vouches,
  type AdmitContext,
} from './sso/policy.js';

/** better-auth's id for the `OIDC_*` provider (it is in the callback address). */
export const OIDC_PROVIDER_ID = LEGACY_OIDC_ID;

/** Where an OpenID provider sends people back; register this address with the provider. */
export function oidcRedirectUri(config: Pick<Config, 'baseUrl'>, providerId = OIDC_PROVIDER_ID): string {
  return `${config.baseUrl}/api/auth/callback/${providerId}`;
}

/** Where a SAML provider posts its answer (the assertion consumer service); register it with the provider. */
export function samlAcsUrl(config: Pick<Config, 'baseUrl'>, providerId: string): string {
  return `${config.baseUrl}/api/auth/saml/${providerId}/acs`;
}

/** The provider with this id, if configured. */
export function ssoProvider(sso: SsoConfig, id: string): SsoProvider | undefined {
  return sso.providers.find((p) => p.id === id);
}

/**
 * better-auth's generic OAuth plugin for every configured OpenID provider:
 * discovery from the issuer, PKCE and state, the ID token checked against the
 * issuer's keys. Accounts are linked by better-auth's own rule, which we keep
 * at its strict default: only when the provider vouches for the address (see
 * `vouches`) AND the local account's address is verified too. Each sign-in
 * notes what the provider said (policy.ts), for the provisioning and
 * admin-group rules that run as the account is found or made.
 */
export function ssoPlugins(config: Config, db: Db): BetterAuthPlugin[] {
  const sso = config.sso;
  const oidc = sso.providers.filter((p): p is OidcProvider => p.type === 'oidc');
  const plugins: BetterAuthPlugin[] = [];
  if (oidc.length > 0) plugins.push(genericOAuth({ config: oidc.map((p) => oidcPluginConfig(config, p)) }));
  plugins.push(...samlPlugins(config, db));
  if (sso.providers.length > 0) plugins.push(noIdTokenSignIn, adminGroupOnSignIn(sso, db));
  if (sso.only) plugins.push(passwordsOff(sso));
  return plugins;
}

function oidcPluginConfig(config: Config, provider: OidcProvider): GenericOAuthConfig {
  return {
    providerId: provider.id,
    name: provider.name,
    discoveryUrl: `${provider.issuer}/.well-known/openid-configuration`,
    requireIdTokenVerification: true,
    clientId: provider.clientId,
    clientSecret: provider.clientSecret,
    scopes: provider.scopes,
    pkce: true,
    redirectURI: oidcRedirectUri(config, provider.id),
    // The ID token's claims, or the userinfo answer when the token lacks the address: what the provider says.
    mapProfileToUser: (profile: Record<string, unknown>) => {
      const email = typeof profile.email === 'string' ? profile.email.toLowerCase() : '';
      const saysVerified = profile.email_verified === true || profile.email_verified === 'true';
      const emailVerified = vouches(provider, email, saysVerified);
      noteIdentity({
        providerId: provider.id,
        email,
        emailVerified,
        name: typeof profile.name === 'string' ? profile.name : '',
        groups: provider.adminGroup ? groupValues(profile[provider.adminGroup.claim]) : [],
      });
      return { emailVerified };
    },
  };
}

/**
 * The SAML providers of SSO_CONFIG through the SAML plugin (saml/), each
 * person admitted by the same policy as OpenID Connect's: a signed assertion
 * from the provider vouches for the address when it is in the provider's
 * domains (any address, for a provider without domains).
 */
function samlPlugins(config: Config, db: Db): BetterAuthPlugin[] {
  const saml = config.sso.providers.filter((p): p is SamlProvider => p.type === 'saml');
  if (saml.length === 0) return [];
  const settings: SamlProviderSettings[] = saml.map((p) => ({
    id: p.id,
    name: p.name,
    entryPoint: p.entryPoint,
    idpCertificate: p.idpCertificate,
    ...(p.idpIssuer ? { idpIssuer: p.idpIssuer } : {}),
    ...(p.emailAttribute ? { emailAttribute: p.emailAttribute } : {}),
    ...(p.nameAttribute ? { nameAttribute: p.nameAttribute } : {}),
    ...(p.adminGroup ? { groupAttribute: p.adminGroup.attribute } : {}),
  }));
  return [
    samlPlugin(settings, {
      baseUrl: config.baseUrl,
      admit: async (identity, settingsOf, context) => {
        const provider = ssoProvider(config.sso, settingsOf.id);
        if (!provider) throw new APIError('FORBIDDEN', { code: 'saml_unknown_provider', message: 'Unknown provider' });
        return admitFromProvider(
          context as unknown as AdmitContext,
          db,
          { ...identity, providerId: provider.id, emailVerified: true },
          provider,
        );
      },
    }),
  ];
}

/**
 * After a provider's callback opened a session: the admin group (policy.ts).
 * A callback that made no session (refused, or a link to a signed-in account)
 * changes no role.
 */
function adminGroupOnSignIn(sso: SsoConfig, db: Db): BetterAuthPlugin {
  return {
    id: 'tavla-sso-admin-group',
    hooks: {
      after: [
        {
          matcher: (ctx) => (ctx.path ?? '').startsWith('/callback/'),
          handler: createAuthMiddleware(async (ctx) => {
            const identity = currentIdentity();
            const userId = ctx.context.newSession?.user.id;
            const provider = identity && ssoProvider(sso, identity.providerId);
            if (!identity || !userId || !provider) return;
            await applyAdminGroup(ctx.context, db, userId, provider, identity.groups);
          }),
        },
      ],
    },
  };
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

/** "Corp ID", "Corp ID or Legacy IdP": the providers, as a refusal names them. */
export function providerNames(sso: SsoConfig): string {
  return sso.providers.map((p) => p.name).join(' or ');
}

/** With OIDC_ONLY or SSO_CONFIG's `only`, password sign-in, sign-up and resets are refused on the server too, not only hidden. */
function passwordsOff(sso: SsoConfig): BetterAuthPlugin {
  const refused = new Set(['/sign-in/email', '/sign-up/email', '/request-password-reset', '/reset-password']);
  return {
    id: 'tavla-oidc-only',
    hooks: {
      before: [
        {
          matcher: (ctx) => refused.has(ctx.path ?? ''),
          handler: createAuthMiddleware(() => {
            throw new APIError('FORBIDDEN', { message: `Password sign-in is turned off: sign in with ${providerNames(sso)}` });
          }),
        },
      ],
    },
  };
}

/**
 * Every better-auth path where a provider's word makes or links an account:
 * callbacks, sign-in starts, links, SAML's assertion consumer service.
 */
const PROVIDER_PATHS =
  /^\/(callback\/|oauth2\/callback\/|sign-in\/(social|oauth2)$|link-social$|oauth2\/link$|saml\/[^/]+\/(acs|finish)$)/;

/**
 * An account is made from the provider only when it vouches for
 * the address, so an IdP account claiming someone else's address cannot
 * become them here. (A hook on user creation rather than better-auth's
 * `validateUserInfo`, which refuses the creations that run outside a request:
 * the ADMIN_* bootstrap, invitation links.)
 */
export function refuseUnvouchedSso(user: { emailVerified?: unknown }, ctx: { path?: string } | null | undefined): void {
  const fromProvider = PROVIDER_PATHS.test(ctx?.path ?? '') || currentIdentity() !== undefined;
  if (fromProvider && user.emailVerified !== true) {
    // better-auth sends the person back to the sign-in page with this code.
    throw new APIError('FORBIDDEN', { code: 'email_not_verified', message: 'The provider did not confirm this e-mail address' });
  }
}

/** What the sign-in page offers; public, since it is shown before anyone signs in. */
export function registerSignInOptions(app: FastifyInstance, config: Config): void {
  const legacy = ssoProvider(config.sso, OIDC_PROVIDER_ID);
  const answer: SignInOptions = {
    password: !config.sso.only,
    signup: config.signup && !config.sso.only,
    sso: legacy ? { name: legacy.name } : null,
    providers: config.sso.providers.map((p) => ({ id: p.id, name: p.name, type: p.type, routed: p.domains.length > 0 })),
    addressRouting: config.sso.providers.some((p) => p.domains.length > 0),
  };
  app.get(
    '/api/sign-in-options',
    { schema: { tags: ['accounts'], summary: 'How people can sign in here', response: { 200: SignInOptions } } },
    () => answer,
  );
}

/** What the routing needs: the sign-in library's handler (to start an OpenID sign-in) and the limits. */
export interface SsoRoutingDeps {
  config: Config;
  auth: { handler: (request: Request) => Promise<Response> };
  limits: Limits;
  clientIpHeader: string;
}

/**
 * `POST /api/sign-in/sso`: the provider that claims the address's domain, and
 * the address where the browser starts signing in with it: for OpenID Connect
 * the provider's own page (the sign-in is started here, its state cookie set
 * on this answer), for SAML this server's `/api/auth/saml/<id>/login`.
 */
export function registerSsoRouting(app: FastifyInstance, deps: SsoRoutingDeps): void {
  const { config } = deps;
  app.withTypeProvider<TypeBoxTypeProvider>().post(
    '/api/sign-in/sso',
    {
      schema: {
        tags: ['accounts'],
        summary: 'The single sign-on provider for an address, and where to start signing in with it',
        body: SsoRouteRequest,
        response: { 200: SsoRoute, 400: ErrorBody, 404: ErrorBody, 429: ErrorBody, 502: ErrorBody },
      },
    },
    async (request, reply) => {
      deps.limits.take('signin.routing', request.ip);
      const email = request.body.email.trim().toLowerCase();
      const provider = providerForAddress(config.sso, email);
      if (!provider) {
        return reply.status(404).send({ error: `No single sign-on provider signs in addresses at ${email.split('@').pop()}` });
      }
      const callbackURL = request.body.callbackURL ?? '/';
      const described = { id: provider.id, name: provider.name, type: provider.type };
      if (provider.type === 'saml') {
        const url = `/api/auth/saml/${provider.id}/login?${new URLSearchParams({ callbackURL }).toString()}`;
        return { provider: described, url };
      }
      const headers = new Headers({ 'content-type': 'application/json', origin: new URL(config.baseUrl).origin });
      headers.set(deps.clientIpHeader, request.ip);
      const started = await deps.auth.handler(
        new Request(`${config.baseUrl}/api/auth/sign-in/social`, {
          method: 'POST',
          headers,
          body: JSON.stringify({
            provider: provider.id,
            callbackURL,
            errorCallbackURL: `/sign-in?provider=${provider.id}`,
            loginHint: email,
            disableRedirect: true,
          }),
        }),
      );
      const answer = (await started.json().catch(() => null)) as { url?: unknown; message?: unknown } | null;
      if (started.status === 429) return reply.status(429).send({ error: 'Too many requests, try again later' });
      if (!started.ok || typeof answer?.url !== 'string') {
        request.log.warn({ provider: provider.id, status: started.status }, 'single sign-on could not start');
        return reply.status(502).send({ error: `${provider.name} cannot be reached right now` });
      }
      const cookies = started.headers.getSetCookie();
      if (cookies.length > 0) reply.header('set-cookie', cookies);
      return { provider: described, url: answer.url };
    },
  );
}
