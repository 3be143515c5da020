import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects } from '../../../test/databases.js';
import { startListeningApp } from '../../../test/listening-app.js';
import { OIDC_CLIENT, idTokenFor, ssoSignIn, startIdp, type Idp, type IdpAccount } from '../../../test/oidc-provider.js';
import { hashToken } from '../features/sharing/sharing.service.js';
import { oidcRedirectUri } from './sso.js';

const ACCOUNTS: IdpAccount[] = [
  { sub: 'new-verified', email: 'ada@corp.example', emailVerified: true, name: 'Ada Lovelace' },
  { sub: 'new-unverified', email: 'eve@corp.example', emailVerified: false, name: 'Eve' },
  { sub: 'links-to-bob', email: 'bob@corp.example', emailVerified: true, name: 'Bob at IdP' },
  { sub: 'claims-carol', email: 'carol@corp.example', emailVerified: false, name: 'Not Carol' },
  { sub: 'dave-idp', email: 'dave@corp.example', emailVerified: true, name: 'Dave' },
];

/** The app listening on a real port (the provider redirects a browser to it), configured for the provider. */
async function startWithIdp(dialect: (typeof dialects)[number], idp: Idp, env: Record<string, string> = {}) {
  return startListeningApp(
    dialect,
    () => ({
      OIDC_ISSUER: idp.issuer,
      OIDC_CLIENT_ID: OIDC_CLIENT.id,
      OIDC_CLIENT_SECRET: OIDC_CLIENT.secret,
      OIDC_NAME: 'Corp ID',
      ...env,
    }),
    (t) => idp.register(oidcRedirectUri(t.config)),
  );
}

async function me(base: string, cookie: string) {
  const res = await fetch(`${base}/api/auth/get-session`, { headers: { cookie } });
  return ((await res.json()) as { user?: { id: string; email: string; name: string; emailVerified: boolean } } | null)?.user;
}

