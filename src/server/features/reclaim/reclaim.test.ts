import { createEmailVerificationToken } from 'better-auth/api';
import { expect, it } from 'vitest';
import { BASE_URL, eachDialect, sessionCookie, type TestContext, type TestUser } from '../../../../test/harness.js';
import { Viewer } from '../../../../test/realtime-client.js';

const origin = { origin: BASE_URL };

/** Polls until `check` holds (a socket closes after the answer that revoked its credential). */
async function until(check: () => boolean, what: string, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Everything an account can hand out that outlives its sessions. */
async function handOut(t: TestContext, user: TestUser) {
  const board = await t.createBoard(user);
  const feed = await t.inject(user, { method: 'POST', url: '/api/data/ical-feeds', payload: { name: 'Calendar' } });
  expect(feed.statusCode).toBe(200);
  const hook = await t.inject(user, {
    method: 'POST',
    url: '/api/data/webhook',
    payload: { boardId: board.id, url: 'http://127.0.0.1:9/hook' },
  });
  expect(hook.statusCode).toBe(200);
  const link = await t.inject(user, { method: 'POST', url: '/api/data/public-link', payload: { boardId: board.id } });
  expect(link.statusCode).toBe(200);
  const feedPath = new URL(feed.json<{ url: string }>().url).pathname;
  const linkToken = new URL(link.json<{ link: { url: string } }>().link.url).pathname.split('/').pop()!;
  const socket = await Viewer.connect(await t.listen(), { 'x-api-key': user.key });
  return { board, feedPath, linkToken, socket };
}

/** What is left of it: each must answer as gone, and nothing of the account may remain in the tables. */
async function expectAllGone(t: TestContext, user: TestUser, given: Awaited<ReturnType<typeof handOut>>) {
  expect((await t.inject(user, { method: 'POST', url: '/api/data/boards' })).statusCode).toBe(403);
  expect((await t.inject(null, { method: 'GET', url: given.feedPath })).statusCode).toBe(404);
  expect((await t.inject(null, { method: 'GET', url: `/api/public/${given.linkToken}` })).statusCode).toBe(404);
  const count = async (table: 'apikey' | 'ical_feeds', column: 'userId') =>
    (await t.db.selectFrom(table).select(column).where(column, '=', user.id).execute()).length;
  expect(await count('apikey', 'userId')).toBe(0);
  expect(await count('ical_feeds', 'userId')).toBe(0);
  expect(await t.db.selectFrom('webhooks').select('id').where('boardId', '=', given.board.id).execute()).toEqual([]);
  await until(() => given.socket.closed !== null, 'the key’s socket to close');
}

eachDialect(
  'an address reclaimed from a squatter',
  (t) => {
    let admin: TestUser;
    it('sets up the instance administrator', async () => {
      admin = await t.signUp('Admin');
    });

    it('refuses keys, feeds, webhooks and public links to an unconfirmed address, changing nothing', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/auth/sign-up/email',
        headers: origin,
        payload: { name: 'Squatter', email: `carol-${Date.now()}@example.test`, password: 'squatter password' },
      });
      expect(res.statusCode).toBe(200);
      const cookie = sessionCookie(res);
      const squatterId = res.json<{ user: { id: string } }>().user.id;
      const board = await t.inject(
        { cookie },
        {
          method: 'POST',
          url: '/api/data/board',
          headers: origin,
          payload: { userId: squatterId, name: 'Mine', style: 'kanban', status: 'private' },
        },
      );
      expect(board.statusCode).toBe(200);
      const boardId = board.json<{ board: { id: number } }>().board.id;

      const refusals = [
        await t.app.inject({
          method: 'POST',
          url: '/api/auth/api-key/create',
          headers: { cookie, ...origin },
          payload: { name: 'k' },
        }),
        await t.inject({ cookie }, { method: 'POST', url: '/api/data/ical-feeds', headers: origin, payload: { name: 'Cal' } }),
        await t.inject(
          { cookie },
          {
            method: 'POST',
            url: '/api/data/webhook',
            headers: origin,
            payload: { boardId, url: 'http://127.0.0.1:9/hook' },
          },
        ),
        await t.inject({ cookie }, { method: 'POST', url: '/api/data/public-link', headers: origin, payload: { boardId } }),
      ];
      for (const refused of refusals) {
        expect(refused.statusCode).toBe(403);
        expect(refused.json<{ error: string }>().error).toMatch(/Confirm your e-mail address first/);
      }
      expect(await t.db.selectFrom('apikey').select('id').where('userId', '=', squatterId).execute()).toEqual([]);
      expect(await t.db.selectFrom('ical_feeds').select('id').where('userId', '=', squatterId).execute()).toEqual([]);
      expect(await t.db.selectFrom('webhooks').select('id').where('boardId', '=', boardId).execute()).toEqual([]);
      expect(await t.db.selectFrom('public_links').select('boardId').where('boardId', '=', boardId).execute()).toEqual([]);
    });

    it('a password reset ends every key, feed, webhook and public link, and the key’s socket', async () => {
      const carol = await t.signUp('Carol');
      const given = await handOut(t, carol);
      const asked = await t.app.inject({
        method: 'POST',
        url: '/api/auth/request-password-reset',
        headers: origin,
        payload: { email: carol.email, redirectTo: '/reset-password' },
      });
      expect(asked.statusCode).toBe(200);
      const row = await t.db
        .selectFrom('verification')
        .select('identifier')
        .where('value', '=', carol.id)
        .where('identifier', 'like', 'reset-password:%')
        .executeTakeFirstOrThrow();
      const reset = await t.app.inject({
        method: 'POST',
        url: '/api/auth/reset-password',
        headers: origin,
        payload: { token: row.identifier.slice('reset-password:'.length), newPassword: 'the real carol 123' },
      });
      expect(reset.statusCode).toBe(200);
      await expectAllGone(t, carol, given);
    });

    it('the first confirmation of the address does the same', async () => {
      const carol = await t.signUp('Carol');
      const given = await handOut(t, carol);
      // An account from before confirmation was required: everything made, the address never confirmed.
      await t.db.updateTable('user').set({ emailVerified: 0 }).where('id', '=', carol.id).execute();
      const token = await createEmailVerificationToken(t.config.authSecret, carol.email, undefined, 3600, { userId: carol.id });
      const verified = await t.app.inject({ method: 'GET', url: `/api/auth/verify-email?token=${token}` });
      expect(verified.statusCode).toBe(200);
      await expectAllGone(t, carol, given);
    });

    it('a password an administrator sets does the same', async () => {
      const carol = await t.signUp('Carol');
      const given = await handOut(t, carol);
      const set = await t.app.inject({
        method: 'POST',
        url: '/api/auth/admin/set-user-password',
        headers: { cookie: admin.cookie, ...origin },
        payload: { userId: carol.id, newPassword: 'set by the admin 123' },
      });
      expect(set.statusCode).toBe(200);
      await expectAllGone(t, carol, given);
    });

    it('leaves other accounts’ keys, feeds and links alone', async () => {
      const carol = await t.signUp('Carol');
      const bystander = await t.signUp('Bystander');
      const kept = await handOut(t, bystander);
      const set = await t.app.inject({
        method: 'POST',
        url: '/api/auth/admin/set-user-password',
        headers: { cookie: admin.cookie, ...origin },
        payload: { userId: carol.id, newPassword: 'set by the admin 123' },
      });
      expect(set.statusCode).toBe(200);
      expect((await t.inject(bystander, { method: 'POST', url: '/api/data/boards' })).statusCode).toBe(200);
      expect((await t.inject(null, { method: 'GET', url: kept.feedPath })).statusCode).toBe(200);
      expect((await t.inject(null, { method: 'GET', url: `/api/public/${kept.linkToken}` })).statusCode).toBe(200);
      expect(kept.socket.closed).toBeNull();
      kept.socket.socket.close();
    });
  },
  { env: { WEBHOOK_ALLOW_PRIVATE: 'true' } },
);
