import type { LightMyRequestResponse } from 'fastify';
import { beforeAll, expect, it } from 'vitest';
import { bootstrapAdmin } from '../../auth/bootstrap-admin.js';
import { BASE_URL, eachDialect, sessionCookie, type TestContext, type TestUser } from '../../../../test/harness.js';
import { loseAnswer } from '../../../../test/lost-answer.js';

/** The mails queued for an address, as the job runner would send them. */
async function mailsTo(t: TestContext, address: string): Promise<Array<{ subject: string; text: string }>> {
  const jobs = await t.db.selectFrom('jobs').select(['payload']).where('kind', '=', 'mail').orderBy('id').execute();
  return jobs
    .map((job) => JSON.parse(job.payload) as { to: string; subject: string; text: string })
    .filter((mail) => mail.to === address);
}

const inviteLink = (text: string) => /\/invite\/([0-9a-f]{64})/.exec(text)?.[1];
const verifyLink = (text: string) => /\/api\/auth\/verify-email\?\S+/.exec(text)?.[0];

/** The parts of an answer a caller could compare. */
const outward = (res: LightMyRequestResponse) => ({
  status: res.statusCode,
  body: res.body,
  type: res.headers['content-type'],
  length: res.headers['content-length'],
});

eachDialect('invitations by address and verified addresses', (t) => {
  // The instance's first account counts as confirmed (no mail): the accounts below sign up after it.
  beforeAll(() => t.signUp('Administrator'));

  const invite = (user: TestUser, payload: object) => t.inject(user, { method: 'POST', url: '/api/data/invite', payload });
  const readBoard = (user: TestUser, id: number) =>
    t.inject(user, { method: 'GET', url: `/api/data/board?id=${id}&userId=${user.id}` });
  const membership = (boardId: number, userId: string) =>
    t.db.selectFrom('board_members').select('permission').where('boardId', '=', boardId).where('userId', '=', userId).execute();
  const isVerified = async (user: TestUser) => {
    const row = await t.db.selectFrom('user').select('emailVerified').where('id', '=', user.id).executeTakeFirstOrThrow();
    return row.emailVerified === true || row.emailVerified === 1;
  };
  const invitationsOf = (user: TestUser) =>
    t.db.selectFrom('notifications').select('id').where('userId', '=', user.id).where('type', '=', 'invitation').execute();
  const accept = (token: string, cookie?: string) =>
    t.app.inject({
      method: 'POST',
      url: `/api/invitations/${token}/accept`,
      headers: { origin: BASE_URL, ...(cookie ? { cookie } : {}) },
      // Signed out, the link would make a new account for the address.
      payload: cookie ? {} : { name: 'Someone', password: 'a long password' },
    });
  /** Follows the verification link the account's latest such mail carries, as a browser would. */
  const verifyByMail = async (user: TestUser) => {
    const mail = (await mailsTo(t, user.email)).filter((m) => verifyLink(m.text)).at(-1);
    expect(mail).toBeDefined();
    return t.app.inject({ method: 'GET', url: verifyLink(mail!.text)! });
  };

  it('a sign-up is sent a verification mail; following its link verifies the address and lands on the app', async () => {
    const user = await t.signUp('Vera', { verified: false });
    expect(await isVerified(user)).toBe(false);
    const [mail] = await mailsTo(t, user.email);
    expect(mail!.subject).toBe('Confirm your e-mail address');
    const res = await verifyByMail(user);
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/');
    expect(await isVerified(user)).toBe(true);
    // The session knows it at once: the web app's banner goes.
    const session = await t.inject({ cookie: user.cookie }, { method: 'GET', url: '/api/auth/get-session' });
    expect(session.json().user.emailVerified).toBe(true);
  });

  it('sends the mail again on request, to the signed-in account only; the first link still works later', async () => {
    const user = await t.signUp('Later', { verified: false });
    const send = (cookie: string, email: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/auth/send-verification-email',
        headers: { origin: BASE_URL, cookie },
        payload: { email, callbackURL: '/' },
      });
    const first = (await mailsTo(t, user.email))[0]!;
    expect((await send(user.cookie, user.email)).statusCode).toBe(200);
    expect((await mailsTo(t, user.email)).filter((m) => verifyLink(m.text))).toHaveLength(2);
    // Not for someone else's address.
    const other = await t.signUp('Other', { verified: false });
    expect((await send(user.cookie, other.email)).statusCode).toBe(400);
    expect((await mailsTo(t, other.email)).filter((m) => verifyLink(m.text))).toHaveLength(1);

    expect((await t.app.inject({ method: 'GET', url: verifyLink(first.text)! })).statusCode).toBe(302);
    expect(await isVerified(user)).toBe(true);
    expect(await isVerified(other)).toBe(false);
    // Nothing more to verify.
    expect((await send(user.cookie, user.email)).statusCode).toBe(400);
  });

  it('an unverified account gets no access by an address invitation, only the link; the answer is the same', async () => {
    const owner = await t.signUp('Owner');
    const board = await t.createBoard(owner, { name: 'Payroll' });
    const squatter = await t.signUp('Squatter', { verified: false });
    const colleague = await t.signUp('Colleague', { verified: false });
    await verifyByMail(colleague);
    const nobody = `nobody-${t.dialect}-${Date.now()}@example.test`;

    const toSquatter = await invite(owner, { boardId: board.id, mail: squatter.email.toUpperCase(), permission: 'edit' });
    const toColleague = await invite(owner, { boardId: board.id, mail: colleague.email, permission: 'edit' });
    const toNobody = await invite(owner, { boardId: board.id, mail: nobody, permission: 'edit' });
    expect(outward(toSquatter)).toEqual(outward(toColleague));
    expect(outward(toSquatter)).toEqual(outward(toNobody));
    expect(toSquatter.json()).toEqual({ success: true });

    // The verified address's account is a member and told so; the unverified one is neither.
    expect(await membership(board.id, colleague.id)).toEqual([{ permission: 'edit' }]);
    expect(await invitationsOf(colleague)).toHaveLength(1);
    expect(await membership(board.id, squatter.id)).toEqual([]);
    expect(await invitationsOf(squatter)).toEqual([]);
    expect((await readBoard(squatter, board.id)).statusCode).toBe(404);
    const boards = await t.inject(squatter, { method: 'POST', url: '/api/data/boards', payload: { shared: true } });
    expect(boards.json().boards).toEqual([]);
    // For the owner it looks like any address without an account: a pending invitation.
    const list = await t.inject(owner, { method: 'GET', url: `/api/data/invite?boardId=${board.id}` });
    expect(list.json().pending.map((p: { mail: string }) => p.mail)).toEqual([squatter.email.toLowerCase(), nobody]);

    // The link goes to the address, the same mail as to an address without an account.
    const mail = (await mailsTo(t, squatter.email.toLowerCase())).find((m) => inviteLink(m.text))!;
    expect(mail.subject).toBe((await mailsTo(t, nobody))[0]!.subject);
    const token = inviteLink(mail.text)!;
    // Not without signing in to that address, nor signed in to another one.
    expect((await accept(token)).statusCode).toBe(409);
    expect((await accept(token, colleague.cookie)).statusCode).toBe(403);
    expect(await membership(board.id, squatter.id)).toEqual([]);
    expect(await membership(board.id, colleague.id)).toEqual([{ permission: 'edit' }]);
    expect(await isVerified(squatter)).toBe(false);
  });

  it('the link, used signed in to the address, joins the board and verifies the address; later invitations apply at once', async () => {
    const owner = await t.signUp('Owner');
    const board = await t.createBoard(owner, { name: 'First' });
    const late = await t.signUp('Late', { verified: false });
    expect((await invite(owner, { boardId: board.id, mail: late.email, permission: 'read' })).statusCode).toBe(200);
    const token = inviteLink((await mailsTo(t, late.email.toLowerCase())).find((m) => inviteLink(m.text))!.text)!;

    // Verifying by the other mail does not turn the pending invitation into access by itself ...
    await verifyByMail(late);
    expect(await isVerified(late)).toBe(true);
    expect(await membership(board.id, late.id)).toEqual([]);
    // ... the link does, still.
    const joined = await accept(token, late.cookie);
    expect(joined.statusCode).toBe(200);
    expect(joined.json()).toEqual({ boardId: board.id });
    expect(await membership(board.id, late.id)).toEqual([{ permission: 'read' }]);

    // Without the verification mail: the link alone proves the address.
    const other = await t.signUp('Other', { verified: false });
    expect((await invite(owner, { boardId: board.id, mail: other.email, permission: 'edit' })).statusCode).toBe(200);
    const otherToken = inviteLink((await mailsTo(t, other.email.toLowerCase())).find((m) => inviteLink(m.text))!.text)!;
    expect((await accept(otherToken, other.cookie)).statusCode).toBe(200);
    expect(await isVerified(other)).toBe(true);
    expect(await membership(board.id, other.id)).toEqual([{ permission: 'edit' }]);

    // From now on an address invitation gives access directly, as for any verified address.
    const second = await t.createBoard(owner, { name: 'Second' });
    const before = (await mailsTo(t, other.email.toLowerCase())).length;
    expect((await invite(owner, { boardId: second.id, mail: other.email, permission: 'read' })).statusCode).toBe(200);
    expect(await membership(second.id, other.id)).toEqual([{ permission: 'read' }]);
    expect(await invitationsOf(other)).toHaveLength(1);
    expect(await mailsTo(t, other.email.toLowerCase())).toHaveLength(before);
  });

  it('a signed-in join with Idempotency-Key is applied once: its repeat, even after a lost answer, gets the first answer', async () => {
    const owner = await t.signUp('Owner');
    const board = await t.createBoard(owner);
    const joiner = await t.signUp('Joiner', { verified: false });
    expect((await invite(owner, { boardId: board.id, mail: joiner.email, permission: 'edit' })).statusCode).toBe(200);
    const token = inviteLink((await mailsTo(t, joiner.email.toLowerCase())).find((m) => inviteLink(m.text))!.text)!;
    const join = () =>
      t.app.inject({
        method: 'POST',
        url: `/api/invitations/${token}/accept`,
        headers: { origin: BASE_URL, cookie: joiner.cookie, 'idempotency-key': 'join-once' },
        payload: {},
      });
    const first = await join();
    expect(first.statusCode, first.body).toBe(200);
    const again = await join();
    // Unkeyed, the used link would be a 404.
    expect(again.statusCode).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    // A process that died after the join's commit: the retry gets the join's stored result, the link is not used again.
    await loseAnswer(t, joiner.id, 'join-once');
    const retry = await join();
    expect(retry.statusCode, retry.body).toBe(200);
    expect(retry.json()).toEqual({ boardId: board.id });
    expect(await membership(board.id, joiner.id)).toEqual([{ permission: 'edit' }]);
  });

  it('an account created by an invitation link counts as verified', async () => {
    const owner = await t.signUp('Owner');
    const board = await t.createBoard(owner);
    const address = `fresh-${t.dialect}-${Date.now()}@example.test`;
    await invite(owner, { boardId: board.id, mail: address, permission: 'read' });
    const token = inviteLink((await mailsTo(t, address))[0]!.text)!;
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/invitations/${token}/accept`,
      headers: { origin: BASE_URL },
      payload: { name: 'Fresh', password: 'a fine password' },
    });
    expect(res.statusCode).toBe(200);
    const session = await t.inject({ cookie: sessionCookie(res) }, { method: 'GET', url: '/api/auth/get-session' });
    expect(session.json().user).toMatchObject({ email: address, emailVerified: true });
    // No verification mail for it: there is nothing left to prove.
    expect((await mailsTo(t, address)).filter((m) => verifyLink(m.text))).toEqual([]);
  });

  it('the ADMIN_* account counts as verified; an account an administrator makes does not, until its owner confirms', async () => {
    const owner = await t.signUp('Owner');
    const board = await t.createBoard(owner);
    const operator = { email: `operator-${t.dialect}@example.test`, password: 'operator-password', name: 'Operator' };
    await bootstrapAdmin({ ...t.app.deps, config: { ...t.config, admin: operator } }, t.app.log);
    const ops = await t.db.selectFrom('user').select('id').where('email', '=', operator.email).executeTakeFirstOrThrow();
    expect((await invite(owner, { boardId: board.id, mail: operator.email, permission: 'read' })).statusCode).toBe(200);
    expect(await membership(board.id, ops.id)).toEqual([{ permission: 'read' }]);

    const admin = await t.signUp('Admin');
    await t.db.updateTable('user').set({ role: 'admin' }).where('id', '=', admin.id).execute();
    const made = `made-${t.dialect}@example.test`;
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/auth/admin/create-user',
      headers: { origin: BASE_URL, cookie: admin.cookie },
      payload: { email: made, password: 'made-password', name: 'Made', role: 'user' },
    });
    expect(created.statusCode).toBe(200);
    const madeId = created.json().user.id as string;
    expect(await invite(owner, { boardId: board.id, mail: made, permission: 'read' })).toMatchObject({ statusCode: 200 });
    expect(await membership(board.id, madeId)).toEqual([]);
    expect((await mailsTo(t, made)).filter((m) => inviteLink(m.text))).toHaveLength(1);
  });
});
