import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects } from '../../../../test/databases.js';
import { startListeningApp, writeSsoConfig } from '../../../../test/listening-app.js';
import { OIDC_CLIENT, ssoSignIn, startIdp, type Idp, type IdpAccount } from '../../../../test/oidc-provider.js';
import { oidcRedirectUri } from '../sso.js';

/** Corp's people: provisioning `any`, the admin group in the `groups` claim. */
const CORP: IdpAccount[] = [
  { sub: 'ada', email: 'ada@corp.example', emailVerified: true, name: 'Ada', groups: ['staff'] },
  { sub: 'grace', email: 'grace@corp.example', emailVerified: true, name: 'Grace', groups: ['staff', 'tavla-admins'] },
  { sub: 'boss', email: 'boss@corp.example', emailVerified: true, name: 'Boss', groups: ['tavla-admins'] },
  { sub: 'eve', email: 'eve@corp.example', emailVerified: false, name: 'Eve' },
  // Corp's provider vouches for an address of another company's domain: not its to vouch for.
  { sub: 'mallory', email: 'mallory@partner.example', emailVerified: true, name: 'Mallory' },
];
/** Partner's people: provisioning `existing`. */
const PARTNER: IdpAccount[] = [
  { sub: 'pat', email: 'pat@partner.example', emailVerified: true, name: 'Pat at Partner' },
  { sub: 'newbie', email: 'newbie@partner.example', emailVerified: true, name: 'Newbie' },
];

/** Tavla listening on a real port with SSO_CONFIG naming both providers. */
async function startWithProviders(dialect: (typeof dialects)[number], corp: Idp, partner: Idp) {
  const file = writeSsoConfig({
    providers: [
      {
        id: 'corp',
        type: 'oidc',
        name: 'Corp ID',
        domains: ['corp.example'],
        issuer: corp.issuer,
        clientId: OIDC_CLIENT.id,
        clientSecret: OIDC_CLIENT.secret,
        adminGroup: { claim: 'groups', value: 'tavla-admins' },
      },
      {
        id: 'partner',
        type: 'oidc',
        name: 'Partner SSO',
        domains: ['partner.example'],
        issuer: partner.issuer,
        clientId: OIDC_CLIENT.id,
        clientSecret: OIDC_CLIENT.secret,
        provisioning: 'existing',
      },
    ],
  });
  return startListeningApp(
    dialect,
    () => ({ SSO_CONFIG: file }),
    (t) => {
      corp.register(oidcRedirectUri(t.config, 'corp'));
      partner.register(oidcRedirectUri(t.config, 'partner'));
    },
  );
}

async function me(base: string, cookie: string) {
  const res = await fetch(`${base}/api/auth/get-session`, { headers: { cookie } });
  return ((await res.json()) as { user?: { id: string; email: string; role?: string | null } } | null)?.user;
}

function route(base: string, body: unknown) {
  return fetch(`${base}/api/sign-in/sso`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: base },
    body: JSON.stringify(body),
  });
}

