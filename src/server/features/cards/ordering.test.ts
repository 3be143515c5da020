import { expect, it } from 'vitest';
import { assertStoredOrder, cardNames, createCard, seedBoard, snapshot } from '../../../../test/factories.js';
import { eachDialect, type TestUser } from '../../../../test/harness.js';

eachDialect('card ordering', (t) => {
  const order = (user: TestUser, cardId: number, areaId: number, newIndex: unknown) =>
    t.inject(user, { method: 'POST', url: '/api/data/cardOrder', payload: { cardId, areaId, newIndex } });
  const move = (user: TestUser, cardId: number, fromAreaId: number, toAreaId: number, newIndex: unknown) =>
    t.inject(user, { method: 'POST', url: '/api/data/cardMove', payload: { cardId, fromAreaId, toAreaId, newIndex } });

  it('reorders within an area: down, up, to the end and past the end', async () => {
    const user = await t.signUp();
    const { areas, cards } = await seedBoard(t, user, { A: ['a', 'b', 'c', 'd'] });
    const A = areas.A!.id;
    expect((await order(user, cards.a!.id, A, 2)).json()).toEqual({ success: true });
    expect(await cardNames(t, user, A)).toEqual(['b', 'c', 'a', 'd']);
    await order(user, cards.d!.id, A, 0);
    expect(await cardNames(t, user, A)).toEqual(['d', 'b', 'c', 'a']);
    await order(user, cards.b!.id, A, 1);
    expect(await cardNames(t, user, A)).toEqual(['d', 'b', 'c', 'a']);
    await order(user, cards.d!.id, A, 99);
    expect(await cardNames(t, user, A)).toEqual(['b', 'c', 'a', 'd']);
    await order(user, cards.c!.id, A, 1);
    expect(await cardNames(t, user, A)).toEqual(['b', 'c', 'a', 'd']);
  });

  it('moves between areas to the exact index, renumbering both sides', async () => {
    const user = await t.signUp();
    const { board, areas, cards } = await seedBoard(t, user, { A: ['a', 'b', 'c'], B: ['x', 'y'] });
    expect((await move(user, cards.b!.id, areas.A!.id, areas.B!.id, 1)).json()).toEqual({ success: true });
    expect(await cardNames(t, user, areas.A!.id)).toEqual(['a', 'c']);
    expect(await cardNames(t, user, areas.B!.id)).toEqual(['x', 'b', 'y']);
    await move(user, cards.a!.id, areas.A!.id, areas.B!.id, 0);
    await move(user, cards.c!.id, areas.A!.id, areas.B!.id, 10);
    expect(await cardNames(t, user, areas.A!.id)).toEqual([]);
    expect(await cardNames(t, user, areas.B!.id)).toEqual(['a', 'x', 'b', 'y', 'c']);
    // fromAreaId == toAreaId behaves as cardOrder.
    await move(user, cards.a!.id, areas.B!.id, areas.B!.id, 3);
    expect(await cardNames(t, user, areas.B!.id)).toEqual(['x', 'b', 'y', 'a', 'c']);
    await assertStoredOrder(t, board.id);
    const events = await t.db
      .selectFrom('board_events')
      .select(['name', 'data'])
      .where('boardId', '=', board.id)
      .where('name', '=', 'card.moved')
      .execute();
    expect(events).toHaveLength(4);
    expect(JSON.parse(events[0]!.data)).toEqual({
      cardId: cards.b!.id,
      fromAreaId: areas.A!.id,
      toAreaId: areas.B!.id,
      newIndex: 1,
    });
    // Past the end, the event tells where the card really landed.
    expect(JSON.parse(events[2]!.data)).toMatchObject({ cardId: cards.c!.id, newIndex: 4 });
  });

  it('counts newIndex among visible cards: moving past an archived card lands where it was dropped', async () => {
    const user = await t.signUp();
    const { board, areas, cards } = await seedBoard(t, user, { A: ['a', 'hidden', 'b', 'c'], B: ['z'] });
    await t.inject(user, { method: 'DELETE', url: '/api/data/card', payload: { cardID: cards.hidden!.id } });
    expect(await cardNames(t, user, areas.A!.id)).toEqual(['a', 'b', 'c']);
    // The viewer drops a between b and c.
    await order(user, cards.a!.id, areas.A!.id, 1);
    expect(await cardNames(t, user, areas.A!.id)).toEqual(['b', 'a', 'c']);
    // A card from elsewhere dropped at the top goes right before b, under the archived card.
    await move(user, cards.z!.id, areas.B!.id, areas.A!.id, 0);
    expect(await cardNames(t, user, areas.A!.id)).toEqual(['z', 'b', 'a', 'c']);
    await assertStoredOrder(t, board.id);
    // The archived card kept its place relative to the others and comes back there.
    await t.inject(user, { method: 'POST', url: '/api/data/archive', payload: { type: 'card', id: cards.hidden!.id } });
    expect(await cardNames(t, user, areas.A!.id)).toEqual(['hidden', 'z', 'b', 'a', 'c']);
  });

  it('keeps working when drops into one spot use up the room between two keys, at the top and at the bottom', async () => {
    const user = await t.signUp();
    const names = range('c', 24);
    const { board, areas, cards } = await seedBoard(t, user, { A: names });
    const A = areas.A!.id;
    const expected = [...names];
    // The bottom card dropped under the top one, again and again: each drop halves the same gap.
    for (let n = 0; n < 20; n++) {
      const last = expected.pop()!;
      expected.splice(1, 0, last);
      expect((await order(user, cards[last]!.id, A, 1)).statusCode).toBe(200);
    }
    expect(await cardNames(t, user, A)).toEqual(expected);
    await assertStoredOrder(t, board.id);
    // Dropped at the top over and over, and a new card after keys that reach the top of the integer range.
    for (const name of expected.slice(-3)) await order(user, cards[name]!.id, A, 0);
    expected.unshift(...expected.splice(-3).reverse());
    await t.db.updateTable('cards').set({ sort: 2_147_483_000 }).where('id', '=', cards[expected.at(-1)!]!.id).execute();
    await createCard(t, user, A, 'newest');
    expect(await cardNames(t, user, A)).toEqual([...expected, 'newest']);
    await assertStoredOrder(t, board.id);
  });

  it('refuses bad moves with the right status and changes nothing', async () => {
    const user = await t.signUp();
    const { areas, cards } = await seedBoard(t, user, { A: ['a', 'b'], B: ['c'] });
    const other = await seedBoard(t, user, { X: ['x'] });
    const before = await snapshot(t);
    expect((await move(user, cards.a!.id, areas.A!.id, areas.B!.id, -1)).statusCode).toBe(400);
    expect((await move(user, cards.a!.id, areas.A!.id, areas.B!.id, 1.5)).statusCode).toBe(400);
    expect((await move(user, cards.a!.id, areas.A!.id, areas.B!.id, '1')).statusCode).toBe(400);
    expect(
      (
        await t.inject(user, {
          method: 'POST',
          url: '/api/data/cardMove',
          payload: { cardId: cards.a!.id, fromAreaId: areas.A!.id, toAreaId: areas.B!.id },
        })
      ).statusCode,
    ).toBe(400);
    const notThere = await move(user, cards.a!.id, areas.B!.id, areas.A!.id, 0);
    expect(notThere.statusCode).toBe(409);
    expect((await order(user, cards.c!.id, areas.A!.id, 0)).statusCode).toBe(409);
    expect((await move(user, cards.a!.id, areas.A!.id, other.areas.X!.id, 0)).statusCode).toBe(400);
    const missing = await move(user, cards.a!.id, areas.A!.id, 999999, 0);
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ error: 'Area not found' });
    expect((await move(user, cards.a!.id, 999999, areas.B!.id, 0)).statusCode).toBe(404);
    expect((await move(user, 999999, areas.A!.id, areas.B!.id, 0)).statusCode).toBe(404);
    expect(await snapshot(t)).toEqual(before);
  });

  it('answers an area on a board the caller cannot read like a missing one (404), one they can read 400, changing nothing', async () => {
    const user = await t.signUp();
    const stranger = await t.signUp();
    const { areas, cards } = await seedBoard(t, user, { A: ['a'] });
    const hidden = await seedBoard(t, stranger, { H: ['h'] });
    const shown = await seedBoard(t, stranger, { P: ['p'] }, { status: 'public' });
    const before = await snapshot(t);
    const unseen = await move(user, cards.a!.id, areas.A!.id, hidden.areas.H!.id, 0);
    expect(unseen.statusCode).toBe(404);
    expect(unseen.json()).toEqual({ error: 'Area not found' });
    const seen = await move(user, cards.a!.id, areas.A!.id, shown.areas.P!.id, 0);
    expect(seen.statusCode).toBe(400);
    expect(seen.json().error).toContain('areas');
    expect(await snapshot(t)).toEqual(before);
  });

  it('a hundred concurrent random moves from several clients leave every area in a whole order, no card lost or duplicated', async () => {
    const owner = await t.signUp();
    const clients: TestUser[] = [owner, await t.signUp(), await t.signUp()];
    const layout = { A: range('a', 12), B: range('b', 12), C: range('c', 12) };
    const { board, areas, cards } = await seedBoard(t, owner, layout);
    for (const c of clients.slice(1)) {
      await t.db
        .insertInto('board_members')
        .values({ boardId: board.id, userId: c.id, permission: 'edit', createdAt: new Date().toISOString() })
        .execute();
    }
    const areaIds = Object.values(areas).map((a) => a.id as number);
    let seed = 42;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    // Each client moves its own cards (so none of its moves is stale), all three at once on one board.
    const where = new Map(Object.values(cards).map((c) => [c.id as number, c.area as number]));
    const owned = clients.map((_, i) => [...where.keys()].filter((_, k) => k % clients.length === i));
    const runs = clients.map(async (client, i) => {
      const statuses: number[] = [];
      for (let n = 0; n < (i === 0 ? 34 : 33); n++) {
        const cardId = owned[i]![random(owned[i]!.length)]!;
        const toAreaId = areaIds[random(areaIds.length)]!;
        const res = await move(client, cardId, where.get(cardId)!, toAreaId, random(15));
        if (res.statusCode === 200) where.set(cardId, toAreaId);
        statuses.push(res.statusCode);
      }
      return statuses;
    });
    const statuses = (await Promise.all(runs)).flat();
    expect(statuses).toHaveLength(100);
    expect(statuses.filter((s) => s !== 200)).toEqual([]);

    await assertStoredOrder(t, board.id);
    const seen: string[] = [];
    for (const areaId of areaIds) seen.push(...(await cardNames(t, owner, areaId)));
    expect(seen.sort()).toEqual(Object.values(layout).flat().sort());
    const versions = await t.db
      .selectFrom('board_events')
      .select('version')
      .where('boardId', '=', board.id)
      .orderBy('version')
      .execute();
    expect(versions.map((v) => v.version)).toEqual(versions.map((_, i) => i + 1));
  });
});

function range(prefix: string, n: number): string[] {
  return Array.from({ length: n }, (_, i) => `${prefix}${i}`);
}
