import { createHash, randomBytes } from 'node:crypto';
import { SAML, SamlStatusError, ValidateInResponseTo, type CacheProvider, type Profile } from '@node-saml/node-saml';
import type { BetterAuthPlugin } from 'better-auth';
import { APIError, createAuthEndpoint, isAPIError } from 'better-auth/api';
import { setSessionCookie } from 'better-auth/cookies';
import {
  SAML_ID,
  samlAcsUrl,
  samlEntityId,
  type SamlIdentity,
  type SamlPluginOptions,
  type SamlProviderSettings,
} from './settings.js';

/** How long a sign-in started here may take at the provider. */
const REQUEST_MINUTES = 10;
/** How long the browser has to come back from the response to the last step. */
const TICKET_MINUTES = 2;
/** How far the provider's clock may be from ours. */
const CLOCK_SKEW_MS = 60_000;
const BINDING_COOKIE = 'saml_binding';
const BEARER = 'urn:oasis:names:tc:SAML:2.0:cm:bearer';
/** Enough of an address to be one: something@domain.tld, no spaces. */
const ADDRESS = /^[^\s@<>"]+@[^\s@<>"]+\.[^\s@<>"]+$/;
const MAX_RESPONSE_CHARS = 512 * 1024;

/** What the login step remembers, under `saml-request:<RelayState>`. */
interface PendingRequest {
  providerId: string;
  requestId: string;
  callbackURL: string;
  /** sha-256 of the browser's binding cookie. */
  binding: string;
  createdAt: number;
}

/** What a valid response leaves for the last step, under `saml-ticket:<ticket>`. */
interface Ticket {
  identity: SamlIdentity;
  callbackURL: string;
  binding: string;
}

/** A refusal: the browser goes back to the sign-in page with `code`; `why` goes to the log. */
class Refusal extends Error {
  constructor(
    readonly code: string,
    readonly why: string,
  ) {
    super(why);
  }
}

const sha256 = (value: string) => createHash('sha256').update(value).digest('base64url');
const token = () => randomBytes(32).toString('base64url');
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/**
 * node-saml for one provider. Either the response or the assertion must carry a
 * valid signature by the provider's certificate (node-saml refuses a response
 * with neither, and takes the person's data only from the signed part); the
 * audience must be our entity id; the time conditions hold within a minute.
 * `cache` answers whether a request id is one we issued.
 */
function samlFor(provider: SamlProviderSettings, baseUrl: string, cache: CacheProvider): SAML {
  return new SAML({
    entryPoint: provider.entryPoint,
    idpCert: provider.idpCertificate,
    issuer: samlEntityId(baseUrl, provider.id),
    audience: samlEntityId(baseUrl, provider.id),
    callbackUrl: samlAcsUrl(baseUrl, provider.id),
    ...(provider.idpIssuer ? { idpIssuer: provider.idpIssuer } : {}),
    wantAuthnResponseSigned: false,
    wantAssertionsSigned: false,
    acceptedClockSkewMs: CLOCK_SKEW_MS,
    validateInResponseTo: ValidateInResponseTo.always,
    requestIdExpirationPeriodMs: REQUEST_MINUTES * 60_000,
    cacheProvider: cache,
    identifierFormat: null,
    // Many providers answer a request for a password context with an error once the person used MFA.
    disableRequestedAuthnContext: true,
    signatureAlgorithm: 'sha256',
  });
}

/** A cache that knows no request: for building requests (it records the id) and metadata. */
function recordingCache(record: (id: string) => void): CacheProvider {
  return {
    saveAsync: (key, value) => {
      record(key);
      return Promise.resolve({ value, createdAt: Date.now() });
    },
    getAsync: () => Promise.resolve(null),
    removeAsync: () => Promise.resolve(null),
  };
}

/** A cache that knows exactly the one request this browser's sign-in made. */
function pendingCache(pending: PendingRequest): CacheProvider {
  return {
    saveAsync: () => Promise.resolve(null),
    getAsync: (key) => Promise.resolve(key === pending.requestId ? new Date(pending.createdAt).toISOString() : null),
    removeAsync: () => Promise.resolve(null),
  };
}

/** Only a path here or an address on our own origin; anything else becomes `/`. */
export function sameOriginCallback(callbackURL: unknown, baseUrl: string): string {
  if (typeof callbackURL !== 'string' || callbackURL === '') return '/';
  const origin = new URL(baseUrl).origin;
  try {
    const url = new URL(callbackURL, origin);
    if (url.origin !== origin) return '/';
    return url.pathname + url.search + url.hash;
  } catch {
    return '/';
  }
}

type Attributes = Record<string, unknown>;

function attributeValues(attributes: Attributes, name: string): string[] {
  const value = attributes[name];
  const values = Array.isArray(value) ? value : value === undefined || value === null ? [] : [value];
  return values.filter((v): v is string => typeof v === 'string' && v.trim() !== '').map((v) => v.trim());
}

const MAIL_ATTRIBUTES = [
  'email',
  'mail',
  'urn:oid:0.9.2342.19200300.100.1.3',
  'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress',
];
const NAME_ATTRIBUTES = [
  'displayName',
  'urn:oid:2.16.840.1.113730.3.1.241',
  'name',
  'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/name',
  'cn',
];

type XmlJs = Record<string, unknown> & { $?: Record<string, string>; _?: string };
const children = (node: unknown, name: string): XmlJs[] => {
  const value = (node as Record<string, unknown> | undefined)?.[name];
  return Array.isArray(value) ? (value as XmlJs[]) : [];
};

/**
 * What node-saml leaves to us, read from the signed assertion only: a bearer
 * confirmation for our ACS, in response to our request, not yet expired
 * (SAML's Web Browser SSO profile requires all three); the issuer when one is
 * configured; and the response's Destination, when it names one, is our ACS.
 */
function checkProfile(profile: Profile, provider: SamlProviderSettings, pending: PendingRequest, baseUrl: string): void {
  const acs = samlAcsUrl(baseUrl, provider.id);
  if (provider.idpIssuer && profile.issuer !== provider.idpIssuer) {
    throw new Refusal('saml_invalid', `issuer ${profile.issuer} is not ${provider.idpIssuer}`);
  }
  const assertion = (profile.getAssertion?.() as { Assertion?: unknown } | undefined)?.Assertion;
  const now = Date.now();
  const confirmed = children(assertion, 'Subject')
    .flatMap((subject) => children(subject, 'SubjectConfirmation'))
    .filter((confirmation) => confirmation.$?.Method === BEARER)
    .flatMap((confirmation) => children(confirmation, 'SubjectConfirmationData'))
    .some((data) => {
      const attrs = data.$ ?? {};
      const notOnOrAfter = attrs.NotOnOrAfter ? Date.parse(attrs.NotOnOrAfter) : NaN;
      const notBefore = attrs.NotBefore ? Date.parse(attrs.NotBefore) : -Infinity;
      return (
        attrs.Recipient === acs &&
        attrs.InResponseTo === pending.requestId &&
        now - CLOCK_SKEW_MS < notOnOrAfter &&
        now + CLOCK_SKEW_MS >= notBefore
      );
    });
  if (!confirmed) {
    throw new Refusal('saml_invalid', 'no bearer confirmation for our ACS, in response to our request, still valid');
  }
  const destination = responseDestination(profile.getSamlResponseXml?.() ?? '');
  if (destination !== undefined && destination !== acs) {
    throw new Refusal('saml_invalid', `response Destination ${destination} is not ${acs}`);
  }
}

/** The Destination attribute of the response's root element, if it has one. */
function responseDestination(xml: string): string | undefined {
  const root = /<(?:[A-Za-z_][\w.-]*:)?Response\b([^>]*)>/.exec(xml)?.[1] ?? '';
  const match = /\sDestination\s*=\s*("([^"]*)"|'([^']*)')/.exec(root);
  return match ? (match[2] ?? match[3] ?? '').replace(/&amp;/g, '&') : undefined;
}