for (const dialect of dialects) {
  describe(`several single sign-on providers [${dialect}]`, () => {
    let corp: Idp;
    let partner: Idp;
    let app: Awaited<ReturnType<typeof startWithProviders>>;
    let firstAdmin: { id: string };
    beforeAll(async () => {
      corp = await startIdp(CORP);
      partner = await startIdp(PARTNER);
      app = await startWithProviders(dialect, corp, partner);
      // The instance's first account administers it: the admin group's changes below are not the last admin's.
      firstAdmin = await app.t.signUp('First');
    });
    afterAll(async () => {
      await app?.close();
      await corp?.close();
      await partner?.close();
    });

    const users = () => app.t.db.selectFrom('user').select(['id', 'email', 'role']).execute();
    const roleOf = async (email: string) =>
      (await app.t.db.selectFrom('user').select('role').where('email', '=', email).executeTakeFirst())?.role;

    it('tells the sign-in page every provider and that it asks for the address', async () => {
      const res = await fetch(`${app.base}/api/sign-in-options`);
      expect(await res.json()).toEqual({
        password: true,
        signup: true,
        sso: null,
        providers: [
          { id: 'corp', name: 'Corp ID', type: 'oidc', routed: true },
          { id: 'partner', name: 'Partner SSO', type: 'oidc', routed: true },
        ],
        addressRouting: true,
      });
    });

    it('routes an address to its domain’s provider, and answers 404 or 400 for the others', async () => {
      const a = await route(app.base, { email: 'Someone@Corp.Example', callbackURL: '/board/1' });
      expect(a.status).toBe(200);
      const bodyA = (await a.json()) as { provider: unknown; url: string };
      expect(bodyA.provider).toEqual({ id: 'corp', name: 'Corp ID', type: 'oidc' });
      expect(bodyA.url.startsWith(`${corp.issuer}/`)).toBe(true);
      expect(new URL(bodyA.url).searchParams.get('redirect_uri')).toBe(`${app.base}/api/auth/callback/corp`);
      expect(new URL(bodyA.url).searchParams.get('login_hint')).toBe('someone@corp.example');
      // The sign-in's state is in a cookie set on this answer.
      expect(a.headers.getSetCookie().some((c) => c.includes('state'))).toBe(true);

      const b = await route(app.base, { email: 'x@partner.example' });
      expect(b.status).toBe(200);
      const bodyB = (await b.json()) as { provider: { id: string }; url: string };
      expect(bodyB.provider.id).toBe('partner');
      expect(bodyB.url.startsWith(`${partner.issuer}/`)).toBe(true);

      const none = await route(app.base, { email: 'x@elsewhere.example' });
      expect(none.status).toBe(404);
      expect(await none.json()).toEqual({ error: 'No single sign-on provider signs in addresses at elsewhere.example' });
      for (const bad of [{}, { email: 'no-at-sign' }, { email: 'x@corp.example', callbackURL: '//evil.example/' }]) {
        expect((await route(app.base, bad)).status).toBe(400);
      }
    });

    it('signs a new person of domain A in through provider A; the group makes them an administrator', async () => {
      const before = (await users()).length;
      const result = await ssoSignIn(app.base, 'grace', '/board/1', { email: 'grace@corp.example' });
      expect(result.location).toBe('/board/1');
      const user = await me(app.base, result.jar.header());
      expect(user).toMatchObject({ email: 'grace@corp.example', role: 'admin' });
      expect((await users()).length).toBe(before + 1);
      const accounts = await app.t.db.selectFrom('account').select('providerId').where('userId', '=', user!.id).execute();
      expect(accounts.map((a) => a.providerId)).toEqual(['corp']);
    });

    it('takes the administrator role back at a later sign-in without the group, and gives it again', async () => {
      const ada = await ssoSignIn(app.base, 'ada', '/', { email: 'ada@corp.example' });
      expect(await me(app.base, ada.jar.header())).toMatchObject({ email: 'ada@corp.example', role: 'user' });

      const account = CORP.find((a) => a.sub === 'ada')!;
      account.groups = ['staff', 'tavla-admins'];
      await ssoSignIn(app.base, 'ada', '/', { email: 'ada@corp.example' });
      expect(await roleOf('ada@corp.example')).toBe('admin');

      account.groups = ['staff'];
      const later = await ssoSignIn(app.base, 'ada', '/', { email: 'ada@corp.example' });
      expect(later.location).toBe('/');
      expect(await roleOf('ada@corp.example')).toBe('user');
      // The session the sign-in opened sees the new role.
      expect(await me(app.base, later.jar.header())).toMatchObject({ role: 'user' });
    });

    it('never demotes the last administrator, whatever the group says', async () => {
      const boss = CORP.find((a) => a.sub === 'boss')!;
      boss.groups = ['tavla-admins'];
      await ssoSignIn(app.base, 'boss', '/', { email: 'boss@corp.example' });
      expect(await roleOf('boss@corp.example')).toBe('admin');
      // Everyone else steps down: boss is the only administrator left.
      await app.t.db.updateTable('user').set({ role: 'user' }).where('email', '<>', 'boss@corp.example').execute();
      try {
        boss.groups = [];
        const result = await ssoSignIn(app.base, 'boss', '/', { email: 'boss@corp.example' });
        expect(result.location).toBe('/');
        expect(await roleOf('boss@corp.example')).toBe('admin');
      } finally {
        await app.t.db.updateTable('user').set({ role: 'admin' }).where('id', '=', firstAdmin.id).execute();
      }
      // With another administrator there, the same sign-in does take it.
      await ssoSignIn(app.base, 'boss', '/', { email: 'boss@corp.example' });
      expect(await roleOf('boss@corp.example')).toBe('user');
      boss.groups = ['tavla-admins'];
    });

    it('provisioning "existing" refuses a new person, making no account, and says why', async () => {
      const before = await users();
      const result = await ssoSignIn(app.base, 'newbie', '/', { email: 'newbie@partner.example' });
      expect(result.location).toMatch(/^\/sign-in\?provider=partner&error=account_not_found/);
      expect(result.jar.get('better-auth.session_token')).toBeUndefined();
      expect(await users()).toEqual(before);
    });

    it('provisioning "existing" admits a person whose verified account exists, linking it', async () => {
      const pat = await app.t.signUp('Pat');
      await app.t.db.updateTable('user').set({ email: 'pat@partner.example' }).where('id', '=', pat.id).execute();
      const before = (await users()).length;
      const result = await ssoSignIn(app.base, 'pat', '/', { email: 'pat@partner.example' });
      expect(result.location).toBe('/');
      expect((await me(app.base, result.jar.header()))?.id).toBe(pat.id);
      expect((await users()).length).toBe(before);
      const accounts = await app.t.db.selectFrom('account').select('providerId').where('userId', '=', pat.id).execute();
      expect(accounts.map((a) => a.providerId).sort()).toEqual(['credential', 'partner']);
      // No admin group on this provider: the role is left alone.
      expect(await roleOf('pat@partner.example')).toBe('user');
    });

    it('makes no account for an address the provider does not vouch for, nor for one outside its domains', async () => {
      const before = await users();
      const eve = await ssoSignIn(app.base, 'eve', '/', { email: 'eve@corp.example' });
      expect(eve.location).toMatch(/error=email_not_verified/);
      // Corp's provider says mallory@partner.example is verified, but partner.example is not Corp's to vouch for.
      const mallory = await ssoSignIn(app.base, 'mallory', '/', { provider: 'corp' });
      expect(mallory.location).toMatch(/error=email_not_verified/);
      expect(mallory.jar.get('better-auth.session_token')).toBeUndefined();
      expect(await users()).toEqual(before);
    });

    it('does not hand an existing account to another domain’s provider', async () => {
      const pat = await app.t.db
        .selectFrom('user')
        .select('id')
        .where('email', '=', 'pat@partner.example')
        .executeTakeFirstOrThrow();
      const mallory = CORP.find((a) => a.sub === 'mallory')!;
      mallory.email = 'pat@partner.example';
      try {
        const result = await ssoSignIn(app.base, 'mallory', '/', { provider: 'corp' });
        expect(result.location).toMatch(/^\/sign-in\?error=account_not_linked/);
        const accounts = await app.t.db.selectFrom('account').select('providerId').where('userId', '=', pat.id).execute();
        expect(accounts.map((a) => a.providerId).sort()).toEqual(['credential', 'partner']);
      } finally {
        mallory.email = 'mallory@partner.example';
      }
    });
  });
}

