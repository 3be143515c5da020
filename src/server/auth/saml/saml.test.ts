import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { inflateRawSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, dialects } from '../../../../test/databases.js';
import { freePort } from '../../../../test/listening-app.js';
import { CookieJar } from '../../../../test/oidc-provider.js';
import { cheapPasswordHashing } from '../../../../test/password-hashing.js';
import { readPostPage, startSamlIdp, type ResponseOptions, type SamlIdp } from '../../../../test/saml-idp.js';
import { buildApp } from '../../app.js';
import { loadConfig, type Config } from '../../config.js';
import { openDatabase, type Database } from '../../db/database.js';
import type { DialectName } from '../../db/dialect.js';
import { migrate } from '../../db/migrations/index.js';
import { samlAcsUrl, samlEntityId } from './index.js';

const ACCOUNTS = [
  { nameId: 'ada-7', email: 'Ada@Corp.example', name: 'Ada Lovelace', groups: ['staff', 'tavla-admins'] },
  { nameId: 'bob-8', email: 'bob@corp.example', name: 'Bob' },
  { nameId: 'carol-9', email: 'carol@corp.example', name: 'Carol' },
  { nameId: 'dave-10', email: 'dave@corp.example', name: 'Dave' },
  { nameId: 'no-address', email: 'not-an-address', name: 'Nobody' },
];

/** The app on a real port (the provider's page posts a browser to it), with one SAML provider `corp`. */
async function startWithSamlIdp(dialect: DialectName, idp: SamlIdp, env: Record<string, string> = {}) {
  const testDb = await createTestDatabase(dialect);
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  // One SAML provider `corp` through SSO_CONFIG, as an operator configures it (no domains: offered as a button).
  const ssoConfig = join(testDb.dataDir, 'sso.json');
  writeFileSync(
    ssoConfig,
    JSON.stringify({
      providers: [
        {
          id: 'corp',
          type: 'saml',
          name: 'Corp SAML',
          domains: [],
          entryPoint: idp.entryPoint,
          idpCertificate: idp.certificate,
          idpIssuer: idp.issuer,
        },
      ],
    }),
  );
  const config: Config = loadConfig({
    DATA_DIR: testDb.dataDir,
    DATABASE_URL: testDb.url,
    BASE_URL: base,
    AUTH_SECRET: 'test-secret-test-secret-test-secret-0123',
    SIGNIN_RATE_LIMIT: '100000',
    SSO_CONFIG: ssoConfig,
    ...env,
  });
  const database: Database = openDatabase(config.databaseUrl);
  await migrate(database.db, database.dialect);
  const app: FastifyInstance = await buildApp({ config, database, passwordHashing: cheapPasswordHashing });
  idp.register(samlAcsUrl(base, 'corp'), samlEntityId(base, 'corp'));
  await app.listen({ port, host: '127.0.0.1' });
  return {
    app,
    db: database.db,
    base,
    async close() {
      await app.close();
      await database.close();
      await testDb.drop();
    },
  };
}

type App = Awaited<ReturnType<typeof startWithSamlIdp>>;

/** Starts a sign-in at Tavla as a browser: answers the jar (with the binding cookie) and the provider's address. */
async function start(app: App, callbackURL = '/') {
  const jar = new CookieJar();
  const res = await fetch(`${app.base}/api/auth/saml/corp/login?callbackURL=${encodeURIComponent(callbackURL)}`, {
    redirect: 'manual',
  });
  jar.store(res);
  expect(res.status).toBe(302);
  return { jar, idpUrl: res.headers.get('location')! };
}

/**
 * The provider's post, as a browser makes it: cross-site, from the provider's
 * origin, and (as a browser with SameSite=None cookies would) with Tavla's
 * cookies; then the redirects back to where Tavla finally sends the person.
 */
async function post(app: App, idp: SamlIdp, form: Record<string, string>, jar: CookieJar) {
  const acs = await fetch(`${app.base}/api/auth/saml/corp/acs`, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      origin: idp.issuer,
      'sec-fetch-site': 'cross-site',
      ...(jar.header() ? { cookie: jar.header() } : {}),
    },
    body: new URLSearchParams(form).toString(),
  });
  expect(acs.status).toBe(302);
  expect(acs.headers.getSetCookie().filter((c) => c.includes('session_token='))).toEqual([]);
  let location = acs.headers.get('location')!;
  if (new URL(location, app.base).pathname === '/api/auth/saml/corp/finish') {
    const finish = await fetch(new URL(location, app.base), { redirect: 'manual', headers: { cookie: jar.header() } });
    jar.store(finish);
    expect(finish.status).toBe(302);
    location = finish.headers.get('location')!;
  }
  const url = new URL(location, app.base);
  expect(url.origin).toBe(app.base);
  return url.pathname + url.search;
}

