import { afterEach, expect, it } from 'vitest';
import { createCard, seedBoard } from '../../../test/factories.js';
import { BASE_URL, eachDialect, sessionCookie, type TestUser } from '../../../test/harness.js';
import { Viewer } from '../../../test/realtime-client.js';
import { CLOSE_CREDENTIAL_ENDED } from '../../shared/events.js';
import { hashKey } from '../auth/actor.js';

const origin = { origin: BASE_URL };

eachDialect('realtime: a credential that stops working closes its sockets', (t) => {
  const open: Viewer[] = [];
  afterEach(() => {
    for (const v of open.splice(0)) v.close();
  });
  const connect = async (headers: Record<string, string>) => {
    const viewer = await Viewer.connect(await t.listen(), headers);
    open.push(viewer);
    return viewer;
  };
  /** A socket watching the board, so that "still served" can be checked with a new event. */
  const watch = async (headers: Record<string, string>, boardId: number) => {
    const viewer = await connect(headers);
    viewer.send({ type: 'subscribe', boardId });
    await viewer.next('subscribed');
    return viewer;
  };
  const auth = (cookie: string, url: string, payload: object = {}) =>
    t.app.inject({ method: 'POST', url: `/api/auth/${url}`, headers: { cookie, ...origin }, payload });
  const signIn = async (user: TestUser) =>
    sessionCookie(await auth('', 'sign-in/email', { email: user.email, password: user.password }));
  const stillServed = async (viewers: Viewer[], user: TestUser, areaId: number) => {
    await createCard(t, user, areaId, 'after');
    for (const v of viewers) expect((await v.next('event')).name).toBe('card.created');
  };
  const admin = async () => {
    const boss = await t.signUp('Boss');
    await t.db.updateTable('user').set({ role: 'admin' }).where('id', '=', boss.id).execute();
    return boss;
  };
  const cookieWorks = async (cookie: string) =>
    (await t.app.inject({ method: 'GET', url: '/api/auth/get-session', headers: { cookie } })).json() !== null;

  it('closes the sockets of a deleted API key, and only those', async () => {
    const user = await t.signUp();
    const { board, areas } = await seedBoard(t, user, { A: [] });
    const other = await t.createKey(user);
    const byKey = await watch({ 'x-api-key': user.key }, board.id);
    const byOtherKey = await watch({ 'x-api-key': other }, board.id);
    const byCookie = await watch({ cookie: user.cookie }, board.id);
    const { id: keyId } = await t.db
      .selectFrom('apikey')
      .select('id')
      .where('keyHash', '=', hashKey(user.key))
      .executeTakeFirstOrThrow();

    expect((await auth(user.cookie, 'api-key/delete', { keyId })).statusCode).toBe(200);
    expect(await byKey.waitClosed()).toEqual({ code: CLOSE_CREDENTIAL_ENDED, reason: 'API key deleted' });
    await stillServed([byOtherKey, byCookie], { ...user, key: other }, areas.A!.id);
    expect(byKey.messages.filter((m) => m.type === 'event')).toEqual([]);
  });

  it('closes the socket of a session that signs out, and not the account’s other sessions', async () => {
    const user = await t.signUp();
    const { board, areas } = await seedBoard(t, user, { A: [] });
    const laptop = await signIn(user);
    const leaving = await watch({ cookie: user.cookie }, board.id);
    const staying = await watch({ cookie: laptop }, board.id);

    expect((await auth(user.cookie, 'sign-out')).statusCode).toBe(200);
    expect(await leaving.waitClosed()).toEqual({ code: CLOSE_CREDENTIAL_ENDED, reason: 'Session ended' });
    await stillServed([staying], user, areas.A!.id);
  });

  it('stops a cookie socket when its session expires, with nobody acting', async () => {
    const user = await t.signUp();
    const soon = new Date(Date.now() + 1000).toISOString();
    await t.db.updateTable('session').set({ expiresAt: soon }).where('userId', '=', user.id).execute();
    const viewer = await connect({ cookie: user.cookie });
    expect(await viewer.waitClosed(5000)).toEqual({ code: CLOSE_CREDENTIAL_ENDED, reason: 'Session expired' });
  });

  it('ends every other session and its socket when the password changes, even if the client asks to keep them', async () => {
    const user = await t.signUp();
    const { board, areas } = await seedBoard(t, user, { A: [] });
    const phone = await signIn(user);
    const onPhone = await watch({ cookie: phone }, board.id);
    const byKey = await watch({ 'x-api-key': user.key }, board.id);

    const changed = await auth(user.cookie, 'change-password', {
      currentPassword: user.password,
      newPassword: 'a brand new password',
      revokeOtherSessions: false,
    });
    expect(changed.statusCode).toBe(200);
    expect(await onPhone.waitClosed()).toMatchObject({ code: CLOSE_CREDENTIAL_ENDED });
    expect(await cookieWorks(phone)).toBe(false);
    // The session that changed it goes on with the new cookie; a deliberately made key stays.
    expect(await cookieWorks(sessionCookie(changed))).toBe(true);
    await stillServed([byKey], user, areas.A!.id);
  });

  it('keeps the sockets of the session that changes the password, bound from then on to its new cookie', async () => {
    const user = await t.signUp();
    const { board, areas } = await seedBoard(t, user, { A: [] });
    const phone = await signIn(user);
    const here = await watch({ cookie: user.cookie }, board.id);
    const onPhone = await watch({ cookie: phone }, board.id);

    const wrong = await auth(user.cookie, 'change-password', { currentPassword: 'not the password', newPassword: 'never set' });
    expect(wrong.statusCode).toBe(400);
    expect(await cookieWorks(user.cookie)).toBe(true);
    await stillServed([here, onPhone], user, areas.A!.id);

    const changed = await auth(user.cookie, 'change-password', {
      currentPassword: user.password,
      newPassword: 'a brand new password',
    });
    expect(changed.statusCode).toBe(200);
    const newCookie = sessionCookie(changed);
    expect(await onPhone.waitClosed()).toMatchObject({ code: CLOSE_CREDENTIAL_ENDED });
    expect(await cookieWorks(user.cookie)).toBe(false);
    expect(await cookieWorks(newCookie)).toBe(true);
    await stillServed([here], user, areas.A!.id);
    expect(here.closed).toBeNull();

    // Signing out with the new cookie ends the socket opened with the old one: it follows the session.
    expect((await auth(newCookie, 'sign-out')).statusCode).toBe(200);
    expect(await here.waitClosed()).toEqual({ code: CLOSE_CREDENTIAL_ENDED, reason: 'Session ended' });
  });

  it('ends every session and its socket when the password is reset', async () => {
    const user = await t.signUp();
    const viewer = await connect({ cookie: user.cookie });
    expect((await auth('', 'request-password-reset', { email: user.email, redirectTo: '/reset-password' })).statusCode).toBe(200);
    const { identifier } = await t.db
      .selectFrom('verification')
      .select('identifier')
      .where('value', '=', user.id)
      .where('identifier', 'like', 'reset-password:%')
      .executeTakeFirstOrThrow();
    const token = identifier.slice('reset-password:'.length);
    expect((await auth('', 'reset-password', { token, newPassword: 'reset to something new' })).statusCode).toBe(200);
    expect(await viewer.waitClosed()).toMatchObject({ code: CLOSE_CREDENTIAL_ENDED });
    expect(await cookieWorks(user.cookie)).toBe(false);
  });

  it('ends every session and its socket when an administrator sets the password', async () => {
    const boss = await admin();
    const user = await t.signUp();
    const viewer = await connect({ cookie: user.cookie });
    const refused = await auth(user.cookie, 'admin/set-user-password', { userId: boss.id, newPassword: 'not yours to set' });
    expect(refused.statusCode).toBe(403);
    expect(await cookieWorks(boss.cookie)).toBe(true);
    const set = await auth(boss.cookie, 'admin/set-user-password', { userId: user.id, newPassword: 'set by the boss' });
    expect(set.statusCode).toBe(200);
    expect(await viewer.waitClosed()).toMatchObject({ code: CLOSE_CREDENTIAL_ENDED });
    expect(await cookieWorks(user.cookie)).toBe(false);
  });

  it('closes every socket of a banned account, keys included, and of a removed one', async () => {
    const boss = await admin();
    for (const action of ['ban-user', 'remove-user']) {
      const user = await t.signUp();
      const byKey = await connect({ 'x-api-key': user.key });
      const byCookie = await connect({ cookie: user.cookie });
      const bystander = await connect({ cookie: boss.cookie });
      expect((await auth(boss.cookie, `admin/${action}`, { userId: user.id })).statusCode).toBe(200);
      for (const v of [byKey, byCookie]) expect((await v.waitClosed()).code).toBe(CLOSE_CREDENTIAL_ENDED);
      expect(bystander.closed).toBeNull();
    }
  });
});