for (const dialect of dialects) {
  describe(`the address routing's limit [${dialect}]`, () => {
    it('answers 429 past SSO_ROUTING_RATE_LIMIT lookups a minute from one client', async () => {
      // Nobody answers at this issuer: the lookups below never reach it.
      const provider = { id: 'corp', type: 'oidc', name: 'Corp', domains: ['corp.example'], issuer: 'http://127.0.0.1:9' };
      const file = writeSsoConfig({ providers: [{ ...provider, clientId: 'a', clientSecret: 'b' }] });
      const app = await startListeningApp(dialect, () => ({ SSO_CONFIG: file, SSO_ROUTING_RATE_LIMIT: '2' }));
      const t = app.t;
      try {
        const lookup = () =>
          t.app.inject({
            method: 'POST',
            url: '/api/sign-in/sso',
            headers: { origin: new URL(t.config.baseUrl).origin },
            payload: { email: 'x@elsewhere.example' },
          });
        expect((await lookup()).statusCode).toBe(404);
        expect((await lookup()).statusCode).toBe(404);
        const refused = await lookup();
        expect(refused.statusCode).toBe(429);
        expect(refused.json()).toEqual({ error: 'Too many requests, try again later' });
        expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      } finally {
        await app.close();
      }
    });
  });
}