/** The person, from the signed assertion: the address must look like one. */
export function identityFrom(profile: Profile, provider: SamlProviderSettings): SamlIdentity {
  const attributes = { ...(profile as unknown as Attributes), ...((profile.attributes ?? {}) as Attributes) };
  const nameId = typeof profile.nameID === 'string' ? profile.nameID.trim() : '';
  if (!nameId) throw new Refusal('saml_invalid', 'the assertion has no NameID');
  const emailCandidates = provider.emailAttribute
    ? attributeValues(attributes, provider.emailAttribute)
    : [...MAIL_ATTRIBUTES.flatMap((a) => attributeValues(attributes, a)), nameId];
  const email = emailCandidates[0]?.toLowerCase();
  if (!email || !ADDRESS.test(email) || email.length > 254) {
    throw new Refusal('saml_no_email', `no e-mail address in the assertion (${email ?? 'none'})`);
  }
  const nameCandidates = provider.nameAttribute
    ? attributeValues(attributes, provider.nameAttribute)
    : NAME_ATTRIBUTES.flatMap((a) => attributeValues(attributes, a));
  const name = (nameCandidates[0] ?? email).slice(0, 200);
  const groups = provider.groupAttribute ? attributeValues(attributes, provider.groupAttribute) : [];
  return { providerId: provider.id, nameId, email, name, groups };
}

