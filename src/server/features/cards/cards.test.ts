import { expect, it } from 'vitest';
import { createCard, seedBoard, share, snapshot, updateCard } from '../../../../test/factories.js';
import { cardListCacheOf } from './card-list-cache.js';
import { eachDialect, type TestContext, type TestUser } from '../../../../test/harness.js';

eachDialect('cards', (t) => {
  it('lists cards in the exact list shape, first assignee described by assignee*', async () => {
    const owner = await t.signUp('Olga');
    const member = await t.signUp('Mika');
    const { board, areas, cards } = await seedBoard(t, owner, { Todo: ['one', 'two'] });
    await share(t, board.id, member, 'edit');
    await updateCard(t, owner, cards.two!.id, {
      content: 'Steps\n- [x] first\n- [ ] second',
      dueDate: '2026-08-01T09:00:00+02:00',
      assignees: [member.id, owner.id],
      status: 1,
    });
    const res = await t.inject(owner, { method: 'GET', url: `/api/data/cards?areaId=${areas.Todo!.id}` });
    expect(res.statusCode).toBe(200);
    const [first, second] = res.json().cards;
    expect(first).toEqual({
      id: cards.one!.id,
      area: areas.Todo!.id,
      name: 'one',
      content: '',
      status: 0,
      sort: 0,
      dueDate: null,
      repeatEvery: null,
      labels: [],
      assignees: [],
      assignee: null,
      assigneeName: null,
      assigneeImage: null,
      assigneeType: null,
      checklist: { done: 0, total: 0 },
      fields: {},
    });
    expect(second).toMatchObject({
      sort: 1,
      status: 1,
      dueDate: '2026-08-01T07:00:00.000Z',
      assignees: [
        { id: member.id, name: 'Mika', image: null, type: 'human' },
        { id: owner.id, name: 'Olga', image: null, type: 'human' },
      ],
      assignee: member.id,
      assigneeName: 'Mika',
      assigneeType: 'human',
      checklist: { done: 1, total: 2 },
    });
    const mine = await t.inject(owner, { method: 'GET', url: `/api/data/cards?areaId=${areas.Todo!.id}&assignee=${member.id}` });
    expect(mine.json().cards.map((c: { name: string }) => c.name)).toEqual(['two']);
    const nobody = await t.inject(owner, { method: 'GET', url: `/api/data/cards?areaId=${areas.Todo!.id}&unassigned=true` });
    expect(nobody.json().cards.map((c: { name: string }) => c.name)).toEqual(['one']);
  });

  it('shows a renamed assignee at once, though card lists are cached by board version', async () => {
    const owner = await t.signUp('Before');
    const { board, areas, cards } = await seedBoard(t, owner, { A: ['x'] });
    await updateCard(t, owner, cards.x!.id, { assignees: [owner.id] });
    const names = async () =>
      (await t.inject(owner, { method: 'GET', url: `/api/data/cards?areaId=${areas.A!.id}` })).json().cards[0].assigneeName;
    expect(await names()).toBe('Before');
    const renamed = await t.inject(
      { cookie: owner.cookie },
      { method: 'POST', url: '/api/auth/update-user', headers: { origin: 'http://localhost:3000' }, payload: { name: 'After' } },
    );
    expect(renamed.statusCode).toBe(200);
    expect(await names()).toBe('After');
    const last = await t.db
      .selectFrom('board_events')
      .select(['name', 'data'])
      .where('boardId', '=', board.id)
      .orderBy('version', 'desc')
      .executeTakeFirstOrThrow();
    expect(last.name).toBe('person.updated');
    expect(JSON.parse(last.data)).toEqual({ person: { id: owner.id, name: 'After', image: null } });
  });

  it('keeps one card-list answer per filter that applies and drops those of older board versions', async () => {
    const owner = await t.signUp();
    const { areas, cards } = await seedBoard(t, owner, { A: ['x'] });
    const cache = cardListCacheOf(t.db, t.config.cardListCacheMb * 1024 * 1024);
    const list = async (query: string) =>
      (await t.inject(owner, { method: 'GET', url: `/api/data/cards?areaId=${areas.A!.id}${query}` })).json().cards.length;
    const start = cache.size;
    for (let i = 0; i < 5; i++) expect(await list(`&unassigned=true&assignee=nobody-${i}`)).toBe(1);
    expect(await list('&unassigned=true')).toBe(1);
    expect(cache.size).toBe(start + 1);
    expect(await list('')).toBe(1);
    expect(cache.size).toBe(start + 2);
    await updateCard(t, owner, cards.x!.id, { assignees: [owner.id] });
    expect(await list('&unassigned=true')).toBe(0);
    expect(cache.size).toBe(start + 1);
  });

  it('creates at the bottom even with gaps left by moves and archived cards', async () => {
    const user = await t.signUp();
    const { areas, cards } = await seedBoard(t, user, { A: ['a', 'b', 'c', 'd'], B: [] });
    await t.inject(user, {
      method: 'POST',
      url: '/api/data/cardMove',
      payload: { cardId: cards.b!.id, fromAreaId: areas.A!.id, toAreaId: areas.B!.id, newIndex: 0 },
    });
    await t.inject(user, { method: 'DELETE', url: '/api/data/card', payload: { cardID: cards.c!.id } });
    const fresh = await createCard(t, user, areas.A!.id, 'new');
    expect(fresh.sort).toBe(2);
    expect(await names(t, user, areas.A!.id)).toEqual(['a', 'd', 'new']);
  });

  it('reads one card with its board, labels, reminders and archivedAt; unknown or unreadable → 404', async () => {
    const user = await t.signUp();
    const stranger = await t.signUp();
    const { board, cards } = await seedBoard(t, user, { A: ['x'] });
    await updateCard(t, user, cards.x!.id, { reminders: [60, 5, 60], dueDate: '2026-09-01T10:00:00Z' });
    const res = await t.inject(user, { method: 'GET', url: `/api/data/card?cardID=${cards.x!.id}` });
    expect(res.json().card).toMatchObject({
      id: cards.x!.id,
      boardId: board.id,
      labels: [],
      reminders: [5, 60],
      archivedAt: null,
      checklist: { done: 0, total: 0 },
    });
    expect((await t.inject(stranger, { method: 'GET', url: `/api/data/card?cardID=${cards.x!.id}` })).statusCode).toBe(404);
    expect((await t.inject(user, { method: 'GET', url: '/api/data/card?cardID=999999' })).statusCode).toBe(404);
    expect((await t.inject(user, { method: 'GET', url: '/api/data/card?cardID=x' })).statusCode).toBe(400);
  });

  it('PUT leaves absent fields unchanged and clears with null', async () => {
    const user = await t.signUp();
    const { cards } = await seedBoard(t, user, { A: ['x'] });
    const id = cards.x!.id;
    await updateCard(t, user, id, {
      content: 'text',
      status: 1,
      dueDate: '2026-09-01T10:00:00Z',
      assignee: user.id,
      reminders: [15],
    });
    const renamed = await updateCard(t, user, id, { name: 'renamed' });
    expect(renamed.card).toMatchObject({
      name: 'renamed',
      content: 'text',
      status: 1,
      dueDate: '2026-09-01T10:00:00.000Z',
      assignee: user.id,
      reminders: [15],
    });
    expect(renamed.next).toBeNull();
    const cleared = await updateCard(t, user, id, { dueDate: null, assignee: null, reminders: [] });
    expect(cleared.card).toMatchObject({
      name: 'renamed',
      content: 'text',
      dueDate: null,
      assignees: [],
      assignee: null,
      reminders: [],
    });
  });

  it('keeps assignees in the order they were put on, only people with access', async () => {
    const owner = await t.signUp();
    const a = await t.signUp();
    const b = await t.signUp();
    const outsider = await t.signUp();
    const { board, cards } = await seedBoard(t, owner, { A: ['x'] });
    await share(t, board.id, a, 'read');
    await share(t, board.id, b, 'edit');
    const id = cards.x!.id;
    expect(
      (await updateCard(t, owner, id, { assignees: [b.id, owner.id] })).card.assignees.map((p: { id: string }) => p.id),
    ).toEqual([b.id, owner.id]);
    // Those who stay keep their place; newcomers join at the end.
    expect(
      (await updateCard(t, owner, id, { assignees: [a.id, owner.id, b.id] })).card.assignees.map((p: { id: string }) => p.id),
    ).toEqual([b.id, owner.id, a.id]);
    const before = await snapshot(t);
    const refused = await t.inject(owner, {
      method: 'PUT',
      url: '/api/data/card',
      payload: { cardID: id, assignees: [owner.id, outsider.id], name: 'changed' },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error).toContain('assignees');
    expect(await snapshot(t)).toEqual(before);
  });

  it('refuses a description over 100,000 characters or a name over 255 (400 naming the limit), storing nothing', async () => {
    const user = await t.signUp();
    const { areas, cards } = await seedBoard(t, user, { A: ['x'] });
    const id = cards.x!.id;
    const before = await snapshot(t);
    const long = 'x'.repeat(100_001);
    const refusals = [
      await t.inject(user, {
        method: 'POST',
        url: '/api/data/card',
        payload: { areaId: areas.A!.id, name: 'big', content: long },
      }),
      await t.inject(user, { method: 'PUT', url: '/api/data/card', payload: { cardID: id, content: long } }),
      await t.inject(user, { method: 'PUT', url: '/api/data/card', payload: { cardID: id, content: '😀'.repeat(100_001) } }),
    ];
    for (const res of refusals) expect([res.statusCode, res.json()]).toEqual([400, { error: expect.stringContaining('100000') }]);
    const longName = await t.inject(user, {
      method: 'PUT',
      url: '/api/data/card',
      payload: { cardID: id, name: 'n'.repeat(256) },
    });
    expect([longName.statusCode, longName.json().error]).toEqual([400, expect.stringContaining('255')]);
    expect(await snapshot(t)).toEqual(before);

    // The limit itself is allowed (an emoji is one character).
    expect((await updateCard(t, user, id, { content: '😀'.repeat(100_000) })).card.content).toHaveLength(200_000);
  });

  it('validates PUT input and changes nothing on refusal', async () => {
    const user = await t.signUp();
    const { cards } = await seedBoard(t, user, { A: ['x'] });
    const id = cards.x!.id;
    const before = await snapshot(t);
    const put = (payload: object) => t.inject(user, { method: 'PUT', url: '/api/data/card', payload });
    for (const payload of [
      { cardID: id, repeatEvery: 'fortnight' },
      { cardID: id, repeatEvery: 'week' },
      { cardID: id, status: 2 },
      { cardID: id, status: true },
      { cardID: id, dueDate: 'tomorrow' },
      { cardID: id, name: '' },
      { cardID: id, name: '   ' },
      { cardID: id, reminders: [-5] },
      { cardID: id, labelIds: ['a'] },
      { cardID: 'x', name: 'y' },
      { name: 'y' },
    ]) {
      const res = await put(payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json()).toEqual({ error: expect.any(String) });
    }
    expect((await put({ cardID: 999999, name: 'y' })).statusCode).toBe(404);
    expect(await snapshot(t)).toEqual(before);
  });

  it('marking a repeating card done makes exactly one successor, due on the next date of the series', async () => {
    const user = await t.signUp();
    const { areas, cards } = await seedBoard(t, user, { A: ['weekly', 'other'], B: [] });
    const id = cards.weekly!.id;
    await updateCard(t, user, id, {
      dueDate: '2020-01-06T09:00:00Z',
      repeatEvery: 'week',
      reminders: [30],
      content: '- [x] done item',
    });
    await t.inject(user, {
      method: 'POST',
      url: '/api/data/cardMove',
      payload: { cardId: id, fromAreaId: areas.A!.id, toAreaId: areas.B!.id, newIndex: 0 },
    });
    const done = await Promise.all(
      [1, 2, 3, 4].map(() => t.inject(user, { method: 'PUT', url: '/api/data/card', payload: { cardID: id, status: 1 } })),
    );
    expect(done.every((r) => r.statusCode === 200)).toBe(true);
    const nexts = done.map((r) => r.json().next).filter(Boolean);
    expect(nexts).toHaveLength(1);
    const next = nexts[0];
    // Back in the area where the rhythm was set, at the bottom, checklist unticked, reminders kept.
    expect(next).toMatchObject({
      area: areas.A!.id,
      status: 0,
      content: '- [ ] done item',
      reminders: [30],
      repeatEvery: 'week',
      sort: 1,
    });
    expect(new Date(next.dueDate).getUTCDay()).toBe(1);
    expect(new Date(next.dueDate).getTime()).toBeGreaterThan(Date.now());
    expect(new Date(next.dueDate).getTime() - Date.now()).toBeLessThanOrEqual(7 * 86_400_000);
    const original = (await t.inject(user, { method: 'GET', url: `/api/data/card?cardID=${id}` })).json().card;
    expect(original).toMatchObject({ status: 1, repeatEvery: null });
    // Reopening and closing the old card again makes no second successor.
    await updateCard(t, user, id, { status: 0 });
    expect((await updateCard(t, user, id, { status: 1 })).next).toBeNull();
    expect(
      await t.db
        .selectFrom('cards')
        .select('id')
        .where('boardId', '=', cards.weekly!.boardId ?? next.boardId)
        .execute(),
    ).toHaveLength(3);
  });

  it('archives a card (rows stay, out of every list) and removes one for good', async () => {
    const user = await t.signUp();
    const { areas, cards } = await seedBoard(t, user, { A: ['a', 'b', 'c'], B: [] });
    const archived = await t.inject(user, { method: 'DELETE', url: '/api/data/card', payload: { cardID: cards.b!.id } });
    expect(archived.json()).toEqual({ message: expect.any(String) });
    expect(await names(t, user, areas.A!.id)).toEqual(['a', 'c']);
    const row = await t.db.selectFrom('cards').select('archivedAt').where('id', '=', cards.b!.id).executeTakeFirstOrThrow();
    expect(row.archivedAt).not.toBeNull();
    expect((await t.inject(user, { method: 'GET', url: `/api/data/card?cardID=${cards.b!.id}` })).json().card.archivedAt).toMatch(
      /Z$/,
    );
    expect(
      (await t.inject(user, { method: 'PUT', url: '/api/data/card', payload: { cardID: cards.b!.id, name: 'x' } })).statusCode,
    ).toBe(409);

    const removed = await t.inject(user, {
      method: 'DELETE',
      url: '/api/data/card',
      payload: { cardID: cards.a!.id, permanent: true },
    });
    expect(removed.statusCode).toBe(200);
    expect(await t.db.selectFrom('cards').select('id').where('id', '=', cards.a!.id).execute()).toEqual([]);
    expect(await names(t, user, areas.A!.id)).toEqual(['c']);
    expect((await t.inject(user, { method: 'DELETE', url: '/api/data/card', payload: { cardID: cards.a!.id } })).statusCode).toBe(
      404,
    );
    // The board of a card is remembered for writes; a removed card is still missing to every one of them and to reads.
    for (const [method, url, payload] of [
      ['PUT', '/api/data/card', { cardID: cards.a!.id, name: 'x' }],
      ['POST', '/api/data/cardMove', { cardId: cards.a!.id, fromAreaId: areas.A!.id, toAreaId: areas.A!.id, newIndex: 0 }],
      // Across areas, a move records its history entry before it moves (recordMoveAhead).
      ['POST', '/api/data/cardMove', { cardId: cards.a!.id, fromAreaId: areas.A!.id, toAreaId: areas.B!.id, newIndex: 0 }],
      ['POST', '/api/data/card-duplicate', { cardID: cards.a!.id }],
    ] as const) {
      const res = await t.inject(user, { method, url, payload });
      expect([url, res.statusCode, res.json()]).toEqual([url, 404, { error: 'Card not found' }]);
    }
    expect((await t.inject(user, { method: 'GET', url: `/api/data/comment?cardId=${cards.a!.id}` })).statusCode).toBe(404);
    expect((await t.inject(user, { method: 'DELETE', url: '/api/data/card', payload: {} })).statusCode).toBe(400);
    expect(
      (await t.inject(user, { method: 'DELETE', url: '/api/data/card', payload: { cardID: cards.c!.id, permanent: 'false' } }))
        .statusCode,
    ).toBe(400);
    expect(await names(t, user, areas.A!.id)).toEqual(['c']);
  });
});

async function names(t: TestContext, user: TestUser, areaId: number): Promise<string[]> {
  const res = await t.inject(user, { method: 'GET', url: `/api/data/cards?areaId=${areaId}` });
  const cards = res.json().cards as Array<{ name: string; sort: number }>;
  cards.forEach((c, i) => expect(c.sort).toBe(i));
  return cards.map((c) => c.name);
}
