import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { expect, it } from 'vitest';
import { columnTypes } from '../../db/dialect.js';
import { eachDialect, type TestUser } from '../../../../test/harness.js';

const WEEK_MS = 7 * 24 * 60 * 60 * 1000;

eachDialect('sharing', (t) => {
  const snapshot = async () => ({
    boards: await t.db.selectFrom('boards').selectAll().orderBy('id').execute(),
    members: await t.db.selectFrom('board_members').selectAll().orderBy('id').execute(),
    invites: await t.db.selectFrom('board_invites').selectAll().orderBy('id').execute(),
    events: await t.db.selectFrom('board_events').selectAll().orderBy('id').execute(),
    areas: await t.db.selectFrom('areas').selectAll().orderBy('id').execute(),
    cards: await t.db.selectFrom('cards').selectAll().orderBy('id').execute(),
    labels: await t.db.selectFrom('labels').selectAll().orderBy('id').execute(),
    cardLabels: await t.db.selectFrom('card_labels').selectAll().orderBy('cardId').orderBy('labelId').execute(),
    assignees: await t.db.selectFrom('card_assignees').selectAll().orderBy('id').execute(),
    reminders: await t.db.selectFrom('card_reminders').selectAll().orderBy('id').execute(),
  });

  const invite = (user: TestUser, payload: object) => t.inject(user, { method: 'POST', url: '/api/data/invite', payload });
  const list = (user: TestUser, boardId: number) => t.inject(user, { method: 'GET', url: `/api/data/invite?boardId=${boardId}` });
  const uninvite = (user: TestUser, query: string) => t.inject(user, { method: 'DELETE', url: `/api/data/invite?${query}` });
  const leave = (user: TestUser, boardId: number) =>
    t.inject(user, { method: 'POST', url: '/api/data/leaveBoard', payload: { boardId } });
  const readBoard = (user: TestUser, id: number) =>
    t.inject(user, { method: 'GET', url: `/api/data/board?id=${id}&userId=${user.id}` });
  const events = (boardId: number) =>
    t.db.selectFrom('board_events').select(['name', 'data']).where('boardId', '=', boardId).orderBy('version').execute();
  const membersOf = (boardId: number) =>
    t.db.selectFrom('board_members').select(['userId', 'permission']).where('boardId', '=', boardId).orderBy('id').execute();
  const invitesOf = (boardId: number) =>
    t.db.selectFrom('board_invites').selectAll().where('boardId', '=', boardId).orderBy('id').execute();

  /** Invitations by address reach only accounts whose address is verified (see verified-invitations.test.ts). */
  const verified = async (user: TestUser) => {
    await t.db
      .updateTable('user')
      .set({ emailVerified: columnTypes(t.dialect).true })
      .where('id', '=', user.id)
      .execute();
    return user;
  };

  /** A board with an area and a card; the helpers below act through the API. */
  const setUp = async (owner: TestUser, fields: Record<string, unknown> = {}) => {
    const board = await t.createBoard(owner, fields);
    const area = await ok(
      t.inject(owner, { method: 'POST', url: '/api/data/area', payload: { boardId: board.id, name: 'Todo' } }),
    );
    const card = await ok(
      t.inject(owner, { method: 'POST', url: '/api/data/card', payload: { areaId: area.area.id, name: 'First' } }),
    );
    return { boardId: board.id, areaId: area.area.id as number, cardId: card.card.id as number };
  };

  it('invites an account by id; the owner lists members in the order they were added', async () => {
    const owner = await t.signUp('Owner');
    const ann = await t.signUp('Ann');
    const bob = await t.signUp('Bob');
    const board = await t.createBoard(owner);

    const first = await invite(owner, { boardId: board.id, userId: bob.id, permission: 'edit' });
    expect(first.statusCode).toBe(200);
    expect(first.body).toBe('{"success":true}');
    expect((await invite(owner, { boardId: board.id, userId: ann.id, permission: 'read' })).statusCode).toBe(200);

    const res = await list(owner, board.id);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      members: [
        { id: bob.id, name: 'Bob', image: null, permission: 'edit' },
        { id: ann.id, name: 'Ann', image: null, permission: 'read' },
      ],
      pending: [],
    });
    expect(await events(board.id)).toEqual([
      { name: 'board.created', data: expect.any(String) },
      { name: 'member.added', data: JSON.stringify({ member: { id: bob.id, name: 'Bob', image: null, permission: 'edit' } }) },
      { name: 'member.added', data: JSON.stringify({ member: { id: ann.id, name: 'Ann', image: null, permission: 'read' } }) },
    ]);
    // The new members see the board now, with the write access their permission gives.
    expect((await readBoard(bob, board.id)).json()).toMatchObject({ writeAccess: true });
    expect((await readBoard(ann, board.id)).json()).toMatchObject({ writeAccess: false });
    const shared = await t.inject(ann, { method: 'POST', url: '/api/data/boards', payload: { shared: true } });
    expect(shared.json().boards.map((b: { id: number }) => b.id)).toEqual([board.id]);
  });

  it('changes the permission of a member invited again, keeping their place; the same permission records nothing', async () => {
    const owner = await t.signUp();
    const ann = await verified(await t.signUp('Ann'));
    const bob = await t.signUp('Bob');
    const board = await t.createBoard(owner);
    await invite(owner, { boardId: board.id, userId: ann.id, permission: 'read' });
    await invite(owner, { boardId: board.id, userId: bob.id, permission: 'read' });

    const again = await invite(owner, { boardId: board.id, userId: ann.id, permission: 'edit' });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ success: true });
    expect(await membersOf(board.id)).toEqual([
      { userId: ann.id, permission: 'edit' },
      { userId: bob.id, permission: 'read' },
    ]);
    expect((await events(board.id)).at(-1)).toEqual({
      name: 'member.updated',
      data: JSON.stringify({ member: { id: ann.id, name: 'Ann', image: null, permission: 'edit' } }),
    });
    expect((await readBoard(ann, board.id)).json()).toMatchObject({ writeAccess: true });

    const before = await snapshot();
    expect((await invite(owner, { boardId: board.id, mail: ann.email, permission: 'edit' })).statusCode).toBe(200);
    expect(await snapshot()).toEqual(before);
  });

  it('invites an address: an account becomes a member, an unknown address a pending invitation; both answer alike', async () => {
    const owner = await t.signUp();
    const carol = await verified(await t.signUp('Carol'));
    const board = await t.createBoard(owner);
    const stranger = `  New.Person+${Date.now()}@Example.TEST `;
    const address = stranger.trim().toLowerCase();

    const known = await invite(owner, { boardId: board.id, mail: `  ${carol.email.toUpperCase()} `, permission: 'edit' });
    const before = Date.now();
    const unknown = await invite(owner, { boardId: board.id, mail: stranger, permission: 'read' });
    const after = Date.now();
    expect(unknown.statusCode).toBe(known.statusCode);
    expect(unknown.statusCode).toBe(200);
    expect(unknown.body).toBe(known.body);
    expect(unknown.body).toBe('{"success":true}');
    expect(unknown.headers['content-type']).toBe(known.headers['content-type']);
    expect(unknown.headers['content-length']).toBe(known.headers['content-length']);

    expect(await membersOf(board.id)).toEqual([{ userId: carol.id, permission: 'edit' }]);
    const rows = await invitesOf(board.id);
    expect(rows).toHaveLength(1);
    const row = rows[0]!;
    expect(row).toMatchObject({ email: address, permission: 'read', invitedBy: owner.id, usedAt: null });
    expect(row.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    const expires = new Date(row.expiresAt).getTime();
    expect(expires).toBeGreaterThanOrEqual(before + WEEK_MS - 1000);
    expect(expires).toBeLessThanOrEqual(after + WEEK_MS + 1000);

    const res = await list(owner, board.id);
    expect(res.json()).toEqual({
      members: [{ id: carol.id, name: 'Carol', image: null, permission: 'edit' }],
      pending: [{ mail: address, permission: 'read', createdAt: new Date(row.createdAt).toISOString() }],
    });
    // No address ever reaches the board's viewers.
    const logged = await events(board.id);
    expect(logged.map((e) => e.name)).toEqual(['board.created', 'member.added']);
    for (const e of logged) expect(e.data).not.toContain('@');
    expect(res.body).not.toContain(carol.email);
    expect(res.body).not.toContain(row.tokenHash);
  });

  it('renews a pending invitation invited again: new permission, new token, new expiry, still one row', async () => {
    const owner = await t.signUp();
    const board = await t.createBoard(owner);
    const mail = `renew-${Date.now()}@example.test`;
    await invite(owner, { boardId: board.id, mail, permission: 'read' });
    const [first] = await invitesOf(board.id);
    // Make the first one look older so the renewal is measurable.
    await t.db
      .updateTable('board_invites')
      .set({ expiresAt: new Date(Date.now() + 60_000).toISOString() })
      .where('id', '=', first!.id)
      .execute();

    const res = await invite(owner, { boardId: board.id, mail: mail.toUpperCase(), permission: 'edit' });
    expect(res.json()).toEqual({ success: true });
    const rows = await invitesOf(board.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id: first!.id, email: mail, permission: 'edit' });
    expect(rows[0]!.tokenHash).not.toBe(first!.tokenHash);
    expect(new Date(rows[0]!.expiresAt).getTime()).toBeGreaterThan(Date.now() + WEEK_MS - 60_000);
    expect(new Date(rows[0]!.createdAt).toISOString()).toBe(new Date(first!.createdAt).toISOString());
    expect((await list(owner, board.id)).json().pending).toEqual([
      { mail, permission: 'edit', createdAt: new Date(first!.createdAt).toISOString() },
    ]);
  });

  it('does not list or cancel an expired invitation, and inviting again revives it', async () => {
    const owner = await t.signUp();
    const board = await t.createBoard(owner);
    const mail = `expired-${Date.now()}@example.test`;
    await invite(owner, { boardId: board.id, mail, permission: 'read' });
    await t.db
      .updateTable('board_invites')
      .set({ expiresAt: new Date(Date.now() - 1000).toISOString() })
      .where('boardId', '=', board.id)
      .execute();
    expect((await list(owner, board.id)).json().pending).toEqual([]);
    expect((await uninvite(owner, `boardId=${board.id}&mail=${encodeURIComponent(mail)}`)).statusCode).toBe(404);

    await invite(owner, { boardId: board.id, mail, permission: 'edit' });
    expect((await list(owner, board.id)).json().pending).toEqual([{ mail, permission: 'edit', createdAt: expect.any(String) }]);
  });

  it('drops the pending invitation of an address once its account is made a member', async () => {
    const owner = await t.signUp();
    const board = await t.createBoard(owner);
    const dave = await t.signUp('Dave');
    // An invitation left from before Dave had an account.
    await t.db
      .insertInto('board_invites')
      .values({
        boardId: board.id,
        email: dave.email,
        permission: 'read',
        tokenHash: 'f'.repeat(64),
        invitedBy: owner.id,
        expiresAt: new Date(Date.now() + WEEK_MS).toISOString(),
        usedAt: null,
        createdAt: new Date().toISOString(),
      })
      .execute();
    expect((await invite(owner, { boardId: board.id, userId: dave.id, permission: 'edit' })).statusCode).toBe(200);
    expect(await invitesOf(board.id)).toEqual([]);
    expect((await list(owner, board.id)).json()).toEqual({
      members: [{ id: dave.id, name: 'Dave', image: null, permission: 'edit' }],
      pending: [],
    });
  });

  it('refuses everyone but the owner (edit and read members 403, others 404) and changes nothing', async () => {
    const owner = await t.signUp();
    const editor = await t.signUp();
    const reader = await t.signUp();
    const stranger = await t.signUp();
    const target = await t.signUp();
    const board = await t.createBoard(owner);
    const publicBoard = await t.createBoard(owner, { status: 'public' });
    await invite(owner, { boardId: board.id, userId: editor.id, permission: 'edit' });
    await invite(owner, { boardId: board.id, userId: reader.id, permission: 'read' });
    await invite(owner, { boardId: board.id, mail: `pending-${Date.now()}@example.test`, permission: 'read' });
    const pendingMail = (await invitesOf(board.id))[0]!.email;

    const attempts = (user: TestUser, boardId: number) => [
      list(user, boardId),
      invite(user, { boardId, userId: target.id, permission: 'edit' }),
      invite(user, { boardId, mail: `x-${Date.now()}@example.test`, permission: 'edit' }),
      invite(user, { boardId, userId: user.id, permission: 'edit' }),
      uninvite(user, `boardId=${boardId}&userId=${reader.id}`),
      uninvite(user, `boardId=${boardId}&mail=${encodeURIComponent(pendingMail)}`),
    ];
    const before = await snapshot();
    const statuses = async (user: TestUser, boardId: number) =>
      (await Promise.all(attempts(user, boardId))).map((r) => r.statusCode);
    expect(await statuses(editor, board.id)).toEqual([403, 403, 403, 403, 403, 403]);
    expect(await statuses(reader, board.id)).toEqual([403, 403, 403, 403, 403, 403]);
    expect(await statuses(stranger, board.id)).toEqual([404, 404, 404, 404, 404, 404]);
    expect(await statuses(stranger, publicBoard.id)).toEqual([403, 403, 403, 403, 403, 403]);
    expect(await statuses(owner, 999999)).toEqual([404, 404, 404, 404, 404, 404]);
    const bodies = await Promise.all(attempts(stranger, board.id));
    for (const res of bodies) expect(res.json()).toEqual({ error: expect.any(String) });
    // Without credentials the guard answers first.
    const anonymous = await t.inject(null, { method: 'GET', url: `/api/data/invite?boardId=${board.id}` });
    expect(anonymous.statusCode).toBe(403);
    const anonymousPost = await t.inject(null, {
      method: 'POST',
      url: '/api/data/invite',
      payload: { boardId: board.id, userId: target.id, permission: 'edit' },
    });
    expect(anonymousPost.statusCode).toBe(403);
    expect(await snapshot()).toEqual(before);
  });

  it.each([
    ['a bad permission', (u: TestUser) => ({ userId: u.id, permission: 'admin' }), 'permission'],
    ['no permission', (u: TestUser) => ({ userId: u.id }), 'permission'],
    ['a permission of the wrong type', (u: TestUser) => ({ userId: u.id, permission: 1 }), 'permission'],
    ['neither userId nor mail', () => ({ permission: 'read' }), 'userId'],
    ['both userId and mail', (u: TestUser) => ({ userId: u.id, mail: u.email, permission: 'read' }), 'mail'],
    ['an empty userId', () => ({ userId: '', permission: 'read' }), 'userId'],
    ['a userId of no account', () => ({ userId: 'no-such-account', permission: 'read' }), 'userId'],
    ['a mail that is no address', () => ({ mail: 'not an address', permission: 'read' }), 'mail'],
    ['an empty mail', () => ({ mail: '   ', permission: 'read' }), 'mail'],
    ['a number for a mail', () => ({ mail: 5, permission: 'read' }), 'mail'],
  ])('refuses %s with 400 naming the field, changing nothing', async (_label, body, field) => {
    const owner = await t.signUp();
    const other = await t.signUp();
    const board = await t.createBoard(owner);
    const before = await snapshot();
    const res = await invite(owner, { boardId: board.id, ...body(other) });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toContain(field);
    expect(await snapshot()).toEqual(before);
  });

  it('refuses to invite oneself (400), by id or by address in any case, and a bad boardId (400)', async () => {
    const owner = await t.signUp();
    const board = await t.createBoard(owner);
    const before = await snapshot();
    for (const body of [
      { userId: owner.id, permission: 'edit' },
      { mail: ` ${owner.email.toUpperCase()} `, permission: 'read' },
    ]) {
      const res = await invite(owner, { boardId: board.id, ...body });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toMatch(/yourself/);
    }
    for (const boardId of ['1', 0, -3, null]) {
      const res = await invite(owner, { boardId, userId: 'x', permission: 'read' });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toContain('boardId');
    }
    expect((await t.inject(owner, { method: 'GET', url: '/api/data/invite' })).json().error).toContain('boardId');
    expect((await t.inject(owner, { method: 'GET', url: '/api/data/invite?boardId=abc' })).statusCode).toBe(400);
    expect((await uninvite(owner, `boardId=${board.id}`)).statusCode).toBe(400);
    expect((await uninvite(owner, `boardId=${board.id}&userId=a&mail=b%40c.de`)).statusCode).toBe(400);
    expect((await t.inject(owner, { method: 'POST', url: '/api/data/leaveBoard', payload: {} })).json().error).toContain(
      'boardId',
    );
    expect(await snapshot()).toEqual(before);
  });

  it('removes a member at once: no more reads or writes, and off every card of that board only', async () => {
    const owner = await t.signUp();
    const member = await t.signUp('Member');
    const other = await t.signUp('Other');
    const { boardId, areaId, cardId } = await setUp(owner);
    const elsewhere = await setUp(owner);
    for (const id of [boardId, elsewhere.boardId]) {
      await invite(owner, { boardId: id, userId: member.id, permission: 'edit' });
      await invite(owner, { boardId: id, userId: other.id, permission: 'edit' });
    }
    const second = await ok(t.inject(owner, { method: 'POST', url: '/api/data/card', payload: { areaId, name: 'Second' } }));
    const assign = (id: number, people: string[]) =>
      ok(t.inject(owner, { method: 'PUT', url: '/api/data/card', payload: { cardID: id, assignees: people } }));
    await assign(cardId, [member.id, other.id]);
    await assign(second.card.id, [member.id]);
    await assign(elsewhere.cardId, [member.id]);
    expect((await readBoard(member, boardId)).statusCode).toBe(200);

    const res = await uninvite(owner, `boardId=${boardId}&userId=${member.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('{"success":true}');

    expect(await membersOf(boardId)).toEqual([{ userId: other.id, permission: 'edit' }]);
    expect((await readBoard(member, boardId)).statusCode).toBe(404);
    const refused = await t.inject(member, { method: 'PUT', url: '/api/data/card', payload: { cardID: cardId, name: 'Mine' } });
    expect(refused.statusCode).toBe(404);
    const card = await ok(t.inject(owner, { method: 'GET', url: `/api/data/card?cardID=${cardId}` }));
    expect(card.card.assignees.map((p: { id: string }) => p.id)).toEqual([other.id]);
    expect(card.card.name).toBe('First');
    const assigned = (id: number) =>
      t.db.selectFrom('card_assignees').select('userId').where('cardId', '=', id).orderBy('id').execute();
    expect(await assigned(second.card.id)).toEqual([]);
    // Their place on another board stays.
    expect(await assigned(elsewhere.cardId)).toEqual([{ userId: member.id }]);
    expect((await readBoard(member, elsewhere.boardId)).statusCode).toBe(200);

    const logged = (await events(boardId)).slice(-3);
    expect(logged.map((e) => e.name)).toEqual(['member.removed', 'card.updated', 'card.updated']);
    expect(JSON.parse(logged[0]!.data)).toEqual({ userId: member.id });
    expect(JSON.parse(logged[1]!.data).card).toMatchObject({ id: cardId, assignees: [{ id: other.id }] });
    expect(JSON.parse(logged[2]!.data).card).toMatchObject({ id: second.card.id, assignees: [] });
    expect((await list(owner, boardId)).json().members.map((m: { id: string }) => m.id)).toEqual([other.id]);
  });

  it('answers {success:true} for removing an id that is no member or no account, the owner included, changing nothing', async () => {
    const owner = await t.signUp();
    const stranger = await t.signUp();
    const board = await t.createBoard(owner);
    const before = await snapshot();
    for (const id of [stranger.id, owner.id, 'no-such-account']) {
      const res = await uninvite(owner, `boardId=${board.id}&userId=${id}`);
      expect(res.statusCode).toBe(200);
      expect(res.body).toBe('{"success":true}');
    }
    const pending = await uninvite(owner, `boardId=${board.id}&mail=nobody%40example.test`);
    expect(pending.statusCode).toBe(404);
    expect(pending.json()).toEqual({ error: expect.any(String) });
    expect(await snapshot()).toEqual(before);
  });

  it('still refuses removing any id on a board the caller may not share (403/404/409), changing nothing', async () => {
    const owner = await t.signUp();
    const editor = await t.signUp();
    const stranger = await t.signUp();
    const board = await t.createBoard(owner);
    const archived = await t.createBoard(owner);
    await invite(owner, { boardId: board.id, userId: editor.id, permission: 'edit' });
    await t.inject(owner, { method: 'DELETE', url: `/api/data/board?id=${archived.id}&userId=${owner.id}` });
    const before = await snapshot();
    for (const id of [editor.id, 'no-such-account']) {
      expect((await uninvite(editor, `boardId=${board.id}&userId=${id}`)).statusCode).toBe(403);
      expect((await uninvite(stranger, `boardId=${board.id}&userId=${id}`)).statusCode).toBe(404);
      expect((await uninvite(owner, `boardId=999999&userId=${id}`)).statusCode).toBe(404);
      expect((await uninvite(owner, `boardId=${archived.id}&userId=${id}`)).statusCode).toBe(409);
    }
    expect(await snapshot()).toEqual(before);
  });

  it('cancels a pending invitation by address, recording no event', async () => {
    const owner = await t.signUp();
    const board = await t.createBoard(owner);
    const keep = `keep-${Date.now()}@example.test`;
    const drop = `drop-${Date.now()}@example.test`;
    await invite(owner, { boardId: board.id, mail: keep, permission: 'read' });
    await invite(owner, { boardId: board.id, mail: drop, permission: 'edit' });
    const eventsBefore = await events(board.id);

    const res = await uninvite(owner, `boardId=${board.id}&mail=${encodeURIComponent(` ${drop.toUpperCase()} `)}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true });
    expect((await invitesOf(board.id)).map((r) => r.email)).toEqual([keep]);
    expect(await events(board.id)).toEqual(eventsBefore);
    expect((await uninvite(owner, `boardId=${board.id}&mail=${encodeURIComponent(drop)}`)).statusCode).toBe(404);
  });

  it('lets a member leave: access and card places go; the owner cannot leave, a non-member gets 404', async () => {
    const owner = await t.signUp();
    const member = await t.signUp('Leaver');
    const stranger = await t.signUp();
    const { boardId, cardId } = await setUp(owner);
    const publicBoard = await t.createBoard(owner, { status: 'public' });
    await invite(owner, { boardId, userId: member.id, permission: 'read' });
    await ok(t.inject(owner, { method: 'PUT', url: '/api/data/card', payload: { cardID: cardId, assignees: [member.id] } }));

    const before = await snapshot();
    const owners = await leave(owner, boardId);
    expect(owners.statusCode).toBe(400);
    expect(owners.json().error).toBe('OWNER_CANNOT_LEAVE');
    expect((await leave(stranger, boardId)).statusCode).toBe(404);
    expect((await leave(stranger, publicBoard.id)).statusCode).toBe(404);
    expect((await leave(member, 999999)).statusCode).toBe(404);
    expect((await leave(member, publicBoard.id)).statusCode).toBe(404);
    expect(await snapshot()).toEqual(before);

    const res = await leave(member, boardId);
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('{"success":true}');
    expect(await membersOf(boardId)).toEqual([]);
    expect(await t.db.selectFrom('card_assignees').selectAll().where('cardId', '=', cardId).execute()).toEqual([]);
    expect((await readBoard(member, boardId)).statusCode).toBe(404);
    const logged = (await events(boardId)).slice(-2);
    expect(logged.map((e) => e.name)).toEqual(['member.removed', 'card.updated']);
    expect(JSON.parse(logged[0]!.data)).toEqual({ userId: member.id });
    expect((await leave(member, boardId)).statusCode).toBe(404);
  });

  it('lists the sharing of an archived board but refuses changes to it (409), changing nothing', async () => {
    const owner = await t.signUp();
    const member = await t.signUp();
    const board = await t.createBoard(owner);
    await invite(owner, { boardId: board.id, userId: member.id, permission: 'read' });
    await t.inject(owner, { method: 'DELETE', url: `/api/data/board?id=${board.id}&userId=${owner.id}` });
    expect((await list(owner, board.id)).statusCode).toBe(200);
    const before = await snapshot();
    expect((await invite(owner, { boardId: board.id, userId: member.id, permission: 'edit' })).statusCode).toBe(409);
    expect((await invite(owner, { boardId: board.id, mail: 'a@example.test', permission: 'edit' })).statusCode).toBe(409);
    expect((await uninvite(owner, `boardId=${board.id}&userId=${member.id}`)).statusCode).toBe(409);
    expect((await leave(member, board.id)).statusCode).toBe(409);
    expect(await snapshot()).toEqual(before);
  });

  it('answers 405 for other methods on the sharing paths', async () => {
    const owner = await t.signUp();
    expect((await t.inject(owner, { method: 'PUT', url: '/api/data/invite' })).statusCode).toBe(405);
    expect((await t.inject(owner, { method: 'GET', url: '/api/data/leaveBoard' })).statusCode).toBe(405);
  });

  /** A board with two areas, two cards and a label, shared with a read and an edit member. */
  const sharedBoard = async () => {
    const owner = await t.signUp('Owner');
    const reader = await t.signUp('Reader');
    const editor = await t.signUp('Editor');
    const { boardId, areaId, cardId } = await setUp(owner);
    const area2 = await ok(t.inject(owner, { method: 'POST', url: '/api/data/area', payload: { boardId, name: 'Done' } }));
    const card2 = await ok(t.inject(owner, { method: 'POST', url: '/api/data/card', payload: { areaId, name: 'Second' } }));
    const label = await ok(t.inject(owner, { method: 'POST', url: '/api/data/labels', payload: { boardId, name: 'urgent' } }));
    await invite(owner, { boardId, userId: reader.id, permission: 'read' });
    await invite(owner, { boardId, userId: editor.id, permission: 'edit' });
    return {
      owner,
      reader,
      editor,
      boardId,
      areaId,
      area2Id: area2.area.id as number,
      cardId,
      card2Id: card2.card.id as number,
      labelId: label.label.id as number,
    };
  };

  type Shared = Awaited<ReturnType<typeof sharedBoard>>;

  /** Every write the board's content takes (edit level), in an order that succeeds for an editor. */
  const contentWrites = (s: Shared): Array<[string, InjectOptions]> => [
    ['rename area', { method: 'POST', url: '/api/data/area', payload: { id: s.areaId, boardId: s.boardId, name: 'Renamed' } }],
    [
      'order areas',
      {
        method: 'PATCH',
        url: '/api/data/board',
        payload: {
          boardId: s.boardId,
          areas: [
            { id: s.area2Id, sort: 0 },
            { id: s.areaId, sort: 1 },
          ],
        },
      },
    ],
    ['create area', { method: 'POST', url: '/api/data/area', payload: { boardId: s.boardId, name: 'New' } }],
    ['create card', { method: 'POST', url: '/api/data/card', payload: { areaId: s.areaId, name: 'Third' } }],
    [
      'change card',
      { method: 'PUT', url: '/api/data/card', payload: { cardID: s.cardId, name: 'Changed', labelIds: [s.labelId] } },
    ],
    ['order card', { method: 'POST', url: '/api/data/cardOrder', payload: { cardId: s.cardId, areaId: s.areaId, newIndex: 1 } }],
    [
      'move card',
      {
        method: 'POST',
        url: '/api/data/cardMove',
        payload: { cardId: s.card2Id, fromAreaId: s.areaId, toAreaId: s.area2Id, newIndex: 0 },
      },
    ],
    ['create label', { method: 'POST', url: '/api/data/labels', payload: { boardId: s.boardId, name: 'later' } }],
    ['archive card', { method: 'DELETE', url: '/api/data/card', payload: { cardID: s.cardId } }],
    ['delete card', { method: 'DELETE', url: '/api/data/card', payload: { cardID: s.card2Id, permanent: true } }],
    ['archive area', { method: 'DELETE', url: '/api/data/area?id=' + s.areaId + '&boardId=' + s.boardId }],
    ['delete area', { method: 'DELETE', url: `/api/data/area?id=${s.area2Id}&boardId=${s.boardId}&permanent=true` }],
  ];

  /** The owner-only writes, as `user`, aimed at the member `target`. */
  const ownerWrites = (s: Shared, user: TestUser, target: TestUser): Array<[string, InjectOptions]> => [
    [
      'board settings',
      {
        method: 'POST',
        url: '/api/data/board',
        payload: { id: s.boardId, userId: user.id, name: 'Taken', style: 'todo', status: 'public' },
      },
    ],
    ['archive board', { method: 'DELETE', url: `/api/data/board?id=${s.boardId}&userId=${user.id}` }],
    ['delete board', { method: 'DELETE', url: `/api/data/board?id=${s.boardId}&userId=${user.id}&permanent=true` }],
    ['list sharing', { method: 'GET', url: `/api/data/invite?boardId=${s.boardId}` }],
    [
      'invite',
      { method: 'POST', url: '/api/data/invite', payload: { boardId: s.boardId, userId: target.id, permission: 'edit' } },
    ],
    [
      'invite by mail',
      { method: 'POST', url: '/api/data/invite', payload: { boardId: s.boardId, mail: 'z@example.test', permission: 'edit' } },
    ],
    ['remove member', { method: 'DELETE', url: `/api/data/invite?boardId=${s.boardId}&userId=${target.id}` }],
  ];

  it('refuses a read member (403) on every write route, changing nothing, while reads answer 200', async () => {
    const s = await sharedBoard();
    const before = await snapshot();
    for (const [label, request] of [...contentWrites(s), ...ownerWrites(s, s.reader, s.editor)]) {
      const res = await t.inject(s.reader, request);
      expect({ label, status: res.statusCode, body: res.json() }).toEqual({
        label,
        status: 403,
        body: { error: expect.any(String) },
      });
    }
    expect(await snapshot()).toEqual(before);

    for (const url of [
      `/api/data/board?id=${s.boardId}&userId=${s.reader.id}`,
      `/api/data/areas?boardId=${s.boardId}`,
      `/api/data/cards?areaId=${s.areaId}`,
      `/api/data/card?cardID=${s.cardId}`,
      `/api/data/labels?boardId=${s.boardId}`,
    ]) {
      const res = await t.inject(s.reader, { method: 'GET', url });
      expect({ url, status: res.statusCode }).toEqual({ url, status: 200 });
    }
    expect((await readBoard(s.reader, s.boardId)).json()).toMatchObject({ writeAccess: false });
    expect(await snapshot()).toEqual(before);
  });

  it('lets an edit member change areas, cards and labels but refuses the owner-only writes (403)', async () => {
    const s = await sharedBoard();
    const before = await snapshot();
    for (const [label, request] of ownerWrites(s, s.editor, s.reader)) {
      const res = await t.inject(s.editor, request);
      expect({ label, status: res.statusCode }).toEqual({ label, status: 403 });
    }
    expect(await snapshot()).toEqual(before);

    for (const [label, request] of contentWrites(s)) {
      const res = await t.inject(s.editor, request);
      expect({ label, status: res.statusCode, body: res.json() }).toMatchObject({ label, status: 200 });
    }
    expect((await readBoard(s.editor, s.boardId)).json()).toMatchObject({ writeAccess: true });
    // The editor may leave like anyone else.
    expect((await leave(s.editor, s.boardId)).statusCode).toBe(200);
  });
});

/** The body of a response that must succeed. */
async function ok(request: Promise<LightMyRequestResponse>) {
  const res = await request;
  if (res.statusCode !== 200) throw new Error(`${res.statusCode} ${res.body}`);
  return res.json();
}

eachDialect('board people', (t) => {
  it('lists everyone on a board, owner first, to anyone who can read it, without addresses', async () => {
    const owner = await t.signUp('Owner');
    const reader = await t.signUp('Reader');
    const stranger = await t.signUp('Stranger');
    const board = await t.createBoard(owner);
    await t.inject(owner, {
      method: 'POST',
      url: '/api/data/invite',
      payload: { boardId: board.id, userId: reader.id, permission: 'read' },
    });
    const res = await t.inject(reader, { method: 'GET', url: `/api/data/members?boardId=${board.id}` });
    expect(res.json()).toEqual({
      members: [
        { id: owner.id, name: 'Owner', image: null, permission: 'owner' },
        { id: reader.id, name: 'Reader', image: null, permission: 'read' },
      ],
    });
    expect(res.body).not.toContain('@');
    expect((await t.inject(stranger, { method: 'GET', url: `/api/data/members?boardId=${board.id}` })).statusCode).toBe(404);
  });
});
