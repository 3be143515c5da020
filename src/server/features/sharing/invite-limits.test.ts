import { expect, it } from 'vitest';
import { columnTypes } from '../../db/dialect.js';
import { eachDialect, type TestUser } from '../../../../test/harness.js';

eachDialect(
  'invitation rate limits',
  (t) => {
    const invite = (user: TestUser, boardId: number, mail: string) =>
      t.inject(user, { method: 'POST', url: '/api/data/invite', payload: { boardId, mail, permission: 'read' } });
    const invitationMails = async () =>
      (await t.db.selectFrom('jobs').select('payload').where('kind', '=', 'mail').execute())
        .map((job) => JSON.parse(job.payload) as { to: string; text: string })
        .filter((mail) => /\/invite\/[0-9a-f]{64}/.test(mail.text));
    const state = async () => ({
      invites: await t.db.selectFrom('board_invites').selectAll().orderBy('id').execute(),
      members: await t.db.selectFrom('board_members').selectAll().orderBy('id').execute(),
      notifications: await t.db.selectFrom('notifications').selectAll().orderBy('id').execute(),
      mails: await invitationMails(),
    });
    const verified = async (user: TestUser) => {
      await t.db
        .updateTable('user')
        .set({ emailVerified: columnTypes(t.dialect).true })
        .where('id', '=', user.id)
        .execute();
      return user;
    };
    const expectLimited = (res: { statusCode: number; headers: Record<string, unknown>; json(): unknown }, most: number) => {
      expect(res.statusCode).toBe(429);
      expect(res.json()).toEqual({ error: 'Too many invitations: try again later' });
      const wait = Number(res.headers['retry-after']);
      expect(Number.isInteger(wait)).toBe(true);
      expect(wait).toBeGreaterThan(0);
      expect(wait).toBeLessThanOrEqual(most);
    };
    /** Moves every limit window back by this much, as if that time had passed. */
    const age = async (ms: number) => {
      for (const row of await t.db.selectFrom('invite_limits').selectAll().execute()) {
        const start = new Date(new Date(row.windowStart).getTime() - ms).toISOString();
        await t.db.updateTable('invite_limits').set({ windowStart: start }).where('key', '=', row.key).execute();
      }
    };

    it('refuses an inviter past the hourly limit with 429 and Retry-After, sending nothing; an hour later it goes again', async () => {
      const owner = await t.signUp('Burst');
      const board = await t.createBoard(owner);
      // Invited all at once, as a script would: exactly the limit gets through.
      const answers = await Promise.all(
        Array.from({ length: 8 }, (_, i) => invite(owner, board.id, `burst-${i}-${t.dialect}@example.test`)),
      );
      expect(answers.filter((r) => r.statusCode === 200)).toHaveLength(3);
      for (const res of answers.filter((r) => r.statusCode !== 200)) expectLimited(res, 3600);
      const invites = await t.db.selectFrom('board_invites').select('email').where('boardId', '=', board.id).execute();
      expect(invites).toHaveLength(3);
      const mails = (await invitationMails()).filter((m) => m.to.startsWith('burst-'));
      expect(mails.map((m) => m.to).sort()).toEqual(invites.map((i) => i.email).sort());

      // Past the limit an address with a verified account gets the very same answer, and no access.
      const known = await verified(await t.signUp('Known'));
      const before = await state();
      const toKnown = await invite(owner, board.id, known.email);
      const toNobody = await invite(owner, board.id, `nobody-${t.dialect}@example.test`);
      expectLimited(toKnown, 3600);
      expect(toNobody.statusCode).toBe(429);
      expect(toNobody.body).toBe(toKnown.body);
      expect(await state()).toEqual(before);

      // Another inviter is not held up by this one.
      const other = await t.signUp('Other');
      expect((await invite(other, (await t.createBoard(other)).id, `other-${t.dialect}@example.test`)).statusCode).toBe(200);

      await age(60 * 60 * 1000);
      expect((await invite(owner, board.id, `after-${t.dialect}@example.test`)).statusCode).toBe(200);
    });

    it('refuses an address past its daily limit, from any inviter, whether or not it has an account', async () => {
      const ann = await t.signUp('Ann');
      const bob = await t.signUp('Bob');
      const annBoard = await t.createBoard(ann);
      const bobBoard = await t.createBoard(bob);
      const known = await verified(await t.signUp('Known'));
      const unknown = `unknown-${t.dialect}@example.test`;

      for (const address of [known.email, unknown]) {
        expect((await invite(ann, annBoard.id, address)).statusCode).toBe(200);
        expect((await invite(bob, bobBoard.id, address.toUpperCase())).statusCode).toBe(200);
      }
      const before = await state();
      const third = [await invite(bob, bobBoard.id, known.email), await invite(bob, bobBoard.id, unknown)];
      for (const res of third) expectLimited(res, 24 * 3600);
      expect(third[0]!.body).toBe(third[1]!.body);
      expect(third[0]!.headers['content-length']).toBe(third[1]!.headers['content-length']);
      expect(await state()).toEqual(before);
      // Other addresses still go.
      expect((await invite(bob, bobBoard.id, `fine-${t.dialect}@example.test`)).statusCode).toBe(200);
      // Access by account id is no mail and is not limited.
      expect(
        (
          await t.inject(bob, {
            method: 'POST',
            url: '/api/data/invite',
            payload: { boardId: bobBoard.id, userId: ann.id, permission: 'read' },
          })
        ).statusCode,
      ).toBe(200);

      await age(24 * 60 * 60 * 1000);
      expect((await invite(bob, bobBoard.id, unknown)).statusCode).toBe(200);
    });

    it('forgets ended windows', async () => {
      const { pruneInviteLimits } = await import('./invite-limits.js');
      const owner = await t.signUp('Prune');
      const keys = async () => (await t.db.selectFrom('invite_limits').select('key').execute()).length;
      await t.db.deleteFrom('invite_limits').execute();
      await invite(owner, (await t.createBoard(owner)).id, `prune-${t.dialect}@example.test`);
      const rows = await t.db.selectFrom('invite_limits').select('key').execute();
      // One per inviter and one per address, which is kept only as a hash.
      expect(rows.map((r) => r.key.split(':')[0]).sort()).toEqual(['address', 'inviter']);
      expect(rows.some((r) => r.key.includes('@'))).toBe(false);
      await pruneInviteLimits(t.db, new Date());
      expect(await keys()).toBe(2);
      await pruneInviteLimits(t.db, new Date(Date.now() + 25 * 60 * 60 * 1000));
      expect(await keys()).toBe(0);
    });
  },
  { env: { INVITE_RATE_LIMIT: '3', INVITE_ADDRESS_RATE_LIMIT: '2' } },
);
