import { expect, it } from 'vitest';
import { areaNames, cardNames, seedBoard, snapshot } from '../../../../test/factories.js';
import { eachDialect, type TestUser } from '../../../../test/harness.js';

eachDialect('archive', (t) => {
  const restore = (user: TestUser, type: string, id: unknown) =>
    t.inject(user, { method: 'POST', url: '/api/data/archive', payload: { type, id } });

  it('lists a board’s archived areas with their card counts and cards archived on their own', async () => {
    const user = await t.signUp();
    const { board, areas, cards } = await seedBoard(t, user, { A: ['a1', 'a2'], B: ['b1', 'b2', 'b3'] });
    await t.inject(user, { method: 'DELETE', url: '/api/data/card', payload: { cardID: cards.b3!.id } });
    await t.inject(user, { method: 'DELETE', url: `/api/data/area?id=${areas.B!.id}&boardId=${board.id}` });
    await t.inject(user, { method: 'DELETE', url: '/api/data/card', payload: { cardID: cards.a2!.id } });
    const res = await t.inject(user, { method: 'GET', url: `/api/data/archive?boardId=${board.id}` });
    expect(res.json()).toEqual({
      areas: [{ id: areas.B!.id, name: 'B', archivedAt: expect.stringMatching(/Z$/), cardCount: 2 }],
      cards: [{ id: cards.a2!.id, name: 'a2', archivedAt: expect.stringMatching(/Z$/), areaName: 'A' }],
    });
  });

  it('restores a card whose area is archived together with the area and its cards in their previous order', async () => {
    const user = await t.signUp();
    const { board, areas, cards } = await seedBoard(t, user, { A: ['a1'], B: ['b1', 'b2', 'b3'], C: [] });
    await t.inject(user, { method: 'DELETE', url: '/api/data/card', payload: { cardID: cards.b2!.id } });
    await t.inject(user, { method: 'DELETE', url: `/api/data/area?id=${areas.B!.id}&boardId=${board.id}` });
    expect(await areaNames(t, user, board.id)).toEqual(['A', 'C']);
    const res = await restore(user, 'card', cards.b2!.id);
    expect(res.json()).toEqual({ success: true, boardId: board.id });
    expect(await areaNames(t, user, board.id)).toEqual(['A', 'B', 'C']);
    expect(await cardNames(t, user, areas.B!.id)).toEqual(['b1', 'b2', 'b3']);
    const names = (
      await t.db
        .selectFrom('board_events')
        .select('name')
        .where('boardId', '=', board.id)
        .orderBy('version', 'desc')
        .limit(2)
        .execute()
    ).map((e) => e.name);
    expect(names.sort()).toEqual(['area.restored', 'card.restored']);
  });

  it('lists and restores archived boards for their owner only', async () => {
    const owner = await t.signUp();
    const editor = await t.signUp();
    const { board } = await seedBoard(t, owner, { A: [] });
    await t.db
      .insertInto('board_members')
      .values({ boardId: board.id, userId: editor.id, permission: 'edit', createdAt: new Date().toISOString() })
      .execute();
    await t.inject(owner, { method: 'DELETE', url: `/api/data/board?id=${board.id}&userId=${owner.id}` });
    expect((await t.inject(owner, { method: 'GET', url: '/api/data/archive' })).json()).toEqual({
      boards: [{ id: board.id, name: 'Board', archivedAt: expect.stringMatching(/Z$/) }],
    });
    expect((await t.inject(editor, { method: 'GET', url: '/api/data/archive' })).json()).toEqual({ boards: [] });
    // Inside an archived board nothing is written, not even a restore of its parts.
    const before = await snapshot(t);
    expect((await restore(editor, 'board', board.id)).statusCode).toBe(403);
    expect(
      (await t.inject(owner, { method: 'POST', url: '/api/data/area', payload: { boardId: board.id, name: 'x' } })).statusCode,
    ).toBe(409);
    expect(await snapshot(t)).toEqual(before);
    expect((await restore(owner, 'board', board.id)).json()).toEqual({ success: true });
    const list = (await t.inject(owner, { method: 'POST', url: '/api/data/boards' })).json().boards;
    expect(list.map((b: { id: number }) => b.id)).toContain(board.id);
  });

  it('needs edit access for a board’s archive and refuses bad input, changing nothing', async () => {
    const owner = await t.signUp();
    const reader = await t.signUp();
    const stranger = await t.signUp();
    const { board, cards } = await seedBoard(t, owner, { A: ['a'] });
    await t.db
      .insertInto('board_members')
      .values({ boardId: board.id, userId: reader.id, permission: 'read', createdAt: new Date().toISOString() })
      .execute();
    await t.inject(owner, { method: 'DELETE', url: '/api/data/card', payload: { cardID: cards.a!.id } });
    const before = await snapshot(t);
    expect((await t.inject(reader, { method: 'GET', url: `/api/data/archive?boardId=${board.id}` })).statusCode).toBe(403);
    expect((await t.inject(stranger, { method: 'GET', url: `/api/data/archive?boardId=${board.id}` })).statusCode).toBe(404);
    expect((await restore(reader, 'card', cards.a!.id)).statusCode).toBe(403);
    expect((await restore(stranger, 'card', cards.a!.id)).statusCode).toBe(404);
    expect((await restore(owner, 'column', cards.a!.id)).statusCode).toBe(400);
    expect((await restore(owner, 'card', 'x')).statusCode).toBe(400);
    expect((await restore(owner, 'card', 999999)).statusCode).toBe(404);
    expect(await snapshot(t)).toEqual(before);
  });
});
