import { expect, it } from 'vitest';
import { bootstrapAdmin } from '../../auth/bootstrap-admin.js';
import { BASE_URL, eachDialect, sessionCookie } from '../../../../test/harness.js';
import { catchMail } from '../../../../test/smtp.js';

const smtp = await catchMail();

eachDialect(
  'invitations by address (SMTP)',
  (t) => {
    const json = { origin: BASE_URL };
    const owner = async () => {
      await bootstrapAdmin(t.app.deps, t.app.log);
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/auth/sign-in/email',
        headers: json,
        payload: { email: 'owner@example.test', password: 'owner-password' },
      });
      return { cookie: sessionCookie(res), id: res.json().user.id as string };
    };
    const mailTo = (address: string) => smtp.received.filter((m) => m.toLowerCase().includes(`to: ${address}`));
    const tokenIn = (mail: string) => /\/invite\/([0-9a-f]{64})/.exec(mail.replace(/=\r?\n/g, ''))?.[1];

    it('mails a link that creates the account (sign-up closed) and joins the board, once', async () => {
      const me = await owner();
      // One SMTP listener serves both databases' runs: each uses its own address.
      const address = `new.person.${t.dialect}@example.test`;
      const as = { cookie: me.cookie };
      const board = (
        await t.inject(as, {
          method: 'POST',
          url: '/api/data/board',
          headers: json,
          payload: { userId: me.id, name: 'Greenhouse', style: 'kanban', status: 'private' },
        })
      ).json().board;
      const invited = await t.inject(as, {
        method: 'POST',
        url: '/api/data/invite',
        headers: json,
        payload: { boardId: board.id, mail: ` ${address.replace('new.person', 'New.Person')} `, permission: 'edit' },
      });
      expect(invited.json()).toEqual({ success: true });
      // The mail leaves through the job queue, not during the request.
      expect(mailTo(address)).toHaveLength(0);
      await t.app.jobs.runDue();
      const [mail] = mailTo(address);
      expect(mail).toBeDefined();
      expect(mail).toContain('Greenhouse');
      expect(mail).not.toContain('owner@example.test');
      const token = tokenIn(mail!);
      expect(token).toBeDefined();

      const info = await t.app.inject({ method: 'GET', url: `/api/invitations/${token}` });
      expect(info.json()).toEqual({ email: address, boardName: 'Greenhouse', permission: 'edit' });

      const accepted = await t.app.inject({
        method: 'POST',
        url: `/api/invitations/${token}/accept`,
        headers: json,
        payload: { name: 'New Person', password: 'a fine password' },
      });
      expect(accepted.statusCode).toBe(200);
      expect(accepted.json()).toEqual({ boardId: board.id });
      const cookie = sessionCookie(accepted);
      const read = await t.inject(
        { cookie },
        {
          method: 'GET',
          url: `/api/data/board?id=${board.id}&userId=${(await t.db.selectFrom('user').select('id').where('email', '=', address).executeTakeFirstOrThrow()).id}`,
        },
      );
      expect(read.json()).toMatchObject({ board: { id: board.id }, writeAccess: true });

      const users = await t.db.selectFrom('user').select('id').execute();
      const again = await t.app.inject({
        method: 'POST',
        url: `/api/invitations/${token}/accept`,
        headers: json,
        payload: { name: 'Someone Else', password: 'another password' },
      });
      expect(again.statusCode).toBe(404);
      expect(again.json()).toEqual({ error: 'INVALID_INVITATION' });
      expect((await t.app.inject({ method: 'GET', url: `/api/invitations/${token}` })).statusCode).toBe(404);
      expect(await t.db.selectFrom('user').select('id').execute()).toHaveLength(users.length);
      // Sign-up itself stays closed.
      const signUp = await t.app.inject({
        method: 'POST',
        url: '/api/auth/sign-up/email',
        headers: json,
        payload: { name: 'x', email: 'x@example.test', password: 'whatever123' },
      });
      expect(signUp.statusCode).toBeGreaterThanOrEqual(400);
    });

    it('refuses an expired or unknown link with a clear error and makes no account', async () => {
      const me = await owner();
      const as = { cookie: me.cookie };
      const late = `late.${t.dialect}@example.test`;
      const board = (
        await t.inject(as, {
          method: 'POST',
          url: '/api/data/board',
          headers: json,
          payload: { userId: me.id, name: 'Old', style: 'todo', status: 'private' },
        })
      ).json().board;
      await t.inject(as, {
        method: 'POST',
        url: '/api/data/invite',
        headers: json,
        payload: { boardId: board.id, mail: late, permission: 'read' },
      });
      await t.app.jobs.runDue();
      const token = tokenIn(mailTo(late).at(-1)!);
      await t.db
        .updateTable('board_invites')
        .set({ expiresAt: new Date(Date.now() - 1000).toISOString() })
        .where('email', '=', late)
        .execute();
      const users = await t.db.selectFrom('user').select('id').execute();
      expect((await t.app.inject({ method: 'GET', url: `/api/invitations/${token}` })).json()).toEqual({
        error: 'INVALID_INVITATION',
      });
      const accept = await t.app.inject({
        method: 'POST',
        url: `/api/invitations/${token}/accept`,
        headers: json,
        payload: { name: 'Late', password: 'too late anyway' },
      });
      expect(accept.statusCode).toBe(404);
      expect((await t.app.inject({ method: 'GET', url: `/api/invitations/${'0'.repeat(64)}` })).statusCode).toBe(404);
      expect((await t.app.inject({ method: 'GET', url: '/api/invitations/not-a-token' })).statusCode).toBe(400);
      expect(await t.db.selectFrom('user').select('id').execute()).toHaveLength(users.length);
    });
  },
  {
    env: {
      SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
      SIGNUP: 'false',
      ADMIN_EMAIL: 'owner@example.test',
      ADMIN_PASSWORD: 'owner-password',
    },
  },
);
