import { afterEach, expect, it } from 'vitest';
import { createArea, createCard, seedBoard, snapshot } from '../../../../test/factories.js';
import { eachDialect, type TestUser } from '../../../../test/harness.js';
import { Viewer } from '../../../../test/realtime-client.js';

eachDialect('WIP limits', (t) => {
  const open: Viewer[] = [];
  afterEach(() => {
    for (const v of open.splice(0)) v.close();
  });
  const setLimit = (user: TestUser, id: unknown, wipLimit: unknown) =>
    t.inject(user, { method: 'PATCH', url: '/api/data/area', payload: { id, wipLimit } });
  const share = (owner: TestUser, boardId: number, user: TestUser, permission: string) =>
    t.inject(owner, { method: 'POST', url: '/api/data/invite', payload: { boardId, userId: user.id, permission } });

  it('sets and removes a limit; every area answer carries it', async () => {
    const user = await t.signUp();
    const board = await t.createBoard(user);
    const area = await createArea(t, user, board.id, 'Doing');
    expect(area.wipLimit).toBeNull();
    const set = await setLimit(user, area.id, 3);
    expect(set.statusCode).toBe(200);
    expect(set.json()).toEqual({ area: { id: area.id, board: board.id, name: 'Doing', sort: 0, wipLimit: 3 } });
    const listed = await t.inject(user, { method: 'GET', url: `/api/data/areas?boardId=${board.id}` });
    expect(listed.json().areas).toEqual([{ id: area.id, board: board.id, name: 'Doing', sort: 0, wipLimit: 3 }]);
    const renamed = await t.inject(user, {
      method: 'POST',
      url: '/api/data/area',
      payload: { id: area.id, boardId: board.id, name: 'In progress' },
    });
    expect(renamed.json().area).toMatchObject({ name: 'In progress', wipLimit: 3 });
    const cleared = await setLimit(user, area.id, null);
    expect(cleared.json().area.wipLimit).toBeNull();
    expect(
      (await t.inject(user, { method: 'GET', url: `/api/data/areas?boardId=${board.id}` })).json().areas[0].wipLimit,
    ).toBeNull();
    const events = await t.db
      .selectFrom('board_events')
      .select('name')
      .where('boardId', '=', board.id)
      .orderBy('version')
      .execute();
    expect(events.map((e) => e.name)).toEqual(['board.created', 'area.created', 'area.updated', 'area.updated', 'area.updated']);
  });

  it('is soft: creating or moving a card into a full area works and says overLimit', async () => {
    const user = await t.signUp();
    const { areas } = await seedBoard(t, user, { Todo: ['a', 'b', 'c'], Doing: ['d'] });
    await setLimit(user, areas.Doing!.id, 2);
    const second = await t.inject(user, {
      method: 'POST',
      url: '/api/data/card',
      payload: { areaId: areas.Doing!.id, name: 'e' },
    });
    expect(second.statusCode).toBe(200);
    expect(second.json().overLimit).toBeUndefined();
    const third = await t.inject(user, {
      method: 'POST',
      url: '/api/data/card',
      payload: { areaId: areas.Doing!.id, name: 'f' },
    });
    expect(third.statusCode).toBe(200);
    expect(third.json()).toEqual({ card: expect.objectContaining({ name: 'f', area: areas.Doing!.id }), overLimit: true });

    const cards = (await t.inject(user, { method: 'GET', url: `/api/data/cards?areaId=${areas.Todo!.id}` })).json().cards;
    const move = (cardId: number, fromAreaId: number, toAreaId: number) =>
      t.inject(user, { method: 'POST', url: '/api/data/cardMove', payload: { cardId, fromAreaId, toAreaId, newIndex: 0 } });
    const moved = await move(cards[0].id, areas.Todo!.id, areas.Doing!.id);
    expect(moved.statusCode).toBe(200);
    expect(moved.json()).toEqual({ success: true, overLimit: true });
    expect((await t.inject(user, { method: 'GET', url: `/api/data/cards?areaId=${areas.Doing!.id}` })).json().cards).toHaveLength(
      4,
    );
    // Moving out of the full area, and into an area without a limit, says nothing.
    expect((await move(cards[0].id, areas.Doing!.id, areas.Todo!.id)).json()).toEqual({ success: true });
    // Back to exactly the limit: not over.
    const doing = (await t.inject(user, { method: 'GET', url: `/api/data/cards?areaId=${areas.Doing!.id}` })).json().cards;
    await t.inject(user, { method: 'DELETE', url: '/api/data/card', payload: { cardID: doing[0].id } });
    expect((await move(cards[0].id, areas.Todo!.id, areas.Doing!.id)).json()).toEqual({ success: true, overLimit: true });
    await t.inject(user, { method: 'DELETE', url: '/api/data/card', payload: { cardID: cards[0].id } });
    expect((await move(cards[1].id, areas.Todo!.id, areas.Doing!.id)).json()).toEqual({ success: true, overLimit: true });
    await setLimit(user, areas.Doing!.id, 5);
    expect((await move(cards[2].id, areas.Todo!.id, areas.Doing!.id)).json()).toEqual({ success: true });
    expect(await createCard(t, user, areas.Doing!.id, 'g')).toMatchObject({ name: 'g' });
  });

  it('says overLimit on every other way a card enters a full area: duplicate, restore from the archive, a repeat successor', async () => {
    const user = await t.signUp();
    const { areas, cards } = await seedBoard(t, user, { Doing: ['a', 'b'], Done: ['c'] });
    const doing = areas.Doing!.id as number;
    await setLimit(user, doing, 2);
    const post = (url: string, payload: Record<string, unknown>) => t.inject(user, { method: 'POST', url, payload });

    // Duplicate: the copy joins the original's area.
    const copy = await post('/api/data/card-duplicate', { cardID: cards.a!.id });
    expect(copy.statusCode).toBe(200);
    expect(copy.json()).toEqual({ card: expect.objectContaining({ name: 'a', area: doing }), overLimit: true });
    // Into an area under its limit: nothing said.
    expect((await post('/api/data/card-duplicate', { cardID: cards.c!.id })).json().overLimit).toBeUndefined();

    // Restore of an archived card into the full area.
    await t.inject(user, { method: 'DELETE', url: '/api/data/card', payload: { cardID: copy.json().card.id } });
    await t.inject(user, { method: 'DELETE', url: '/api/data/card', payload: { cardID: cards.b!.id } });
    // Back to exactly the limit: not over.
    const exact = await post('/api/data/archive', { type: 'card', id: cards.b!.id });
    expect(exact.json()).toEqual({ success: true, boardId: expect.any(Number) });
    const over = await post('/api/data/archive', { type: 'card', id: copy.json().card.id });
    expect(over.statusCode).toBe(200);
    expect(over.json()).toEqual({ success: true, boardId: expect.any(Number), overLimit: true });

    // Restore of an archived area that comes back holding more than its limit.
    const areaId = areas.Done!.id as number;
    await post('/api/data/card', { areaId, name: 'd' });
    await setLimit(user, areaId, 1);
    await t.inject(user, { method: 'DELETE', url: `/api/data/area?id=${areaId}&boardId=${areas.Done!.board}` });
    const back = await post('/api/data/archive', { type: 'area', id: areaId });
    expect(back.json()).toEqual({ success: true, boardId: expect.any(Number), overLimit: true });
    // Restoring what is not archived changes nothing and says nothing.
    expect((await post('/api/data/archive', { type: 'area', id: areaId })).json()).toEqual({
      success: true,
      boardId: expect.any(Number),
    });

    // A repeating card marked done makes its successor in the full area.
    const due = new Date(Date.now() + 86_400_000).toISOString();
    const put = (payload: Record<string, unknown>) => t.inject(user, { method: 'PUT', url: '/api/data/card', payload });
    expect((await put({ cardID: cards.a!.id, dueDate: due, repeatEvery: 'week' })).json().overLimit).toBeUndefined();
    const done = await put({ cardID: cards.a!.id, status: 1 });
    expect(done.statusCode).toBe(200);
    expect(done.json()).toEqual({
      card: expect.objectContaining({ id: cards.a!.id }),
      next: expect.objectContaining({ name: 'a', area: doing }),
      overLimit: true,
    });
  });

  it('refuses bad limits, readers and strangers, changing nothing', async () => {
    const owner = await t.signUp();
    const reader = await t.signUp();
    const stranger = await t.signUp();
    const { board, areas } = await seedBoard(t, owner, { Todo: [] });
    await share(owner, board.id, reader, 'read');
    await t.inject(owner, { method: 'DELETE', url: `/api/data/area?id=${areas.Todo!.id}&boardId=${board.id}` });
    const live = await createArea(t, owner, board.id, 'Live');
    const before = await snapshot(t);
    for (const wipLimit of [0, 1000, -1, 2.5, '3', true]) expect((await setLimit(owner, live.id, wipLimit)).statusCode).toBe(400);
    expect((await t.inject(owner, { method: 'PATCH', url: '/api/data/area', payload: { id: live.id } })).statusCode).toBe(400);
    expect((await t.inject(owner, { method: 'PATCH', url: '/api/data/area', payload: { wipLimit: 3 } })).statusCode).toBe(400);
    expect((await setLimit(owner, 'x', 3)).statusCode).toBe(400);
    expect((await setLimit(reader, live.id, 3)).statusCode).toBe(403);
    expect((await setLimit(stranger, live.id, 3)).statusCode).toBe(404);
    expect((await setLimit(owner, 999999, 3)).statusCode).toBe(404);
    expect((await setLimit(owner, areas.Todo!.id, 3)).statusCode).toBe(409);
    expect(await snapshot(t)).toEqual(before);
    expect((await setLimit(owner, live.id, 999)).json().area.wipLimit).toBe(999);
    expect((await setLimit(owner, live.id, 1)).json().area.wipLimit).toBe(1);
  });

  it('reaches viewers in realtime: area.updated carries wipLimit', async () => {
    const owner = await t.signUp();
    const { board, areas } = await seedBoard(t, owner, { Todo: [] });
    const viewer = await Viewer.connect(await t.listen(), { cookie: owner.cookie });
    open.push(viewer);
    viewer.send({ type: 'subscribe', boardId: board.id });
    await viewer.next('subscribed', (m) => m.boardId === board.id);
    await setLimit(owner, areas.Todo!.id, 4);
    const event = await viewer.next('event', (m) => m.name === 'area.updated');
    expect(event.data).toEqual({ area: { id: areas.Todo!.id, board: board.id, name: 'Todo', sort: 0, wipLimit: 4 } });
    const created = await createArea(t, owner, board.id, 'More');
    const second = await viewer.next('event', (m) => m.name === 'area.created');
    expect(second.data).toEqual({ area: { ...created, wipLimit: null } });
    // Setting the same limit again changes nothing and tells nobody.
    await setLimit(owner, areas.Todo!.id, 4);
    expect(await viewer.quiet('event', 300)).toEqual([]);
  });
});
