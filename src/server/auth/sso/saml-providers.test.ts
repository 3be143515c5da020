import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects } from '../../../../test/databases.js';
import { startListeningApp, writeSsoConfig } from '../../../../test/listening-app.js';
import { CookieJar } from '../../../../test/oidc-provider.js';
import { readPostPage, startSamlIdp, type SamlAccount, type SamlIdp } from '../../../../test/saml-idp.js';
import { samlAcsUrl, samlEntityId } from '../saml/index.js';

/** Legacy's people: provisioning `any`, the admin group in the `groups` attribute. */
const LEGACY: SamlAccount[] = [
  { nameId: 'lin-1', email: 'lin@legacy.example', name: 'Lin', groups: ['staff', 'cn=admins'] },
  // Legacy's provider asserts an address of another company's domain: not its to vouch for.
  { nameId: 'stray-1', email: 'stray@vendor.example', name: 'Stray' },
];
/** Vendor's people: provisioning `existing`. */
const VENDOR: SamlAccount[] = [
  { nameId: 'val-1', email: 'val@vendor.example', name: 'Val at Vendor' },
  { nameId: 'nova-1', email: 'nova@vendor.example', name: 'Nova' },
];

async function startWithSaml(dialect: (typeof dialects)[number], legacy: SamlIdp, vendor: SamlIdp) {
  const saml = (idp: SamlIdp) => ({ entryPoint: idp.entryPoint, idpCertificate: idp.certificate, idpIssuer: idp.issuer });
  const file = writeSsoConfig({
    providers: [
      {
        id: 'legacy',
        type: 'saml',
        name: 'Legacy IdP',
        domains: ['legacy.example'],
        ...saml(legacy),
        adminGroup: { attribute: 'groups', value: 'cn=admins' },
      },
      {
        id: 'vendor',
        type: 'saml',
        name: 'Vendor SAML',
        domains: ['vendor.example'],
        ...saml(vendor),
        provisioning: 'existing',
      },
    ],
  });
  return startListeningApp(
    dialect,
    () => ({ SSO_CONFIG: file }),
    (t) => {
      const base = t.config.baseUrl;
      legacy.register(samlAcsUrl(base, 'legacy'), samlEntityId(base, 'legacy'));
      vendor.register(samlAcsUrl(base, 'vendor'), samlEntityId(base, 'vendor'));
    },
  );
}

/**
 * A browser's sign-in by address: the routing names the SAML start, which
 * sends it to the provider; the provider posts its answer to the ACS; the
 * finish step opens the session. Answers where Tavla finally sends the person.
 */
async function samlSignIn(base: string, idp: SamlIdp, login: string, address: string, callbackURL = '/') {
  const jar = new CookieJar();
  const routed = await fetch(`${base}/api/sign-in/sso`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: base },
    body: JSON.stringify({ email: address, callbackURL }),
  });
  expect(routed.status).toBe(200);
  const { url } = (await routed.json()) as { url: string };
  const start = await fetch(new URL(url, base), { redirect: 'manual' });
  jar.store(start);
  expect(start.status).toBe(302);
  idp.nextLogin(login);
  const page = await fetch(start.headers.get('location')!);
  const { action, fields } = readPostPage(await page.text());
  const acs = await fetch(action, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: idp.issuer, cookie: jar.header() },
    body: new URLSearchParams(fields).toString(),
  });
  let location = acs.headers.get('location') ?? '';
  if (new URL(location, base).pathname.endsWith('/finish')) {
    const finish = await fetch(new URL(location, base), { redirect: 'manual', headers: { cookie: jar.header() } });
    jar.store(finish);
    location = finish.headers.get('location') ?? '';
  }
  const landed = new URL(location, base);
  return { jar, location: landed.pathname + landed.search };
}

async function me(base: string, jar: CookieJar) {
  const res = await fetch(`${base}/api/auth/get-session`, { headers: { cookie: jar.header() } });
  return ((await res.json()) as { user?: { id: string; email: string; role?: string | null } } | null)?.user;
}