/**
 * SAML 2.0 sign-in for better-auth, one set of addresses per provider:
 *
 * - `GET /saml/:id/login?callbackURL=`: sends the browser to the provider with
 *   an AuthnRequest (HTTP-Redirect binding). Its id and the callback (same
 *   origin only) are kept server-side for ten minutes under a random
 *   RelayState, and a cookie binds them to this browser.
 * - `POST /saml/:id/acs`: the provider's response (HTTP-POST binding). It must be
 *   signed by the provider (response or assertion), for our entity id and
 *   ACS, in time, in response to the request kept under its RelayState, which
 *   it uses up: a replay or an unsolicited response is refused. The provider's
 *   page posts it cross-site, so this path reads no cookie (see http.ts): it
 *   only leaves a two-minute ticket and sends the browser on to
 * - `GET /saml/:id/finish?ticket=`: a top-level GET, so the browser's SameSite=Lax
 *   binding cookie comes along: only the browser that started the sign-in may
 *   finish it (no one can sign a victim in to the attacker's account). Then
 *   `admit` names the account, a session starts and the browser goes to the callback.
 * - `GET /saml/:id/metadata`: our SP metadata (the entity id is this address).
 *
 * Every refusal sends the browser to `/sign-in?error=<code>` with no session,
 * and logs why.
 */