for (const dialect of dialects) {
  describe(`single sign-on [${dialect}]`, () => {
    let idp: Idp;
    let app: Awaited<ReturnType<typeof startWithIdp>>;
    beforeAll(async () => {
      idp = await startIdp(ACCOUNTS);
      app = await startWithIdp(dialect, idp);
    });
    afterAll(async () => {
      await app?.close();
      await idp?.close();
    });

    it('tells the sign-in page which provider to offer', async () => {
      const res = await fetch(`${app.base}/api/sign-in-options`);
      expect(await res.json()).toEqual({
        password: true,
        signup: true,
        sso: { name: 'Corp ID' },
        providers: [{ id: 'oidc', name: 'Corp ID', type: 'oidc', routed: false }],
        addressRouting: false,
      });
    });

    it('creates the account on a first sign-in when the provider vouches for the address', async () => {
      const before = await app.t.db.selectFrom('user').select('id').execute();
      const result = await ssoSignIn(app.base, 'new-verified', '/board/1');
      expect(result.location).toBe('/board/1');
      const user = await me(app.base, result.jar.header());
      expect(user).toMatchObject({ email: 'ada@corp.example', name: 'Ada Lovelace', emailVerified: true });
      const after = await app.t.db.selectFrom('user').select('id').execute();
      expect(after.length).toBe(before.length + 1);

      // The second time it is the same account, not a new one.
      const again = await ssoSignIn(app.base, 'new-verified');
      expect((await me(app.base, again.jar.header()))?.id).toBe(user?.id);
      expect((await app.t.db.selectFrom('user').select('id').execute()).length).toBe(after.length);
    });

    it('makes no account when the provider does not vouch for the address, and says why', async () => {
      const before = await app.t.db.selectFrom('user').select('id').execute();
      const result = await ssoSignIn(app.base, 'new-unverified');
      expect(result.location).toMatch(/^\/sign-in\?error=email_not_verified/);
      expect(result.jar.get('better-auth.session_token')).toBeUndefined();
      expect(await app.t.db.selectFrom('user').select('id').where('email', '=', 'eve@corp.example').execute()).toEqual([]);
      expect((await app.t.db.selectFrom('user').select('id').execute()).length).toBe(before.length);
    });

    it('links an existing account only when its address is verified on both sides', async () => {
      const bob = await app.t.signUp('Bob');
      await app.t.db.updateTable('user').set({ email: 'bob@corp.example', emailVerified: 0 }).where('id', '=', bob.id).execute();

      // Bob never verified his address here: signing in through the provider must not take the account.
      const refused = await ssoSignIn(app.base, 'links-to-bob');
      expect(refused.location).toMatch(/^\/sign-in\?error=account_not_linked/);
      expect(await app.t.db.selectFrom('account').select('id').where('userId', '=', bob.id).execute()).toHaveLength(1);

      await app.t.db.updateTable('user').set({ emailVerified: 1 }).where('id', '=', bob.id).execute();
      const linked = await ssoSignIn(app.base, 'links-to-bob');
      expect(linked.location).toBe('/');
      expect((await me(app.base, linked.jar.header()))?.id).toBe(bob.id);
      const accounts = await app.t.db.selectFrom('account').select('providerId').where('userId', '=', bob.id).execute();
      expect(accounts.map((a) => a.providerId).sort()).toEqual(['credential', 'oidc']);
    });

    it('refuses a bare ID token, even a genuine one, making no account and sending no mail', async () => {
      const accountsBefore = await app.t.db.selectFrom('user').select('id').execute();
      const jobsBefore = await app.t.db.selectFrom('jobs').select('id').execute();
      for (const login of ['new-unverified', 'dave-idp']) {
        const { token, accessToken } = await idTokenFor(idp, oidcRedirectUri(app.t.config), login, 'nonce-1');
        const res = await fetch(`${app.base}/api/auth/sign-in/social`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin: app.base },
          body: JSON.stringify({ provider: 'oidc', idToken: { token, accessToken, nonce: 'nonce-1' } }),
        });
        expect(res.status).toBe(403);
        expect(((await res.json()) as { error: string }).error).toMatch(/ID token is turned off/);
        expect(res.headers.getSetCookie().some((c) => c.includes('session_token=') && !c.includes('session_token=;'))).toBe(
          false,
        );
      }
      const emails = await app.t.db.selectFrom('user').select('email').execute();
      expect(emails.map((u) => u.email)).not.toContain('eve@corp.example');
      expect(emails.map((u) => u.email)).not.toContain('dave@corp.example');
      expect(emails).toHaveLength(accountsBefore.length);
      expect(await app.t.db.selectFrom('jobs').select('id').execute()).toHaveLength(jobsBefore.length);
    });

    it('never hands a verified local account to a provider identity whose address is unverified', async () => {
      const carol = await app.t.signUp('Carol');
      await app.t.db
        .updateTable('user')
        .set({ email: 'carol@corp.example', emailVerified: 1 })
        .where('id', '=', carol.id)
        .execute();
      const result = await ssoSignIn(app.base, 'claims-carol');
      expect(result.location).toMatch(/^\/sign-in\?error=account_not_linked/);
      expect(result.jar.get('better-auth.session_token')).toBeUndefined();
      const accounts = await app.t.db.selectFrom('account').select('providerId').where('userId', '=', carol.id).execute();
      expect(accounts.map((a) => a.providerId)).toEqual(['credential']);
    });
  });
}

