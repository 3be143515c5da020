import { expect, it } from 'vitest';
import type { MyWork } from '../../../shared/api/my-work.js';
import { createCard, seedBoard, snapshot, updateCard } from '../../../../test/factories.js';
import { eachDialect, type TestUser } from '../../../../test/harness.js';
import { addDays, dayIn, isTimeZone, weekEndOf } from './days.js';

const DAY = 24 * 60 * 60 * 1000;

eachDialect('my work', (t) => {
  const myWork = async (user: TestUser, query = '') => {
    const res = await t.inject(user, { method: 'GET', url: `/api/data/my-work${query}` });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<MyWork>();
  };
  const names = (work: MyWork) =>
    Object.fromEntries(Object.entries(work.groups).map(([g, cards]) => [g, cards.map((c) => c.name)]));
  const label = async (user: TestUser, boardId: number, name: string) => {
    const res = await t.inject(user, { method: 'POST', url: '/api/data/labels', payload: { boardId, name } });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ label: { id: number } }>().label;
  };

  it('groups every open card assigned to me on every board I can read by its due day, with board and area', async () => {
    const me = await t.signUp('Me');
    const friend = await t.signUp('Friend');
    const now = Date.now();
    const mine = await seedBoard(t, me, { Todo: ['late', 'now', 'someday', 'undated', 'not mine', 'done'] }, { name: 'Home' });
    const c = mine.cards;
    for (const name of ['late', 'now', 'someday', 'undated', 'done'])
      await updateCard(t, me, c[name]!.id, { assignees: [me.id] });
    await updateCard(t, me, c.late!.id, { dueDate: new Date(now - 3 * DAY).toISOString() });
    await updateCard(t, me, c.now!.id, { dueDate: new Date(now).toISOString() });
    await updateCard(t, me, c.someday!.id, { dueDate: new Date(now + 40 * DAY).toISOString() });
    await updateCard(t, me, c.done!.id, { status: 1 });

    const shared = await seedBoard(t, friend, { Doing: ['theirs for me'] }, { name: 'Work' });
    await t.inject(friend, {
      method: 'POST',
      url: '/api/data/invite',
      payload: { boardId: shared.board.id, userId: me.id, permission: 'edit' },
    });
    await updateCard(t, friend, shared.cards['theirs for me']!.id, { assignees: [me.id, friend.id] });

    const work = await myWork(me);
    expect(work.timeZone).toBe('UTC');
    expect(work.today).toBe(dayIn(new Date(), 'UTC'));
    expect(names(work)).toEqual({
      overdue: ['late'],
      today: ['now'],
      thisWeek: [],
      later: ['someday'],
      noDate: ['undated', 'theirs for me'],
    });
    expect(work.groups.noDate[1]).toEqual({
      id: shared.cards['theirs for me']!.id,
      name: 'theirs for me',
      boardId: shared.board.id,
      boardName: 'Work',
      areaId: shared.areas.Doing!.id,
      areaName: 'Doing',
      dueDate: null,
      labels: [],
      fields: {},
    });
    expect(work.boards).toEqual([
      { id: mine.board.id, name: 'Home' },
      { id: shared.board.id, name: 'Work' },
    ]);
    expect(work.truncated).toBe(false);
    // The friend sees only their own share.
    expect(names(await myWork(friend)).noDate).toEqual(['theirs for me']);
  });

  it('counts days in the time zone asked for', async () => {
    const me = await t.signUp();
    const { cards } = await seedBoard(t, me, { A: ['edge'] });
    // Due 30 minutes after the next UTC midnight: tomorrow in UTC, but already today 14 hours east.
    const midnight = new Date(`${addDays(dayIn(new Date(), 'UTC'), 1)}T00:30:00Z`);
    await updateCard(t, me, cards.edge!.id, { assignees: [me.id], dueDate: midnight.toISOString() });
    const east = await myWork(me, '?tz=Pacific/Kiritimati');
    expect(east.timeZone).toBe('Pacific/Kiritimati');
    expect(east.today).toBe(dayIn(new Date(), 'Pacific/Kiritimati'));
    const expected = (tz: string) => {
      const today = dayIn(new Date(), tz);
      const day = dayIn(midnight, tz);
      return day === today ? 'today' : day <= weekEndOf(today) ? 'thisWeek' : 'later';
    };
    for (const [tz, work] of [
      ['Pacific/Kiritimati', east],
      ['UTC', await myWork(me, '?tz=UTC')],
    ] as const) {
      const group = Object.entries(work.groups).find(([, list]) => list.length > 0)?.[0];
      expect(group, tz).toBe(expected(tz));
    }
  });

  it('filters by board, label id and label name', async () => {
    const me = await t.signUp();
    const one = await seedBoard(t, me, { A: ['red one', 'plain one'] }, { name: 'One' });
    const two = await seedBoard(t, me, { B: ['red two'] }, { name: 'Two' });
    const red1 = await label(me, one.board.id, 'Red');
    const red2 = await label(me, two.board.id, 'red');
    await updateCard(t, me, one.cards['red one']!.id, { assignees: [me.id], labelIds: [red1.id] });
    await updateCard(t, me, one.cards['plain one']!.id, { assignees: [me.id] });
    await updateCard(t, me, two.cards['red two']!.id, { assignees: [me.id], labelIds: [red2.id] });

    const all = (work: MyWork) => work.groups.noDate.map((c) => c.name);
    expect(all(await myWork(me))).toEqual(['red one', 'plain one', 'red two']);
    expect(all(await myWork(me, `?boardId=${one.board.id}`))).toEqual(['red one', 'plain one']);
    expect(all(await myWork(me, `?labelId=${red2.id}`))).toEqual(['red two']);
    const byName = await myWork(me, '?label=RED');
    expect(all(byName)).toEqual(['red one', 'red two']);
    expect(byName.groups.noDate[0]!.labels).toEqual([{ id: red1.id, name: 'Red' }]);
    // The choices stay those of all my cards, whatever the filter.
    expect(byName.labels).toHaveLength(1);
    expect(byName.boards.map((b) => b.name)).toEqual(['One', 'Two']);
    expect(all(await myWork(me, `?boardId=${two.board.id}&label=red`))).toEqual(['red two']);
  });

  it('never shows a card on a board I cannot read, nor archived cards, areas or boards', async () => {
    const me = await t.signUp();
    const stranger = await t.signUp();
    const friend = await t.signUp();
    // An assignment left on a private board that is not mine: access decides, not the assignment.
    const secret = await seedBoard(t, stranger, { S: ['secret'] }, { status: 'private' });
    await t.db
      .insertInto('card_assignees')
      .values({ cardId: secret.cards.secret!.id as number, userId: me.id, createdAt: new Date().toISOString() })
      .execute();
    // Once a public board is readable by anyone, its assigned cards show.
    const open = await seedBoard(t, stranger, { P: ['public one'] }, { status: 'public' });
    await t.db
      .insertInto('card_assignees')
      .values({ cardId: open.cards['public one']!.id as number, userId: me.id, createdAt: new Date().toISOString() })
      .execute();
    // Removed from a board: its cards go.
    const shared = await seedBoard(t, friend, { F: ['was shared'] });
    await t.inject(friend, {
      method: 'POST',
      url: '/api/data/invite',
      payload: { boardId: shared.board.id, userId: me.id, permission: 'edit' },
    });
    await updateCard(t, friend, shared.cards['was shared']!.id, { assignees: [me.id] });
    expect((await myWork(me)).groups.noDate.map((c) => c.name)).toContain('was shared');
    await t.inject(friend, { method: 'DELETE', url: `/api/data/invite?boardId=${shared.board.id}&userId=${me.id}` });

    const { board, areas, cards } = await seedBoard(t, me, { A: ['kept', 'archived card'], B: ['in archived area'] });
    const other = await seedBoard(t, me, { C: ['on archived board'] });
    for (const card of [...Object.values(cards), other.cards['on archived board']!]) {
      await updateCard(t, me, card.id as number, { assignees: [me.id] });
    }
    await t.inject(me, { method: 'DELETE', url: '/api/data/card', payload: { cardID: cards['archived card']!.id } });
    await t.inject(me, { method: 'DELETE', url: `/api/data/area?id=${areas.B!.id}&boardId=${board.id}` });
    await t.inject(me, { method: 'DELETE', url: `/api/data/board?id=${other.board.id}&userId=${me.id}` });

    const work = await myWork(me);
    expect(work.groups.noDate.map((c) => c.name).sort()).toEqual(['kept', 'public one']);
    expect(work.boards.map((b) => b.id).sort()).toEqual([board.id, open.board.id].sort());
    // Asking for the unreadable board by id is the same 404 as a missing board.
    const refused = await t.inject(me, { method: 'GET', url: `/api/data/my-work?boardId=${secret.board.id}` });
    expect(refused.statusCode).toBe(404);
    expect(refused.json()).toEqual({ error: 'Board not found' });
  });

  it('documents its filters and groups in the OpenAPI document', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json<{
      paths: Record<string, { get: { parameters: Array<{ name: string; in: string }>; responses: Record<string, unknown> } }>;
    }>();
    const route = doc.paths['/api/data/my-work']!.get;
    expect(route.parameters.map((p) => `${p.in}:${p.name}`).sort()).toEqual([
      'query:boardId',
      'query:label',
      'query:labelId',
      'query:tz',
    ]);
    expect(JSON.stringify(route.responses['200'])).toContain('thisWeek');
  });

  it('refuses a bad time zone, a bad id and no credential, changing nothing', async () => {
    const me = await t.signUp();
    const { cards } = await seedBoard(t, me, { A: ['x'] });
    await createCard(t, me, cards.x!.area as number, 'y');
    const before = await snapshot(t);
    for (const query of [
      '?tz=Mars/Olympus_Mons',
      '?tz=..%2F..',
      '?tz=',
      '?boardId=0',
      '?boardId=abc',
      '?labelId=-1',
      '?label=',
    ]) {
      const res = await t.inject(me, { method: 'GET', url: `/api/data/my-work${query}` });
      expect(res.statusCode, query).toBe(400);
      expect(res.json(), query).toHaveProperty('error');
    }
    expect((await t.inject(me, { method: 'GET', url: '/api/data/my-work?boardId=2147483647' })).statusCode).toBe(404);
    expect((await t.inject(null, { method: 'GET', url: '/api/data/my-work' })).statusCode).toBe(403);
    expect(await snapshot(t)).toEqual(before);
  });
});

it('counts days and weeks in a time zone', () => {
  expect(dayIn(new Date('2026-11-25T23:30:00Z'), 'UTC')).toBe('2026-11-25');
  expect(dayIn(new Date('2026-11-25T23:30:00Z'), 'Europe/Berlin')).toBe('2026-11-26');
  expect(dayIn(new Date('2026-11-25T03:30:00Z'), 'America/New_York')).toBe('2026-11-24');
  expect(weekEndOf('2026-11-25')).toBe('2026-11-29'); // a Wednesday
  expect(weekEndOf('2026-11-29')).toBe('2026-11-29'); // Sunday ends its own week
  expect(weekEndOf('2026-11-30')).toBe('2026-12-06');
  expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
  expect(isTimeZone('Europe/Berlin')).toBe(true);
  expect(isTimeZone('Mars/Olympus_Mons')).toBe(false);
});
