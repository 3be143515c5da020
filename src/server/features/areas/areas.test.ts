import { expect, it } from 'vitest';
import {
  areaNames,
  assertStoredOrder,
  cardNames,
  createArea,
  createCard,
  seedBoard,
  snapshot,
} from '../../../../test/factories.js';
import { eachDialect } from '../../../../test/harness.js';

eachDialect('areas', (t) => {
  it('creates areas at the end, numbered 0..n-1, and renames them', async () => {
    const user = await t.signUp();
    const board = await t.createBoard(user);
    const a = await createArea(t, user, board.id, 'Todo');
    const b = await createArea(t, user, board.id, ' Doing ');
    expect(a).toEqual({ id: expect.any(Number), board: board.id, name: 'Todo', sort: 0, wipLimit: null });
    expect(b).toMatchObject({ name: 'Doing', sort: 1 });
    const renamed = await t.inject(user, {
      method: 'POST',
      url: '/api/data/area',
      payload: { id: a.id, boardId: board.id, name: 'Backlog' },
    });
    expect(renamed.json().area).toEqual({ id: a.id, board: board.id, name: 'Backlog', sort: 0, wipLimit: null });
    expect(await areaNames(t, user, board.id)).toEqual(['Backlog', 'Doing']);
    const versions = await t.db
      .selectFrom('board_events')
      .select('name')
      .where('boardId', '=', board.id)
      .orderBy('version')
      .execute();
    expect(versions.map((v) => v.name)).toEqual(['board.created', 'area.created', 'area.created', 'area.updated']);
  });

  it('refuses bad input and foreign areas, changing nothing', async () => {
    const user = await t.signUp();
    const other = await t.signUp();
    const board = await t.createBoard(user);
    const foreignBoard = await t.createBoard(other);
    const foreignArea = await createArea(t, other, foreignBoard.id, 'Theirs');
    const before = await snapshot(t);
    const post = (payload: object) => t.inject(user, { method: 'POST', url: '/api/data/area', payload });
    expect((await post({ boardId: board.id })).statusCode).toBe(400);
    expect((await post({ boardId: board.id, name: '   ' })).statusCode).toBe(400);
    expect((await post({ name: 'x' })).statusCode).toBe(400);
    expect((await post({ boardId: 'one', name: 'x' })).statusCode).toBe(400);
    expect((await post({ boardId: 999999, name: 'x' })).statusCode).toBe(404);
    expect((await post({ boardId: foreignBoard.id, name: 'x' })).statusCode).toBe(404);
    expect((await post({ id: foreignArea.id, boardId: board.id, name: 'stolen' })).statusCode).toBe(404);
    expect((await t.inject(user, { method: 'GET', url: `/api/data/areas?boardId=${foreignBoard.id}` })).statusCode).toBe(404);
    expect((await t.inject(user, { method: 'GET', url: '/api/data/areas' })).statusCode).toBe(400);
    expect(await snapshot(t)).toEqual(before);
  });

  it('reorders with PATCH /board: the array order is the truth, all or nothing', async () => {
    const user = await t.signUp();
    const { board, areas } = await seedBoard(t, user, { A: [], B: [], C: [] });
    const patch = (list: object[], boardId: number = board.id) =>
      t.inject(user, { method: 'PATCH', url: '/api/data/board', payload: { boardId, areas: list } });
    const ok = await patch([
      { id: areas.C!.id, sort: 0 },
      { id: areas.A!.id, sort: 0 },
      { id: areas.B!.id, sort: 0 },
    ]);
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ message: expect.any(String) });
    expect(await areaNames(t, user, board.id)).toEqual(['C', 'A', 'B']);

    const other = await seedBoard(t, user, { X: [] });
    const before = await snapshot(t);
    const bad = [
      [{ id: areas.A!.id }, { id: areas.B!.id }],
      [{ id: areas.A!.id }, { id: areas.B!.id }, { id: areas.C!.id }, { id: other.areas.X!.id }],
      [{ id: areas.A!.id }, { id: areas.A!.id }, { id: areas.B!.id }],
      [{ id: areas.A!.id }, { id: areas.B!.id }, { id: other.areas.X!.id }],
    ];
    for (const list of bad) expect((await patch(list)).statusCode).toBe(400);
    expect((await t.inject(user, { method: 'PATCH', url: '/api/data/board', payload: { boardId: board.id } })).statusCode).toBe(
      400,
    );
    expect((await t.inject(user, { method: 'PATCH', url: '/api/data/board', payload: { areas: [] } })).statusCode).toBe(400);
    expect(await snapshot(t)).toEqual(before);
    expect(await areaNames(t, user, board.id)).toEqual(['C', 'A', 'B']);
  });

  it('archives an area with its cards out of sight, keeps its place, refuses writes into it with 409', async () => {
    const user = await t.signUp();
    const { board, areas, cards } = await seedBoard(t, user, { A: ['a1'], B: ['b1', 'b2'], C: ['c1'] });
    const del = await t.inject(user, { method: 'DELETE', url: `/api/data/area?id=${areas.B!.id}&boardId=${board.id}` });
    expect(del.statusCode).toBe(200);
    expect(del.json()).toEqual({ message: expect.any(String) });
    expect(await areaNames(t, user, board.id)).toEqual(['A', 'C']);
    expect((await t.inject(user, { method: 'GET', url: `/api/data/cards?areaId=${areas.B!.id}` })).json()).toEqual({ cards: [] });
    // The cards are not themselves marked; their rows stay.
    const rows = await t.db
      .selectFrom('cards')
      .select(['name', 'archivedAt'])
      .where('areaId', '=', areas.B!.id)
      .orderBy('sort')
      .execute();
    expect(rows).toEqual([
      { name: 'b1', archivedAt: null },
      { name: 'b2', archivedAt: null },
    ]);

    const before = await snapshot(t);
    const renamed = await t.inject(user, {
      method: 'POST',
      url: '/api/data/area',
      payload: { id: areas.B!.id, boardId: board.id, name: 'x' },
    });
    expect(renamed.statusCode).toBe(409);
    expect(
      (await t.inject(user, { method: 'POST', url: '/api/data/card', payload: { areaId: areas.B!.id, name: 'x' } })).statusCode,
    ).toBe(409);
    const intoArchived = await t.inject(user, {
      method: 'POST',
      url: '/api/data/cardMove',
      payload: { cardId: cards.a1!.id, fromAreaId: areas.A!.id, toAreaId: areas.B!.id, newIndex: 0 },
    });
    expect(intoArchived.statusCode).toBe(409);
    expect(
      (await t.inject(user, { method: 'PUT', url: '/api/data/card', payload: { cardID: cards.b1!.id, name: 'x' } })).statusCode,
    ).toBe(409);
    expect(await snapshot(t)).toEqual(before);

    // A new area still goes to the end, and PATCH orders the visible ones around the archived slot.
    const d = await createArea(t, user, board.id, 'D');
    expect(d.sort).toBe(2);
    const patched = await t.inject(user, {
      method: 'PATCH',
      url: '/api/data/board',
      payload: { boardId: board.id, areas: [{ id: d.id }, { id: areas.C!.id }, { id: areas.A!.id }] },
    });
    expect(patched.statusCode).toBe(200);
    expect(await areaNames(t, user, board.id)).toEqual(['D', 'C', 'A']);
    await assertStoredOrder(t, board.id);

    const restored = await t.inject(user, {
      method: 'POST',
      url: '/api/data/archive',
      payload: { type: 'area', id: areas.B!.id },
    });
    expect(restored.json()).toEqual({ success: true, boardId: board.id });
    expect(await areaNames(t, user, board.id)).toEqual(['D', 'B', 'C', 'A']);
    expect(await cardNames(t, user, areas.B!.id)).toEqual(['b1', 'b2']);
  });

  it('removes an area with every card in it for good, renumbering the rest', async () => {
    const user = await t.signUp();
    const { board, areas, cards } = await seedBoard(t, user, { A: ['a1'], B: ['b1', 'b2'], C: [] });
    const label = (
      await t.inject(user, { method: 'POST', url: '/api/data/labels', payload: { boardId: board.id, name: 'urgent' } })
    ).json().label;
    await t.inject(user, { method: 'PUT', url: '/api/data/card', payload: { cardID: cards.b1!.id, labelIds: [label.id] } });
    await t.inject(user, { method: 'DELETE', url: `/api/data/area?id=${areas.B!.id}&boardId=${board.id}` });
    const del = await t.inject(user, {
      method: 'DELETE',
      url: `/api/data/area?id=${areas.B!.id}&boardId=${board.id}&permanent=true`,
    });
    expect(del.statusCode).toBe(200);
    expect(await t.db.selectFrom('areas').select('id').where('id', '=', areas.B!.id).execute()).toEqual([]);
    expect(await t.db.selectFrom('cards').select('id').where('areaId', '=', areas.B!.id).execute()).toEqual([]);
    expect(await t.db.selectFrom('card_labels').selectAll().where('cardId', '=', cards.b1!.id).execute()).toEqual([]);
    expect(await areaNames(t, user, board.id)).toEqual(['A', 'C']);
    await assertStoredOrder(t, board.id);
    const again = await t.inject(user, {
      method: 'DELETE',
      url: `/api/data/area?id=${areas.B!.id}&boardId=${board.id}&permanent=true`,
    });
    expect(again.statusCode).toBe(404);
    const wrongBoard = await seedBoard(t, user, { Z: [] });
    const mismatch = await t.inject(user, {
      method: 'DELETE',
      url: `/api/data/area?id=${areas.A!.id}&boardId=${wrongBoard.board.id}`,
    });
    expect(mismatch.statusCode).toBe(404);
    expect(await cardNames(t, user, areas.A!.id)).toEqual(['a1']);
    expect((await createCard(t, user, areas.C!.id, 'c1')).sort).toBe(0);
  });
});