/** The whole sign-in through the provider's pages: its login page, then its auto-posting page. */
async function signIn(app: App, idp: SamlIdp, login: string, callbackURL = '/', started?: Awaited<ReturnType<typeof start>>) {
  const { jar, idpUrl } = started ?? (await start(app, callbackURL));
  const loginPage = await fetch(idpUrl);
  expect(loginPage.status).toBe(200);
  const { action: loginAction, fields: hidden } = readPostPage(await loginPage.text());
  const page = await fetch(`${new URL(loginAction, idpUrl).href}?${new URLSearchParams({ ...hidden, login }).toString()}`);
  expect(page.status).toBe(200);
  const { action, fields } = readPostPage(await page.text());
  expect(action).toBe(samlAcsUrl(app.base, 'corp'));
  const location = await post(app, idp, fields, jar);
  return { jar, location, form: fields };
}

/** A sign-in whose response the test makes itself, as `options` has it. */
async function signInWith(app: App, idp: SamlIdp, login: string, options: ResponseOptions) {
  const { jar, idpUrl } = await start(app);
  const request = requestOf(idpUrl);
  const form = idp.respond(request, login, options);
  return { jar, location: await post(app, idp, form, jar), form };
}

/** The AuthnRequest's id and RelayState, read from the address Tavla sends the browser to. */
function requestOf(idpUrl: string) {
  const url = new URL(idpUrl);
  const xml = inflateRawSync(Buffer.from(url.searchParams.get('SAMLRequest')!, 'base64')).toString('utf8');
  return { id: /\sID="([^"]+)"/.exec(xml)![1]!, relayState: url.searchParams.get('RelayState')! };
}

async function me(app: App, jar: CookieJar) {
  const res = await fetch(`${app.base}/api/auth/get-session`, { headers: { cookie: jar.header() } });
  return ((await res.json()) as { user?: { id: string; email: string; name: string; emailVerified: boolean } } | null)?.user;
}

async function counts(app: App) {
  const [users, sessions, accounts] = await Promise.all([
    app.db.selectFrom('user').select('id').execute(),
    app.db.selectFrom('session').select('id').execute(),
    app.db.selectFrom('account').select('id').execute(),
  ]);
  return { users: users.length, sessions: sessions.length, accounts: accounts.length };
}

