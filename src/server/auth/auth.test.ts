import { describe, expect, it } from 'vitest';
import { BASE_URL, eachDialect, sessionCookie } from '../../../test/harness.js';
import { hashKey } from './actor.js';
import { bootstrapAdmin } from './bootstrap-admin.js';

const json = { origin: BASE_URL };

eachDialect('accounts', (t) => {
  it('makes the first account administrator and later ones plain users', async () => {
    const first = await t.signUp('First');
    const second = await t.signUp('Second');
    const session = async (cookie: string) =>
      (await t.app.inject({ method: 'GET', url: '/api/auth/get-session', headers: { cookie } })).json<{
        user: { id: string; role: string; name: string };
      }>();
    expect((await session(first.cookie)).user).toMatchObject({ id: first.id, name: 'First', role: 'admin' });
    expect((await session(second.cookie)).user).toMatchObject({ id: second.id, role: 'user' });
  });

  it('signs in with the right password and refuses a wrong one with {error}', async () => {
    const user = await t.signUp();
    const good = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      headers: json,
      payload: { email: user.email, password: user.password },
    });
    expect(good.statusCode).toBe(200);
    expect(sessionCookie(good)).toMatch(/session_token=/);

    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      headers: json,
      payload: { email: user.email, password: 'wrong password!' },
    });
    expect(bad.statusCode).toBe(401);
    expect(bad.json()).toEqual({ error: expect.any(String) });
  });

  it('signs out: the cookie no longer opens a session or the data routes', async () => {
    const user = await t.signUp();
    const before = await t.inject({ cookie: user.cookie }, { method: 'POST', url: '/api/data/boards' });
    expect(before.statusCode).toBe(200);
    const out = await t.app.inject({ method: 'POST', url: '/api/auth/sign-out', headers: { cookie: user.cookie, ...json } });
    expect(out.statusCode).toBe(200);
    const session = await t.app.inject({ method: 'GET', url: '/api/auth/get-session', headers: { cookie: user.cookie } });
    expect(session.json()).toBeNull();
    const after = await t.inject({ cookie: user.cookie }, { method: 'POST', url: '/api/data/boards' });
    expect(after.statusCode).toBe(403);
  });

  it('refuses a second account with the same address', async () => {
    const user = await t.signUp();
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-up/email',
      headers: json,
      payload: { name: 'Again', email: user.email, password: 'another password' },
    });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.json()).toEqual({ error: expect.any(String) });
    const rows = await t.db.selectFrom('user').select('id').where('email', '=', user.email).execute();
    expect(rows).toHaveLength(1);
  });

  it('refuses data routes without credentials (403)', async () => {
    const res = await t.inject(null, { method: 'POST', url: '/api/data/boards' });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ error: expect.any(String) });
  });

  it('refuses a cookie write from a foreign origin and changes nothing', async () => {
    const user = await t.signUp();
    const payload = { userId: user.id, name: 'Forged', style: 'kanban', status: 'private' };
    const forged = await t.inject(
      { cookie: user.cookie },
      { method: 'POST', url: '/api/data/board', headers: { origin: 'https://evil.example' }, payload },
    );
    expect(forged.statusCode).toBe(403);
    const crossSite = await t.inject(
      { cookie: user.cookie },
      { method: 'POST', url: '/api/data/board', headers: { 'sec-fetch-site': 'cross-site' }, payload },
    );
    expect(crossSite.statusCode).toBe(403);
    expect(await t.db.selectFrom('boards').select('id').where('ownerId', '=', user.id).execute()).toHaveLength(0);

    const sameSite = await t.inject({ cookie: user.cookie }, { method: 'POST', url: '/api/data/board', headers: json, payload });
    expect(sameSite.statusCode).toBe(200);
  });
});