for (const dialect of dialects) {
  describe(`SAML providers from SSO_CONFIG [${dialect}]`, () => {
    let legacy: SamlIdp;
    let vendor: SamlIdp;
    let app: Awaited<ReturnType<typeof startWithSaml>>;
    beforeAll(async () => {
      legacy = await startSamlIdp(LEGACY);
      vendor = await startSamlIdp(VENDOR);
      app = await startWithSaml(dialect, legacy, vendor);
      // The instance's first account: the admin group's changes below are not the last administrator's.
      await app.t.signUp('First');
    });
    afterAll(async () => {
      await app?.close();
      await legacy?.close();
      await vendor?.close();
    });

    const users = () => app.t.db.selectFrom('user').select(['id', 'email', 'role']).orderBy('email').execute();
    const roleOf = async (email: string) =>
      (await app.t.db.selectFrom('user').select('role').where('email', '=', email).executeTakeFirst())?.role;

    it('routes a SAML domain to its provider’s start on this server', async () => {
      const options = (await (await fetch(`${app.base}/api/sign-in-options`)).json()) as { providers: unknown[] };
      expect(options.providers).toEqual([
        { id: 'legacy', name: 'Legacy IdP', type: 'saml', routed: true },
        { id: 'vendor', name: 'Vendor SAML', type: 'saml', routed: true },
      ]);
      const res = await fetch(`${app.base}/api/sign-in/sso`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: app.base },
        body: JSON.stringify({ email: 'lin@legacy.example', callbackURL: '/board/1' }),
      });
      expect(await res.json()).toEqual({
        provider: { id: 'legacy', name: 'Legacy IdP', type: 'saml' },
        url: '/api/auth/saml/legacy/login?callbackURL=%2Fboard%2F1',
      });
    });

    it('makes the account of a new person, and the admin group makes an administrator', async () => {
      const result = await samlSignIn(app.base, legacy, 'lin-1', 'lin@legacy.example', '/board/1');
      expect(result.location).toBe('/board/1');
      const user = await me(app.base, result.jar);
      expect(user).toMatchObject({ email: 'lin@legacy.example', role: 'admin' });
      const links = await app.t.db
        .selectFrom('account')
        .select(['providerId', 'accountId'])
        .where('userId', '=', user!.id)
        .execute();
      expect(links).toEqual([{ providerId: 'saml:legacy', accountId: 'lin-1' }]);
    });

    it('takes the administrator role back at a later sign-in without the group', async () => {
      const lin = LEGACY.find((a) => a.nameId === 'lin-1')!;
      lin.groups = ['staff'];
      try {
        const result = await samlSignIn(app.base, legacy, 'lin-1', 'lin@legacy.example');
        expect(result.location).toBe('/');
        expect(await roleOf('lin@legacy.example')).toBe('user');
        expect(await me(app.base, result.jar)).toMatchObject({ email: 'lin@legacy.example', role: 'user' });
      } finally {
        lin.groups = ['staff', 'cn=admins'];
      }
      await samlSignIn(app.base, legacy, 'lin-1', 'lin@legacy.example');
      expect(await roleOf('lin@legacy.example')).toBe('admin');
    });

    it('provisioning "existing" refuses a new person, making no account', async () => {
      const before = await users();
      const result = await samlSignIn(app.base, vendor, 'nova-1', 'nova@vendor.example');
      expect(result.location).toMatch(/^\/sign-in\?error=account_not_found/);
      expect(await me(app.base, result.jar)).toBeUndefined();
      expect(await users()).toEqual(before);
    });

    it('provisioning "existing" admits a person whose verified account exists, linking it', async () => {
      const val = await app.t.signUp('Val');
      await app.t.db.updateTable('user').set({ email: 'val@vendor.example' }).where('id', '=', val.id).execute();
      const result = await samlSignIn(app.base, vendor, 'val-1', 'val@vendor.example');
      expect(result.location).toBe('/');
      expect((await me(app.base, result.jar))?.id).toBe(val.id);
      const links = await app.t.db.selectFrom('account').select('providerId').where('userId', '=', val.id).execute();
      expect(links.map((l) => l.providerId).sort()).toEqual(['credential', 'saml:vendor']);
    });

    it('a provider vouches only for its own domains: no account, no link for another domain’s address', async () => {
      const before = await users();
      const result = await samlSignIn(app.base, legacy, 'stray-1', 'someone@legacy.example');
      expect(result.location).toMatch(/^\/sign-in\?error=email_not_verified/);
      expect(await me(app.base, result.jar)).toBeUndefined();
      expect(await users()).toEqual(before);

      // The same for an account that exists with that address: it is not handed over.
      const stray = LEGACY.find((a) => a.nameId === 'stray-1')!;
      stray.email = 'val@vendor.example';
      try {
        const taken = await samlSignIn(app.base, legacy, 'stray-1', 'someone@legacy.example');
        expect(taken.location).toMatch(/^\/sign-in\?error=account_not_linked/);
        expect(await me(app.base, taken.jar)).toBeUndefined();
      } finally {
        stray.email = 'stray@vendor.example';
      }
    });
  });
}
