import { expect, it } from 'vitest';
import { share } from '../../../../test/factories.js';
import { BASE_URL, eachDialect, type TestUser } from '../../../../test/harness.js';

/** The address of a picture uploaded here, as `POST /api/data/image` answers it. */
const COVER = '/api/data/image/0123456789abcdef0123456789abcdef.webp';

eachDialect('boards', (t) => {
  const snapshot = async () => ({
    boards: await t.db.selectFrom('boards').selectAll().orderBy('id').execute(),
    events: await t.db.selectFrom('board_events').selectAll().orderBy('id').execute(),
  });
  const post = (user: TestUser, payload: unknown) =>
    t.inject(user, { method: 'POST', url: '/api/data/board', payload: payload as object });

  it('creates a board owned by the caller, at version 1 with a board.created event', async () => {
    const user = await t.signUp();
    const res = await post(user, { userId: user.id, name: '  Roadmap ', style: 'todo', status: 'public', color: '#ABC' });
    expect(res.statusCode).toBe(200);
    const { board } = res.json();
    expect(board).toEqual({
      id: expect.any(Number),
      user: user.id,
      name: 'Roadmap',
      style: 'todo',
      status: 'public',
      color: '#aabbcc',
      image: null,
      archivedAt: null,
    });
    const row = await t.db.selectFrom('boards').select('version').where('id', '=', board.id).executeTakeFirstOrThrow();
    expect(row.version).toBe(1);
    const events = await t.db.selectFrom('board_events').selectAll().where('boardId', '=', board.id).execute();
    expect(events).toMatchObject([{ version: 1, name: 'board.created', actorId: user.id }]);
  });

  it.each([
    ['#ABC', '#aabbcc'],
    ['a1B2c3', '#a1b2c3'],
    [' #FFFFFF ', '#ffffff'],
    ['', null],
    ['red', null],
    ['#12345', null],
    [42, null],
    [null, null],
  ])('stores colour %j as %j', async (color, expected) => {
    const user = await t.signUp();
    const res = await post(user, { userId: user.id, name: 'C', style: 'kanban', status: 'private', color });
    expect(res.statusCode).toBe(200);
    expect(res.json().board.color).toBe(expected);
  });

  it('keeps an image or a colour, never both', async () => {
    const user = await t.signUp();
    const both = await post(user, {
      userId: user.id,
      name: 'I',
      style: 'kanban',
      status: 'private',
      color: '#123456',
      image: COVER,
    });
    expect(both.json().board).toMatchObject({ image: COVER, color: null });
    const id = both.json().board.id;
    const recolour = await post(user, { id, userId: user.id, name: 'I', style: 'kanban', status: 'private', color: '#654321' });
    expect(recolour.json().board).toMatchObject({ image: null, color: '#654321' });
    const rename = await post(user, { id, userId: user.id, name: 'Renamed', style: 'kanban', status: 'private' });
    expect(rename.json().board).toMatchObject({ name: 'Renamed', image: null, color: '#654321' });
    const bad = await post(user, {
      id,
      userId: user.id,
      name: 'I',
      style: 'kanban',
      status: 'private',
      image: 'javascript:alert(1)',
    });
    expect(bad.statusCode).toBe(400);
  });

  it.each([
    '/api/data/export?boardId=1',
    '/api/auth/sign-out',
    '/api/data/attachment?id=1',
    '/%61pi/data/export',
    '/api%2Fdata/export',
    `${COVER}/../../export`,
    '/board/1',
    '../api/data/export',
    '//localhost:3000/api/data/export',
    '/\\localhost/api/data/export',
    'http:/api/data/export',
    `${BASE_URL}/api/data/export`,
    'HTTP://LOCALHOST/api/data/export',
    'https://example.org/a"),url("/api/data/export',
    ' https://example.org/x.png',
    'https://example.org/x.png\n',
    'java\tscript:alert(1)',
    'data:image/png;base64,AAAA',
  ])('refuses the cover image %j with 400 naming the field, on create and update, changing nothing', async (image) => {
    const user = await t.signUp();
    const board = await t.createBoard(user, { image: COVER });
    const before = await snapshot();
    const fields = { userId: user.id, name: 'X', style: 'kanban', status: 'private', image };
    for (const payload of [fields, { ...fields, id: board.id }]) {
      const res = await post(user, payload);
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toContain('image');
    }
    expect(await snapshot()).toEqual(before);
  });

  it.each([COVER, `${BASE_URL}${COVER}`, 'https://example.org/cover.png', 'http://example.org/api/data/export'])(
    'takes the cover image %j',
    async (image) => {
      const user = await t.signUp();
      const res = await post(user, { userId: user.id, name: 'X', style: 'kanban', status: 'private', image });
      expect(res.statusCode).toBe(200);
      expect(res.json().board.image).toBe(image);
    },
  );

  it('names the missing fields (400) and creates nothing', async () => {
    const user = await t.signUp();
    const before = await snapshot();
    const res = await post(user, { userId: user.id, style: 'kanban' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatch(/user id|userId/i);
    expect(res.json().error).toContain('name');
    expect(res.json().error).toContain('status');
    const none = await t.inject(user, { method: 'POST', url: '/api/data/board' });
    expect(none.statusCode).toBe(400);
    expect(await snapshot()).toEqual(before);
  });

  it.each([
    ['a bad style', { style: 'mindmap' }, 'style'],
    ['a bad status', { status: 'secret' }, 'status'],
    ['a number for a name', { name: 12 }, 'name'],
    ['a string id', { id: '7' }, 'id'],
    ['a negative id', { id: -1 }, 'id'],
  ])('refuses %s with 400 naming the field, changing nothing', async (_label, override, field) => {
    const user = await t.signUp();
    const before = await snapshot();
    const res = await post(user, { userId: user.id, name: 'X', style: 'kanban', status: 'private', ...override });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toContain(field);
    expect(await snapshot()).toEqual(before);
  });

  it('refuses malformed JSON (400) and a wrong content type (415)', async () => {
    const user = await t.signUp();
    const before = await snapshot();
    const malformed = await t.inject(user, {
      method: 'POST',
      url: '/api/data/board',
      headers: { 'content-type': 'application/json' },
      payload: '{"name": ',
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toEqual({ error: expect.any(String) });
    const wrongType = await t.inject(user, {
      method: 'POST',
      url: '/api/data/board',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'name=x',
    });
    expect(wrongType.statusCode).toBe(415);
    expect(wrongType.json()).toEqual({ error: expect.any(String) });
    expect(await snapshot()).toEqual(before);
  });

  it('refuses a userId other than the caller (403), creating nothing', async () => {
    const user = await t.signUp();
    const other = await t.signUp();
    const before = await snapshot();
    const res = await post(user, { userId: other.id, name: 'Theirs', style: 'kanban', status: 'private' });
    expect(res.statusCode).toBe(403);
    expect(await snapshot()).toEqual(before);
  });

  it('lists owned boards, or shared ones with shared: true, never archived ones', async () => {
    const owner = await t.signUp();
    const member = await t.signUp();
    const mine = await t.createBoard(member, { name: 'Mine' });
    const shared = await t.createBoard(owner, { name: 'Shared' });
    const archived = await t.createBoard(owner, { name: 'Archived' });
    await share(t, shared.id, member, 'read');
    await share(t, archived.id, member, 'edit');
    await t.inject(owner, { method: 'DELETE', url: `/api/data/board?id=${archived.id}&userId=${owner.id}` });

    const names = async (payload?: object) =>
      (await t.inject(member, { method: 'POST', url: '/api/data/boards', ...(payload ? { payload } : {}) }))
        .json<{ boards: Array<{ name: string }> }>()
        .boards.map((b) => b.name);
    expect(await names()).toEqual(['Mine']);
    expect(await names({})).toEqual(['Mine']);
    expect(await names({ shared: true })).toEqual(['Shared']);
    expect(await names({ shared: 'true' })).toEqual(['Shared']);
    expect(mine.id).toBeGreaterThan(0);
    const bad = await t.inject(member, { method: 'POST', url: '/api/data/boards', payload: { shared: 'yes' } });
    expect(bad.statusCode).toBe(400);
  });

  it('reads a board with writeAccess by level, hiding what the caller cannot read', async () => {
    const owner = await t.signUp();
    const reader = await t.signUp();
    const editor = await t.signUp();
    const stranger = await t.signUp();
    const board = await t.createBoard(owner);
    const publicBoard = await t.createBoard(owner, { status: 'public' });
    await share(t, board.id, reader, 'read');
    await share(t, board.id, editor, 'edit');
    const get = (u: TestUser, id: number, userId = u.id) =>
      t.inject(u, { method: 'GET', url: `/api/data/board?id=${id}&userId=${userId}` });

    expect((await get(owner, board.id)).json()).toMatchObject({ board: { id: board.id }, writeAccess: true });
    expect((await get(editor, board.id)).json()).toMatchObject({ writeAccess: true });
    expect((await get(reader, board.id)).json()).toMatchObject({ writeAccess: false });
    expect((await get(stranger, publicBoard.id)).json()).toMatchObject({ writeAccess: false });
    expect((await get(stranger, board.id)).statusCode).toBe(404);
    expect((await get(owner, 999999)).statusCode).toBe(404);
    expect((await get(owner, board.id, stranger.id)).statusCode).toBe(403);
    expect((await t.inject(owner, { method: 'GET', url: `/api/data/board?id=abc&userId=${owner.id}` })).statusCode).toBe(400);
    const noUser = await t.inject(owner, { method: 'GET', url: `/api/data/board?id=${board.id}` });
    expect(noUser.statusCode).toBe(400);
    expect(noUser.json().error).toContain('userId');
  });

  it('lets only the owner change settings; the refusals change nothing', async () => {
    const owner = await t.signUp();
    const editor = await t.signUp();
    const stranger = await t.signUp();
    const board = await t.createBoard(owner, { name: 'Settings' });
    await share(t, board.id, editor, 'edit');
    const change = (u: TestUser) => post(u, { id: board.id, userId: u.id, name: 'Hijacked', style: 'todo', status: 'public' });
    const before = await snapshot();
    expect((await change(editor)).statusCode).toBe(403);
    expect((await change(stranger)).statusCode).toBe(404);
    expect((await post(owner, { id: 999999, userId: owner.id, name: 'X', style: 'todo', status: 'public' })).statusCode).toBe(
      404,
    );
    expect(await snapshot()).toEqual(before);

    const ok = await change(owner);
    expect(ok.statusCode).toBe(200);
    expect(ok.json().board).toMatchObject({ name: 'Hijacked', style: 'todo', status: 'public' });
    const events = await t.db
      .selectFrom('board_events')
      .select(['version', 'name'])
      .where('boardId', '=', board.id)
      .orderBy('version')
      .execute();
    expect(events).toEqual([
      { version: 1, name: 'board.created' },
      { version: 2, name: 'board.updated' },
    ]);
  });

  it('archives a board: gone from lists, still readable, settings refused with 409 until restored', async () => {
    const owner = await t.signUp();
    const board = await t.createBoard(owner, { name: 'Old' });
    const del = await t.inject(owner, { method: 'DELETE', url: `/api/data/board?id=${board.id}&userId=${owner.id}` });
    expect(del.statusCode).toBe(200);
    expect(del.json()).toEqual({ message: expect.any(String) });

    const list = await t.inject(owner, { method: 'POST', url: '/api/data/boards' });
    expect(list.json().boards.map((b: { id: number }) => b.id)).not.toContain(board.id);
    const read = await t.inject(owner, { method: 'GET', url: `/api/data/board?id=${board.id}&userId=${owner.id}` });
    expect(read.json().board.archivedAt).toMatch(/^\d{4}-\d\d-\d\dT/);

    const before = await snapshot();
    const change = await post(owner, { id: board.id, userId: owner.id, name: 'New', style: 'kanban', status: 'private' });
    expect(change.statusCode).toBe(409);
    expect(await snapshot()).toEqual(before);
    // Archiving again is harmless and records nothing.
    expect(
      (await t.inject(owner, { method: 'DELETE', url: `/api/data/board?id=${board.id}&userId=${owner.id}` })).statusCode,
    ).toBe(200);
    expect(await snapshot()).toEqual(before);
  });

  it('removes a board for good with permanent=true, members and events included; only the owner may', async () => {
    const owner = await t.signUp();
    const editor = await t.signUp();
    const stranger = await t.signUp();
    const board = await t.createBoard(owner);
    await share(t, board.id, editor, 'edit');
    const remove = (u: TestUser, id = board.id) =>
      t.inject(u, { method: 'DELETE', url: `/api/data/board?id=${id}&userId=${u.id}&permanent=true` });

    const before = await snapshot();
    expect((await remove(editor)).statusCode).toBe(403);
    expect((await remove(stranger)).statusCode).toBe(404);
    expect((await remove(owner, 999999)).statusCode).toBe(404);
    expect(
      (await t.inject(owner, { method: 'DELETE', url: `/api/data/board?id=${board.id}&userId=${stranger.id}&permanent=true` }))
        .statusCode,
    ).toBe(403);
    expect(await snapshot()).toEqual(before);

    expect((await remove(owner)).statusCode).toBe(200);
    expect(await t.db.selectFrom('boards').select('id').where('id', '=', board.id).execute()).toEqual([]);
    expect(await t.db.selectFrom('board_members').select('id').where('boardId', '=', board.id).execute()).toEqual([]);
    expect(await t.db.selectFrom('board_events').select('id').where('boardId', '=', board.id).execute()).toEqual([]);
    expect((await t.inject(owner, { method: 'GET', url: `/api/data/board?id=${board.id}&userId=${owner.id}` })).statusCode).toBe(
      404,
    );
  });

  it('answers 405 for methods a path does not have', async () => {
    const user = await t.signUp();
    for (const [method, url] of [
      ['PUT', '/api/data/board'],
      ['GET', '/api/data/boards'],
    ] as const) {
      const res = await t.inject(user, { method, url });
      expect(res.statusCode).toBe(405);
      expect(res.json()).toEqual({ error: 'Method not allowed' });
    }
    expect((await t.inject(user, { method: 'GET', url: '/api/data/nothing-here' })).statusCode).toBe(404);
  });
});

/** Membership is written directly until the sharing routes exist. */
