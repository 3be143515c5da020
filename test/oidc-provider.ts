import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createHash, randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import Provider, { type Configuration } from 'oidc-provider';

export interface IdpAccount {
  /** The login typed on the provider's page, and the subject. */
  sub: string;
  email: string;
  emailVerified: boolean;
  name: string;
  /** The `groups` claim (in the ID token, with the profile scope); change it between sign-ins to test the admin group. */
  groups?: string[];
}

export const OIDC_CLIENT = { id: 'tavla-test', secret: 'tavla-test-secret-0123456789-abcdef' };

/**
 * A real OpenID provider (the certified `oidc-provider`) on a free local port,
 * with its development login page (any password) and consent granted at once.
 * It listens before the client's address is known, because the Tavla under
 * test needs the issuer to start; `register` then adds the client.
 */
export async function startIdp(accounts: IdpAccount[]) {
  let provider: Provider | null = null;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    if (provider) return void provider.callback()(req, res);
    res.writeHead(503).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const configuration = (redirectUri: string): Configuration => ({
    clients: [
      {
        client_id: OIDC_CLIENT.id,
        client_secret: OIDC_CLIENT.secret,
        redirect_uris: [redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'groups'] },
    findAccount: (_ctx, sub) => {
      const account = accounts.find((a) => a.sub === sub);
      if (!account) return undefined;
      return {
        accountId: sub,
        claims: () => ({
          sub,
          email: account.email,
          email_verified: account.emailVerified,
          name: account.name,
          ...(account.groups ? { groups: account.groups } : {}),
        }),
      };
    },
    // No consent page: the test is about Tavla's side, not the provider's screens.
    loadExistingGrant: async (ctx) => {
      const { client, session } = ctx.oidc;
      if (!client || !session?.accountId) return undefined;
      const grant = new ctx.oidc.provider.Grant({ clientId: client.clientId, accountId: session.accountId });
      grant.addOIDCScope('openid email profile');
      await grant.save();
      return grant;
    },
    features: { devInteractions: { enabled: true } },
    pkce: { required: () => true },
    // The address in the ID token itself, as Google and most providers put it.
    conformIdTokenClaims: false,
    cookies: { keys: ['test-cookie-key-0123456789'] },
  });

  return {
    issuer,
    register(redirectUri: string) {
      provider = new Provider(issuer, configuration(redirectUri));
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export type Idp = Awaited<ReturnType<typeof startIdp>>;

/** A cookie jar for one client: enough of RFC 6265 for two local origins on one host. */
export class CookieJar {
  private cookies = new Map<string, string>();
  store(response: Response): void {
    for (const header of response.headers.getSetCookie()) {
      const [pair = ''] = header.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      if (/max-age=0|expires=thu, 01 jan 1970/i.test(header) || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
  get(name: string): string | undefined {
    return this.cookies.get(name);
  }
}

/**
 * Signs in through the provider as a browser would, without one: starts the
 * flow at Tavla, logs in on the provider's page, follows the redirects back,
 * and answers where Tavla finally sends the person (and the jar, holding
 * Tavla's session cookie when it worked).
 */
export async function ssoSignIn(
  tavla: string,
  login: string,
  callbackURL = '/',
  /** `provider`: start with this provider's button (default `oidc`); `email`: through the address routing instead. */
  via: { provider?: string; email?: string } = {},
) {
  const jar = new CookieJar();
  // The provider's cookies: a fresh provider session each time, so the login page always shows.
  const idpJar = new CookieJar();
  const start =
    via.email === undefined
      ? await fetch(`${tavla}/api/auth/sign-in/social`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin: tavla },
          body: JSON.stringify({ provider: via.provider ?? 'oidc', callbackURL, errorCallbackURL: '/sign-in' }),
        })
      : await fetch(`${tavla}/api/sign-in/sso`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin: tavla },
          body: JSON.stringify({ email: via.email, callbackURL }),
        });
  jar.store(start);
  if (!start.ok) return { jar, status: start.status, body: (await start.json()) as { error?: string }, location: null };
  let url = ((await start.json()) as { url: string }).url;
  for (let hop = 0; hop < 20; hop++) {
    const target = new URL(url, url.startsWith('/') ? tavla : undefined);
    const own = target.origin === new URL(tavla).origin;
    let response = await fetch(target, { redirect: 'manual', headers: { cookie: own ? jar.header() : idpJar.header() } });
    (own ? jar : idpJar).store(response);
    if (response.status === 200 && !own) {
      // The provider's login page: post the login form it shows.
      const html = await response.text();
      const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
      if (!action) throw new Error(`no login form at ${target.href}`);
      response = await fetch(new URL(action, target), {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: idpJar.header() },
        body: new URLSearchParams({ prompt: 'login', login, password: 'any' }).toString(),
      });
      idpJar.store(response);
    }
    const location = response.headers.get('location');
    if (!location) return { jar, status: response.status, body: null, location: target.pathname + target.search };
    const next = new URL(location, target);
    if (next.origin === new URL(tavla).origin && !next.pathname.startsWith('/api/')) {
      return { jar, status: response.status, body: null, location: next.pathname + next.search };
    }
    url = next.href;
  }
  throw new Error('too many redirects');
}

/**
 * A genuine ID token from the provider for `login`, got as any client of the
 * provider could (its own PKCE, the registered redirect address, the code
 * taken before it reaches Tavla): what an attacker would post to Tavla.
 */
export async function idTokenFor(
  idp: Idp,
  redirectUri: string,
  login: string,
  nonce: string,
): Promise<{ token: string; accessToken: string }> {
  const verifier = randomBytes(32).toString('base64url');
  const authorize = new URL('/auth', idp.issuer);
  authorize.search = new URLSearchParams({
    client_id: OIDC_CLIENT.id,
    redirect_uri: redirectUri,
    response_type: 'code',
    scope: 'openid email profile',
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    nonce,
    state: 'state',
  }).toString();
  const jar = new CookieJar();
  let url = authorize.href;
  for (let hop = 0; hop < 20; hop++) {
    const target = new URL(url);
    let response = await fetch(target, { redirect: 'manual', headers: { cookie: jar.header() } });
    jar.store(response);
    if (response.status === 200) {
      const action = /<form[^>]*action="([^"]+)"/.exec(await response.text())?.[1];
      if (!action) throw new Error(`no login form at ${target.href}`);
      response = await fetch(new URL(action, target), {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: jar.header() },
        body: new URLSearchParams({ prompt: 'login', login, password: 'any' }).toString(),
      });
      jar.store(response);
    }
    const next = new URL(response.headers.get('location') ?? '', target);
    if (next.href.startsWith(redirectUri)) {
      const code = next.searchParams.get('code');
      if (!code) throw new Error(`no code: ${next.href}`);
      const token = await fetch(new URL('/token', idp.issuer), {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: `Basic ${Buffer.from(`${OIDC_CLIENT.id}:${OIDC_CLIENT.secret}`).toString('base64')}`,
        },
        body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: redirectUri, code_verifier: verifier }),
      });
      const body = (await token.json()) as { id_token?: string; access_token?: string };
      if (!body.id_token || !body.access_token) throw new Error(`no id token: ${JSON.stringify(body)}`);
      return { token: body.id_token, accessToken: body.access_token };
    }
    url = next.href;
  }
  throw new Error('too many redirects');
}