eachDialect('API keys', (t) => {
  it('creates a key whose secret works, is shown once and is stored only as a hash', async () => {
    const user = await t.signUp();
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/auth/api-key/create',
      headers: { cookie: user.cookie, ...json },
      payload: { name: 'script' },
    });
    expect(created.statusCode).toBe(200);
    const body = created.json<{ id: string; key: string; name: string; readOnly: boolean }>();
    expect(body).toMatchObject({ name: 'script', readOnly: false });

    const works = await t.inject({ key: body.key }, { method: 'POST', url: '/api/data/boards' });
    expect(works.statusCode).toBe(200);

    const list = await t.app.inject({ method: 'GET', url: '/api/auth/api-key/list', headers: { cookie: user.cookie } });
    const keys = list.json<{ apiKeys: Array<Record<string, unknown>> }>().apiKeys;
    expect(keys.map((k) => k.id)).toContain(body.id);
    expect(JSON.stringify(keys)).not.toContain(body.key);

    const stored = await t.db.selectFrom('apikey').selectAll().where('id', '=', body.id).executeTakeFirstOrThrow();
    expect(JSON.stringify(stored)).not.toContain(body.key);
    expect(stored.keyHash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('stops a deleted key at once, and refuses to delete another account’s key', async () => {
    const owner = await t.signUp();
    const other = await t.signUp();
    const key = await t.createKey(owner);
    const { id: keyId } = await t.db
      .selectFrom('apikey')
      .select('id')
      .where('keyHash', '=', hashKey(key))
      .executeTakeFirstOrThrow();

    const foreign = await t.app.inject({
      method: 'POST',
      url: '/api/auth/api-key/delete',
      headers: { cookie: other.cookie, ...json },
      payload: { keyId },
    });
    expect(foreign.statusCode).toBe(404);
    expect((await t.inject({ key }, { method: 'POST', url: '/api/data/boards' })).statusCode).toBe(200);

    const deleted = await t.app.inject({
      method: 'POST',
      url: '/api/auth/api-key/delete',
      headers: { cookie: owner.cookie, ...json },
      payload: { keyId },
    });
    expect(deleted.statusCode).toBe(200);
    expect((await t.inject({ key }, { method: 'POST', url: '/api/data/boards' })).statusCode).toBe(403);
  });

  it('lets a read-only key read but refuses its writes, changing nothing', async () => {
    const user = await t.signUp();
    const board = await t.createBoard(user, { name: 'Kept' });
    const readOnly = await t.createKey(user, true);
    const read = await t.inject({ key: readOnly }, { method: 'GET', url: `/api/data/board?id=${board.id}&userId=${user.id}` });
    expect(read.statusCode).toBe(200);

    const write = await t.inject(
      { key: readOnly },
      {
        method: 'POST',
        url: '/api/data/board',
        payload: { id: board.id, userId: user.id, name: 'Changed', style: 'todo', status: 'public' },
      },
    );
    expect(write.statusCode).toBe(403);
    const del = await t.inject({ key: readOnly }, { method: 'DELETE', url: `/api/data/board?id=${board.id}&userId=${user.id}` });
    expect(del.statusCode).toBe(403);
    const row = await t.db.selectFrom('boards').selectAll().where('id', '=', board.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ name: 'Kept', style: 'kanban', status: 'private', archivedAt: null });
  });

  it('refuses an unknown key even beside a valid session cookie', async () => {
    const user = await t.signUp();
    const res = await t.inject(null, {
      method: 'POST',
      url: '/api/data/boards',
      headers: { 'x-api-key': 'tvk_not-a-real-key', cookie: user.cookie },
    });
    expect(res.statusCode).toBe(403);
  });

  it('manages keys from a session only', async () => {
    const user = await t.signUp();
    const res = await t.app.inject({ method: 'GET', url: '/api/auth/api-key/list', headers: { 'x-api-key': user.key } });
    expect(res.statusCode).toBe(401);
    const blank = await t.app.inject({
      method: 'POST',
      url: '/api/auth/api-key/create',
      headers: { cookie: user.cookie, ...json },
      payload: { name: '' },
    });
    expect(blank.statusCode).toBe(400);
  });
});

eachDialect(
  'closed sign-up and the bootstrap administrator',
  (t) => {
    it('refuses open sign-up when SIGNUP=false', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/auth/sign-up/email',
        headers: json,
        payload: { name: 'Nobody', email: 'nobody@example.test', password: 'long enough password' },
      });
      expect(res.statusCode).toBeGreaterThanOrEqual(400);
      expect(res.json()).toEqual({ error: expect.any(String) });
      expect(await t.db.selectFrom('user').select('id').execute()).toHaveLength(0);
    });

    it('creates the administrator from ADMIN_EMAIL/ADMIN_PASSWORD once, who can then sign in', async () => {
      await bootstrapAdmin(t.app.deps, t.app.log);
      await bootstrapAdmin(t.app.deps, t.app.log);
      const users = await t.db.selectFrom('user').selectAll().execute();
      expect(users).toHaveLength(1);
      expect(users[0]).toMatchObject({ email: 'boss@example.test', name: 'The Boss', role: 'admin' });
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/auth/sign-in/email',
        headers: json,
        payload: { email: 'boss@example.test', password: 'bootstrap-password' },
      });
      expect(res.statusCode).toBe(200);
    });
  },
  { env: { SIGNUP: 'false', ADMIN_EMAIL: 'Boss@example.test', ADMIN_PASSWORD: 'bootstrap-password', ADMIN_NAME: 'The Boss' } },
);

eachDialect(
  'sign-in rate limit',
  (t) => {
    it('answers 429 once an address has used up its attempts', async () => {
      const user = await t.signUp();
      const attempt = () =>
        t.app.inject({
          method: 'POST',
          url: '/api/auth/sign-in/email',
          remoteAddress: '10.9.8.7',
          headers: json,
          payload: { email: user.email, password: 'guessing wrong' },
        });
      const statuses = [];
      for (let i = 0; i < 5; i++) statuses.push((await attempt()).statusCode);
      expect(statuses.slice(0, 3)).toEqual([401, 401, 401]);
      expect(statuses.slice(3)).toEqual([429, 429]);
      // Another address is not affected.
      const other = await t.app.inject({
        method: 'POST',
        url: '/api/auth/sign-in/email',
        remoteAddress: '10.9.8.8',
        headers: json,
        payload: { email: user.email, password: user.password },
      });
      expect(other.statusCode).toBe(200);
    });
  },
  { env: { SIGNIN_RATE_LIMIT: '3' } },
);

describe('config', () => {
  it('names every bad variable at once', async () => {
    const { loadConfig } = await import('../config.js');
    expect(() => loadConfig({ PORT: 'eighty', LANGUAGE: 'xx', DATABASE_URL: 'mysql://x', AUTH_SECRET: 'a'.repeat(40) })).toThrow(
      /PORT must be a whole number[\s\S]*DATABASE_URL[\s\S]*LANGUAGE must be one of/,
    );
  });
});