export function samlPlugin(providers: SamlProviderSettings[], options: SamlPluginOptions): BetterAuthPlugin {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const byId = new Map<string, SamlProviderSettings>();
  for (const provider of providers) {
    if (!SAML_ID.test(provider.id)) throw new Error(`SAML provider id "${provider.id}" must be letters, digits, - or _`);
    if (byId.has(provider.id)) throw new Error(`SAML provider id "${provider.id}" is used twice`);
    byId.set(provider.id, provider);
  }
  const providerFor = (id: string) => {
    const provider = byId.get(id);
    if (!provider) throw new Refusal('saml_unknown_provider', `no SAML provider "${id}"`);
    return provider;
  };

  return {
    id: 'tavla-saml',
    endpoints: {
      samlLogin: createAuthEndpoint('/saml/:id/login', { method: 'GET' }, async (ctx) => {
        const provider = byId.get(ctx.params.id);
        if (!provider) throw new APIError('NOT_FOUND', { message: 'No such SAML provider' });
        const callbackURL = sameOriginCallback((ctx.query as { callbackURL?: unknown } | undefined)?.callbackURL, baseUrl);
        let requestId = '';
        const relayState = token();
        const url = await samlFor(
          provider,
          baseUrl,
          recordingCache((id) => (requestId = id)),
        ).getAuthorizeUrlAsync(relayState, undefined, {});
        if (!requestId) throw new Error('node-saml made a request without an id');
        // One binding per browser, kept while it lasts, so that sign-ins started in two tabs both finish.
        const cookie = ctx.context.createAuthCookie(BINDING_COOKIE, {
          maxAge: REQUEST_MINUTES * 60,
          sameSite: 'lax',
          httpOnly: true,
          path: '/api/auth/saml',
        });
        const held = ctx.getCookie(cookie.name);
        const binding = held && TOKEN.test(held) ? held : token();
        const pending: PendingRequest = {
          providerId: provider.id,
          requestId,
          callbackURL,
          binding: sha256(binding),
          createdAt: Date.now(),
        };
        await ctx.context.internalAdapter.createVerificationValue({
          identifier: `saml-request:${relayState}`,
          value: JSON.stringify(pending),
          expiresAt: new Date(Date.now() + REQUEST_MINUTES * 60_000),
        });
        ctx.setCookie(cookie.name, binding, cookie.attributes);
        throw ctx.redirect(url);
      }),

      samlAcs: createAuthEndpoint('/saml/:id/acs', { method: 'POST' }, async (ctx) => {
        try {
          const provider = providerFor(ctx.params.id);
          const body = (ctx.body ?? {}) as { SAMLResponse?: unknown; RelayState?: unknown };
          if (
            typeof body.SAMLResponse !== 'string' ||
            body.SAMLResponse === '' ||
            body.SAMLResponse.length > MAX_RESPONSE_CHARS
          ) {
            throw new Refusal('saml_invalid', 'no SAMLResponse in the form');
          }
          if (typeof body.RelayState !== 'string' || !TOKEN.test(body.RelayState)) {
            throw new Refusal('saml_unsolicited', 'no RelayState of ours: an unsolicited response');
          }
          // Used up whatever follows: one response per request.
          const row = await ctx.context.internalAdapter.consumeVerificationValue(`saml-request:${body.RelayState}`);
          if (!row) throw new Refusal('saml_expired', 'the sign-in was not started here, took too long, or was used already');
          const pending = JSON.parse(row.value) as PendingRequest;
          if (pending.providerId !== provider.id)
            throw new Refusal('saml_invalid', 'the sign-in was started for another provider');

          let profile: Profile | null;
          try {
            ({ profile } = await samlFor(provider, baseUrl, pendingCache(pending)).validatePostResponseAsync({
              SAMLResponse: body.SAMLResponse,
            }));
          } catch (error) {
            // An error status (the person cancelled, or may not use this application) is the provider's answer, not an attack.
            if (error instanceof SamlStatusError) throw new Refusal('saml_denied', error.message);
            throw new Refusal('saml_invalid', (error as Error).message);
          }
          if (!profile) throw new Refusal('saml_invalid', 'the response carries no assertion');
          checkProfile(profile, provider, pending, baseUrl);
          const identity = identityFrom(profile, provider);

          const ticket = token();
          const value: Ticket = { identity, callbackURL: pending.callbackURL, binding: pending.binding };
          await ctx.context.internalAdapter.createVerificationValue({
            identifier: `saml-ticket:${ticket}`,
            value: JSON.stringify(value),
            expiresAt: new Date(Date.now() + TICKET_MINUTES * 60_000),
          });
          throw ctx.redirect(`${baseUrl}/api/auth/saml/${provider.id}/finish?ticket=${ticket}`);
        } catch (error) {
          throw refused(ctx, error);
        }
      }),

      samlFinish: createAuthEndpoint('/saml/:id/finish', { method: 'GET' }, async (ctx) => {
        try {
          const provider = providerFor(ctx.params.id);
          const ticketId = (ctx.query as { ticket?: unknown } | undefined)?.ticket;
          if (typeof ticketId !== 'string' || !TOKEN.test(ticketId)) {
            throw new Refusal('saml_expired', 'no ticket');
          }
          const row = await ctx.context.internalAdapter.consumeVerificationValue(`saml-ticket:${ticketId}`);
          if (!row) throw new Refusal('saml_expired', 'the ticket is unknown, expired or used already');
          const ticket = JSON.parse(row.value) as Ticket;
          if (ticket.identity.providerId !== provider.id) throw new Refusal('saml_invalid', 'the ticket is for another provider');
          const cookie = ctx.context.createAuthCookie(BINDING_COOKIE, { path: '/api/auth/saml' });
          const binding = ctx.getCookie(cookie.name);
          if (!binding || sha256(binding) !== ticket.binding) {
            throw new Refusal('saml_browser', 'the sign-in was finished in another browser than the one that started it');
          }

          let admitted: { id: string };
          try {
            admitted = await options.admit(ticket.identity, provider, ctx.context);
          } catch (error) {
            if (isAPIError(error)) {
              const code = (error.body as { code?: unknown } | undefined)?.code;
              throw new Refusal(typeof code === 'string' && code ? code.toLowerCase() : 'saml_refused', error.message);
            }
            throw error;
          }
          const user = await ctx.context.internalAdapter.findUserById(admitted.id);
          if (!user) throw new Refusal('saml_refused', `admit named an account that does not exist (${admitted.id})`);
          const session = await ctx.context.internalAdapter.createSession(user.id);
          await setSessionCookie(ctx, { session, user });
          throw ctx.redirect(ticket.callbackURL);
        } catch (error) {
          throw refused(ctx, error);
        }
      }),

      samlMetadata: createAuthEndpoint('/saml/:id/metadata', { method: 'GET' }, async (ctx) => {
        const provider = byId.get(ctx.params.id);
        if (!provider) throw new APIError('NOT_FOUND', { message: 'No such SAML provider' });
        const xml = samlFor(
          provider,
          baseUrl,
          recordingCache(() => undefined),
        ).generateServiceProviderMetadata(null, null);
        return Promise.resolve(new Response(xml, { headers: { 'content-type': 'application/samlmetadata+xml; charset=utf-8' } }));
      }),
    },
  } satisfies BetterAuthPlugin;
}

/**
 * A refusal as the redirect to the sign-in page (logged); so is a failure (a database down, a bug), with a code
 * of its own. Redirects and other API answers pass through.
 */
function refused(
  ctx: {
    redirect: (url: string) => unknown;
    context: {
      logger: { warn: (message: string, ...args: unknown[]) => void; error: (message: string, ...args: unknown[]) => void };
    };
  },
  error: unknown,
): unknown {
  if (isAPIError(error)) return error;
  const code = error instanceof Refusal ? error.code : 'saml_failed';
  if (error instanceof Refusal) ctx.context.logger.warn(`SAML sign-in refused (${error.code}): ${error.why}`);
  else ctx.context.logger.error('SAML sign-in failed', error);
  return ctx.redirect(`/sign-in?error=${encodeURIComponent(code)}`);
}
