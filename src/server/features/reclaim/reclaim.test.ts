import { createEmailVerificationToken } from 'better-auth/api';
import { expect, it } from 'vitest';
import { BASE_URL, eachDialect, sessionCookie, type TestContext, type TestUser } from '../../../../test/harness.js';
import { share } from '../../../../test/factories.js';
import { enqueue } from '../../jobs/runner.js';
import { Viewer } from '../../../../test/realtime-client.js';
import { API_KEY_HANDOUT, DATA_HANDOUTS, handedOut, handOut, until } from '../../../../test/standing-access.js';

const origin = { origin: BASE_URL };

/** Everything an account can hand out that outlives its sessions, and a socket opened with its key. */
async function handOutAll(t: TestContext, user: TestUser) {
  const board = await t.createBoard(user);
  const answers: Array<Record<string, unknown>> = [];
  for (const handout of DATA_HANDOUTS) {
    const made = await handOut(t, user, handout, board.id);
    expect(made.statusCode, handout.what).toBe(200);
    answers.push(made.json());
  }
  const [, feed, link] = answers;
  const feedPath = new URL(DATA_HANDOUTS[1]!.secretOf(feed!)).pathname;
  const linkToken = new URL(DATA_HANDOUTS[2]!.secretOf(link!)).pathname.split('/').pop()!;
  const socket = await Viewer.connect(await t.listen(), { 'x-api-key': user.key });
  // A member watching the board: the removals reach it as a change of the board, like any other.
  const member = await t.signUp();
  await share(t, board.id, member, 'read');
  const watcher = await Viewer.connect(await t.listen(), { 'x-api-key': member.key });
  watcher.send({ type: 'subscribe', boardId: board.id });
  const { version } = await watcher.next('subscribed', (m) => m.boardId === board.id);
  return { board, feedPath, linkToken, socket, watcher, version };
}

/** What is left of it: each must answer as gone, and nothing of the account may remain in the tables. */
async function expectAllGone(t: TestContext, user: TestUser, given: Awaited<ReturnType<typeof handOutAll>>) {
  expect((await t.inject(user, { method: 'POST', url: '/api/data/boards' })).statusCode).toBe(403);
  expect((await t.inject(null, { method: 'GET', url: given.feedPath })).statusCode).toBe(404);
  expect((await t.inject(null, { method: 'GET', url: `/api/public/${given.linkToken}` })).statusCode).toBe(404);
  expect(Object.values(await handedOut(t, user, given.board.id))).toEqual([0, 0, 0, 0]);
  await until(() => given.socket.closed !== null, 'the key’s socket to close');
  const event = await given.watcher.next('event', (m) => m.boardId === given.board.id && m.name === 'board.updated');
  expect(event.actor).toBeNull();
  expect(event.version).toBeGreaterThan(given.version);
  const { version } = await t.db
    .selectFrom('boards')
    .select('version')
    .where('id', '=', given.board.id)
    .executeTakeFirstOrThrow();
  expect(version).toBeGreaterThanOrEqual(event.version);
  given.watcher.close();
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

      for (const handout of [API_KEY_HANDOUT, ...DATA_HANDOUTS]) {
        const refused = await handOut(t, { cookie }, handout, boardId, origin);
        expect(refused.statusCode, handout.what).toBe(403);
        expect(refused.json<{ error: string }>().error).toMatch(/Confirm your e-mail address first/);
      }
      expect(Object.values(await handedOut(t, { id: squatterId }, boardId))).toEqual([0, 0, 0, 0]);
    });

    it('a password reset ends every key, feed, webhook and public link, and the key’s socket', async () => {
      const carol = await t.signUp('Carol');
      const given = await handOutAll(t, carol);
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
      const given = await handOutAll(t, carol);
      // An account from before confirmation was required: everything made, the address never confirmed.
      await t.db.updateTable('user').set({ emailVerified: 0 }).where('id', '=', carol.id).execute();
      const token = await createEmailVerificationToken(t.config.authSecret, carol.email, undefined, 3600, { userId: carol.id });
      const verified = await t.app.inject({ method: 'GET', url: `/api/auth/verify-email?token=${token}` });
      expect(verified.statusCode).toBe(200);
      await expectAllGone(t, carol, given);
    });

    it('a password an administrator sets does the same', async () => {
      const carol = await t.signUp('Carol');
      const given = await handOutAll(t, carol);
      const set = await t.app.inject({
        method: 'POST',
        url: '/api/auth/admin/set-user-password',
        headers: { cookie: admin.cookie, ...origin },
        payload: { userId: carol.id, newPassword: 'set by the admin 123' },
      });
      expect(set.statusCode).toBe(200);
      await expectAllGone(t, carol, given);
    });

    it('a reclaim cut short after its first transaction is finished by the job it recorded', async () => {
      const carol = await t.signUp('Carol');
      const given = await handOutAll(t, carol);
      // What a process that died right after the first transaction leaves: the job, and the board's link still there.
      await t.db.deleteFrom('webhooks').where('boardId', '=', given.board.id).execute();
      await enqueue(t.db, 'reclaim-links', `reclaim-links:test-${carol.id}`, { userId: carol.id }, new Date());
      expect((await t.inject(null, { method: 'GET', url: `/api/public/${given.linkToken}` })).statusCode).toBe(200);
      await t.app.jobs.runDue();
      await until(async () => (await handedOut(t, carol, given.board.id))['a public link'] === 0, 'the link to end');
      expect((await t.inject(null, { method: 'GET', url: `/api/public/${given.linkToken}` })).statusCode).toBe(404);
      const event = await given.watcher.next('event', (m) => m.boardId === given.board.id && m.name === 'board.updated');
      expect(event.version).toBeGreaterThan(given.version);
      given.watcher.close();
      given.socket.close();
    });

    it('leaves other accounts’ keys, feeds and links alone', async () => {
      const carol = await t.signUp('Carol');
      const bystander = await t.signUp('Bystander');
      const kept = await handOutAll(t, bystander);
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
      // Nothing of the bystander's changed, so its board heard nothing and kept its version.
      expect(await kept.watcher.quiet('event')).toEqual([]);
      const { version } = await t.db
        .selectFrom('boards')
        .select('version')
        .where('id', '=', kept.board.id)
        .executeTakeFirstOrThrow();
      expect(version).toBe(kept.version);
      kept.socket.socket.close();
      kept.watcher.close();
    });
  },
  { env: { WEBHOOK_ALLOW_PRIVATE: 'true' } },
);