describe('single sign-on only (OIDC_ONLY=true)', () => {
  let idp: Idp;
  let app: Awaited<ReturnType<typeof startWithIdp>>;
  beforeAll(async () => {
    idp = await startIdp(ACCOUNTS);
    app = await startWithIdp('sqlite', idp, { OIDC_ONLY: 'true', SIGNUP: 'false' });
  });
  afterAll(async () => {
    await app?.close();
    await idp?.close();
  });

  it('refuses password sign-up, sign-in and resets on the server; the provider still makes accounts with SIGNUP=false', async () => {
    expect(await (await fetch(`${app.base}/api/sign-in-options`)).json()).toEqual({
      password: false,
      signup: false,
      sso: { name: 'Corp ID' },
      providers: [{ id: 'oidc', name: 'Corp ID', type: 'oidc', routed: false }],
      addressRouting: false,
    });
    const post = (path: string, body: object) =>
      fetch(`${app.base}/api/auth/${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: app.base },
        body: JSON.stringify(body),
      });
    const signUp = await post('sign-up/email', { email: 'x@corp.example', password: 'password123', name: 'X' });
    expect(signUp.status).toBe(403);
    expect(await signUp.json()).toEqual({ error: 'Password sign-in is turned off: sign in with Corp ID' });
    expect(await app.t.db.selectFrom('user').select('id').execute()).toEqual([]);
    expect((await post('sign-in/email', { email: 'x@corp.example', password: 'password123' })).status).toBe(403);
    expect((await post('request-password-reset', { email: 'x@corp.example' })).status).toBe(403);

    const result = await ssoSignIn(app.base, 'dave-idp');
    expect(result.location).toBe('/');
    expect(await me(app.base, result.jar.header())).toMatchObject({ email: 'dave@corp.example' });
  });

  it('an invitation link makes no password account: the invitee signs in through the provider first', async () => {
    const TOKEN = 'ab'.repeat(32);
    const owner = await ssoSignIn(app.base, 'new-verified');
    const ownerId = (await me(app.base, owner.jar.header()))!.id;
    const created = await fetch(`${app.base}/api/data/board`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: app.base, cookie: owner.jar.header() },
      body: JSON.stringify({ userId: ownerId, name: 'Team', style: 'kanban', status: 'private' }),
    });
    const { board } = (await created.json()) as { board: { id: number } };
    const now = new Date();
    await app.t.db
      .insertInto('board_invites')
      .values({
        boardId: board.id,
        email: 'newcomer@corp.example',
        permission: 'edit',
        tokenHash: hashToken(TOKEN),
        invitedBy: null,
        expiresAt: new Date(now.getTime() + 3600_000).toISOString(),
        usedAt: null,
        createdAt: now.toISOString(),
      })
      .execute();
    const accept = await fetch(`${app.base}/api/invitations/${TOKEN}/accept`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: app.base },
      body: JSON.stringify({ name: 'Newcomer', password: 'password123' }),
    });
    expect(accept.status).toBe(403);
    expect(await accept.json()).toEqual({
      error: 'Password sign-in is turned off: sign in with Corp ID, then open the link again',
    });
    expect(await app.t.db.selectFrom('user').select('id').where('email', '=', 'newcomer@corp.example').execute()).toEqual([]);
    const invite = await app.t.db.selectFrom('board_invites').select('usedAt').where('boardId', '=', board.id).executeTakeFirst();
    expect(invite?.usedAt).toBeNull();
  });
});

describe('a provider that is down', () => {
  it('answers the sign-in with a clear error and no redirect', async () => {
    const idp = await startIdp(ACCOUNTS);
    const app = await startWithIdp('sqlite', idp);
    await idp.close();
    try {
      const result = await ssoSignIn(app.base, 'new-verified');
      expect(result.status).toBeGreaterThanOrEqual(400);
      expect(result.status).toBeLessThan(600);
      expect(result.body?.error).toEqual(expect.any(String));
      expect(JSON.stringify(result.body)).not.toMatch(/at .*\.(js|ts):\d+/);
    } finally {
      await app.close();
    }
  });
});

describe('OIDC configuration', () => {
  it('refuses half a configuration or OIDC_ONLY without a provider', async () => {
    const { loadConfig } = await import('../config.js');
    const base = { DATA_DIR: '/nonexistent-tavla', AUTH_SECRET: 'x'.repeat(32) };
    expect(() => loadConfig({ ...base, OIDC_ISSUER: 'https://id.example' })).toThrow(/must be set together/);
    expect(() => loadConfig({ ...base, OIDC_ONLY: 'true' })).toThrow(/OIDC_ONLY needs/);
    expect(() => loadConfig({ ...base, OIDC_ISSUER: 'ftp://x', OIDC_CLIENT_ID: 'a', OIDC_CLIENT_SECRET: 'b' })).toThrow(
      /OIDC_ISSUER must be/,
    );
    const ok = loadConfig({ ...base, OIDC_ISSUER: 'https://id.example/', OIDC_CLIENT_ID: 'a', OIDC_CLIENT_SECRET: 'b' });
    expect(ok.oidc).toEqual({
      issuer: 'https://id.example',
      clientId: 'a',
      clientSecret: 'b',
      name: 'SSO',
      scopes: ['openid', 'email', 'profile'],
      only: false,
    });
  });
});