for (const dialect of dialects) {
  describe(`SAML 2.0 sign-in [${dialect}]`, () => {
    let idp: SamlIdp;
    let app: App;
    beforeAll(async () => {
      idp = await startSamlIdp(ACCOUNTS);
      app = await startWithSamlIdp(dialect, idp);
    }, 60_000);
    afterAll(async () => {
      await app?.close();
      await idp?.close();
    });

    it('answers its metadata: the entity id and the ACS', async () => {
      const res = await fetch(`${app.base}/api/auth/saml/corp/metadata`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/xml/);
      const xml = await res.text();
      expect(xml).toContain(`entityID="${samlEntityId(app.base, 'corp')}"`);
      expect(xml).toMatch(new RegExp(`AssertionConsumerService[^>]*Location="${samlAcsUrl(app.base, 'corp')}"`));
      expect((await fetch(`${app.base}/api/auth/saml/nope/metadata`)).status).toBe(404);
    });

    it('signs a person in through the provider, making the account once, and goes to the callback', async () => {
      const before = await counts(app);
      const first = await signIn(app, idp, 'ada-7', '/board/1?x=2');
      expect(first.location).toBe('/board/1?x=2');
      const user = await me(app, first.jar);
      expect(user).toMatchObject({ email: 'ada@corp.example', name: 'Ada Lovelace', emailVerified: true });
      const linked = await app.db
        .selectFrom('account')
        .select(['providerId', 'accountId'])
        .where('userId', '=', user!.id)
        .execute();
      expect(linked).toEqual([{ providerId: 'saml:corp', accountId: 'ada-7' }]);
      expect((await counts(app)).users).toBe(before.users + 1);

      // The next time, the same account; a response signed as a whole does as well as a signed assertion.
      const again = await signInWith(app, idp, 'ada-7', { sign: 'response' });
      expect(again.location).toBe('/');
      expect((await me(app, again.jar))?.id).toBe(user!.id);
      expect((await counts(app)).users).toBe(before.users + 1);
    });

    it('sends the browser only to its own origin after the sign-in', async () => {
      const result = await signIn(app, idp, 'bob-8', 'https://evil.example/steal');
      expect(result.location).toBe('/');
      expect(await me(app, result.jar)).toMatchObject({ email: 'bob@corp.example' });
    });

    it('links an existing account only when its address is verified here', async () => {
      const res = await fetch(`${app.base}/api/auth/sign-up/email`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: app.base },
        body: JSON.stringify({ name: 'Local Carol', email: 'carol@corp.example', password: 'correct horse battery' }),
      });
      expect(res.status).toBe(200);
      const carol = ((await res.json()) as { user: { id: string } }).user;
      await app.db.updateTable('user').set({ emailVerified: 0 }).where('id', '=', carol.id).execute();
      const before = await counts(app);
      const refused = await signIn(app, idp, 'carol-9');
      expect(refused.location).toBe('/sign-in?error=account_not_linked');
      expect(await me(app, refused.jar)).toBeUndefined();
      expect(await counts(app)).toEqual(before);

      await app.db.updateTable('user').set({ emailVerified: 1 }).where('id', '=', carol.id).execute();
      const linked = await signIn(app, idp, 'carol-9');
      expect(linked.location).toBe('/');
      expect((await me(app, linked.jar))?.id).toBe(carol.id);
    });

    const hostile: Array<[string, ResponseOptions, string]> = [
      ['signed by another key', { key: 'other' }, 'saml_invalid'],
      ['signed by another key, as a whole', { key: 'other', sign: 'response' }, 'saml_invalid'],
      ['not signed at all', { sign: 'none' }, 'saml_invalid'],
      ['expired', { shiftMinutes: -30 }, 'saml_invalid'],
      ['not yet valid', { shiftMinutes: 30 }, 'saml_invalid'],
      ['for another audience', { audience: 'https://other-sp.example/metadata' }, 'saml_invalid'],
      ['for another ACS', { acs: 'https://other-sp.example/acs' }, 'saml_invalid'],
      ['from another issuer (signed with the right key)', { issuer: 'https://other-idp.example' }, 'saml_invalid'],
      ['unsolicited (no InResponseTo)', { inResponseTo: null }, 'saml_invalid'],
      ['in response to a request Tavla did not make', { inResponseTo: '_not-ours' }, 'saml_invalid'],
      ['whose signed assertion does not say which request it answers', { inResponseToOutsideAssertion: true }, 'saml_invalid'],
      [
        'with the address changed after signing',
        { tamper: (xml) => xml.replace('dave@corp.example', 'ada@corp.example') },
        'saml_invalid',
      ],
      ['with the NameID changed after signing', { tamper: (xml) => xml.replace('>dave-10<', '>ada-7<') }, 'saml_invalid'],
      [
        'with a second, unsigned assertion',
        {
          tamper: (xml) =>
            xml.replace(
              '</samlp:Response>',
              '<saml:Assertion ID="_evil" Version="2.0" IssueInstant="2026-01-01T00:00:00Z"><saml:Issuer>x</saml:Issuer></saml:Assertion></samlp:Response>',
            ),
        },
        'saml_invalid',
      ],
    ];
    for (const [what, options, code] of hostile) {
      it(`refuses a response ${what}, making nothing`, async () => {
        const before = await counts(app);
        const result = await signInWith(app, idp, 'dave-10', options);
        expect(result.location).toBe(`/sign-in?error=${code}`);
        expect(await me(app, result.jar)).toBeUndefined();
        expect(await counts(app)).toEqual(before);
        expect(await app.db.selectFrom('user').select('id').where('email', '=', 'dave@corp.example').execute()).toEqual([]);
      });
    }

    it('refuses a response without the RelayState of a sign-in started here', async () => {
      const before = await counts(app);
      const { jar, idpUrl } = await start(app);
      const form = idp.respond(requestOf(idpUrl), 'dave-10');
      expect(await post(app, idp, { SAMLResponse: form.SAMLResponse }, jar)).toBe('/sign-in?error=saml_unsolicited');
      expect(await post(app, idp, { ...form, RelayState: 'x'.repeat(43) }, jar)).toBe('/sign-in?error=saml_expired');
      expect(await counts(app)).toEqual(before);
    });

    it('finishes sign-ins started in two tabs of one browser', async () => {
      const first = await start(app);
      const jar = first.jar;
      const second = await fetch(`${app.base}/api/auth/saml/corp/login?callbackURL=/two`, {
        redirect: 'manual',
        headers: { cookie: jar.header() },
      });
      jar.store(second);
      const tabTwo = await signIn(app, idp, 'bob-8', '/', { jar, idpUrl: second.headers.get('location')! });
      expect(tabTwo.location).toBe('/two');
      const tabOne = await signIn(app, idp, 'bob-8', '/', first);
      expect(tabOne.location).toBe('/');
      expect(await me(app, jar)).toMatchObject({ email: 'bob@corp.example' });
    });

    it('takes a response once, even when it arrives twice at the same moment', async () => {
      const { jar, idpUrl } = await start(app);
      const form = idp.respond(requestOf(idpUrl), 'bob-8');
      const before = await counts(app);
      const locations = await Promise.all([1, 2, 3].map(() => post(app, idp, form, jar)));
      expect(locations.sort()).toEqual(['/', '/sign-in?error=saml_expired', '/sign-in?error=saml_expired']);
      expect((await counts(app)).sessions).toBe(before.sessions + 1);
    });

    it('says so when the provider refuses the person', async () => {
      const before = await counts(app);
      const result = await signInWith(app, idp, 'dave-10', { status: 'RequestDenied' });
      expect(result.location).toBe('/sign-in?error=saml_denied');
      expect(await counts(app)).toEqual(before);
    });

    it('refuses a replayed response, even in the same browser', async () => {
      const first = await signIn(app, idp, 'bob-8');
      expect(first.location).toBe('/');
      const before = await counts(app);
      expect(await post(app, idp, first.form, first.jar)).toBe('/sign-in?error=saml_expired');
      // Sent as the answer to a new request of the same browser, it is not the answer to that one.
      const { idpUrl } = await start(app);
      const fresh = requestOf(idpUrl);
      expect(await post(app, idp, { ...first.form, RelayState: fresh.relayState }, first.jar)).toBe(
        '/sign-in?error=saml_invalid',
      );
      expect(await counts(app)).toEqual(before);
    });

    it('refuses to finish a sign-in in another browser than the one that started it', async () => {
      const before = await counts(app);
      // The attacker starts a sign-in and gets the provider's answer for their own account...
      const { idpUrl } = await start(app);
      const form = idp.respond(requestOf(idpUrl), 'dave-10');
      // ...and makes the victim's browser post it.
      const victim = new CookieJar();
      expect(await post(app, idp, form, victim)).toBe('/sign-in?error=saml_browser');
      expect(await me(app, victim)).toBeUndefined();
      expect(await counts(app)).toEqual(before);
    });

    it('opens no session for a banned account, and says why', async () => {
      const first = await signIn(app, idp, 'dave-10');
      const dave = (await me(app, first.jar))!;
      await app.db.updateTable('user').set({ banned: 1 }).where('id', '=', dave.id).execute();
      const before = await counts(app);
      const result = await signIn(app, idp, 'dave-10');
      expect(result.location).toBe('/sign-in?error=banned_user');
      expect(await me(app, result.jar)).toBeUndefined();
      expect(await counts(app)).toEqual(before);
    });

    it('refuses an assertion without an e-mail address', async () => {
      const before = await counts(app);
      const result = await signIn(app, idp, 'no-address');
      expect(result.location).toBe('/sign-in?error=saml_no_email');
      expect(await counts(app)).toEqual(before);
    });

    it('refuses form bodies everywhere but the ACS, and an unknown provider', async () => {
      const res = await fetch(`${app.base}/api/auth/sign-up/email`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: app.base },
        body: 'name=N&email=n%40corp.example&password=correct+horse+battery',
      });
      expect(res.status).toBe(415);
      expect((await fetch(`${app.base}/api/auth/saml/nope/login`, { redirect: 'manual' })).status).toBe(404);
      const unknown = await fetch(`${app.base}/api/auth/saml/nope/acs`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'SAMLResponse=x&RelayState=y',
      });
      expect(unknown.headers.get('location')).toBe('/sign-in?error=saml_unknown_provider');
    });
  });
}

describe('starting SAML sign-ins', () => {
  it('counts against the sign-in limit (SIGNIN_RATE_LIMIT)', async () => {
    const idp = await startSamlIdp(ACCOUNTS);
    const app = await startWithSamlIdp('sqlite', idp, { SIGNIN_RATE_LIMIT: '3' });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) {
        statuses.push((await fetch(`${app.base}/api/auth/saml/corp/login`, { redirect: 'manual' })).status);
      }
      expect(statuses).toEqual([302, 302, 302, 429, 429]);
    } finally {
      await app.close();
      await idp.close();
    }
  });
});
