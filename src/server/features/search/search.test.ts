import { expect, it } from 'vitest';
import { seedBoard, updateCard } from '../../../../test/factories.js';
import { eachDialect, type TestUser } from '../../../../test/harness.js';
import { searchTerms } from './search.service.js';

eachDialect('search', (t) => {
  const search = async (user: TestUser, q: string) => {
    const res = await t.inject(user, { method: 'GET', url: `/api/data/search?q=${encodeURIComponent(q)}` });
    expect(res.statusCode).toBe(200);
    return res.json().cards as Array<{ id: number; name: string; boardId: number; boardName: string; areaName: string }>;
  };

  it('finds a word in names and descriptions on my boards and boards shared with me, never elsewhere', async () => {
    const me = await t.signUp();
    const friend = await t.signUp();
    const stranger = await t.signUp();
    const mine = await seedBoard(t, me, { Todo: ['Buy zucchini', 'Call the plumber'] }, { name: 'Home' });
    await updateCard(t, me, mine.cards['Call the plumber']!.id, { content: 'The zucchini bed leaks' });
    const shared = await seedBoard(t, friend, { Ideas: ['Zucchini bread'] }, { name: 'Kitchen' });
    await t.inject(friend, {
      method: 'POST',
      url: '/api/data/invite',
      payload: { boardId: shared.board.id, userId: me.id, permission: 'read' },
    });
    await seedBoard(t, stranger, { Secret: ['zucchini plans'] }, { name: 'Not yours', status: 'public' });

    const hits = await search(me, 'ZUCCHINI');
    expect(hits.map((h) => h.name).sort()).toEqual(['Buy zucchini', 'Call the plumber', 'Zucchini bread']);
    expect(hits.find((h) => h.name === 'Zucchini bread')).toEqual({
      id: shared.cards['Zucchini bread']!.id,
      name: 'Zucchini bread',
      boardId: shared.board.id,
      boardName: 'Kitchen',
      areaName: 'Ideas',
      fields: {},
    });
    // A hit in the name ranks above a hit in the description.
    expect(hits.findIndex((h) => h.name === 'Call the plumber')).toBeGreaterThan(
      hits.findIndex((h) => h.name === 'Buy zucchini'),
    );
    // Every word must match; words match as prefixes.
    expect((await search(me, 'zucc bed')).map((h) => h.name)).toEqual(['Call the plumber']);
    expect(await search(me, 'zucchini nothing')).toEqual([]);
  });

  it('follows a card renamed, described again and moved: what it is called now, wherever it stands', async () => {
    const me = await t.signUp();
    const { areas, cards } = await seedBoard(t, me, { A: ['Gnocchi recipe', 'Other'], B: ['Third'] });
    const id = cards['Gnocchi recipe']!.id;
    await updateCard(t, me, id, { name: 'Risotto recipe', content: 'saffron' });
    expect(await search(me, 'gnocchi')).toEqual([]);
    expect((await search(me, 'risotto saffron')).map((h) => h.id)).toEqual([id]);
    const moved = await t.inject(me, {
      method: 'POST',
      url: '/api/data/cardMove',
      payload: { cardId: id, fromAreaId: areas.A!.id, toAreaId: areas.B!.id, newIndex: 0 },
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect((await search(me, 'risotto')).map((h) => [h.id, h.areaName])).toEqual([[id, 'B']]);
    await updateCard(t, me, id, { content: 'arborio' });
    expect(await search(me, 'saffron')).toEqual([]);
    expect((await search(me, 'risotto arborio')).map((h) => h.id)).toEqual([id]);
  });

  it('never shows archived cards, cards of archived areas or of archived boards', async () => {
    const me = await t.signUp();
    const { board, areas, cards } = await seedBoard(t, me, { A: ['walrus one', 'walrus two'], B: ['walrus three'] });
    const other = await seedBoard(t, me, { C: ['walrus four'] });
    expect(await search(me, 'walrus')).toHaveLength(4);
    await t.inject(me, { method: 'DELETE', url: '/api/data/card', payload: { cardID: cards['walrus one']!.id } });
    await t.inject(me, { method: 'DELETE', url: `/api/data/area?id=${areas.B!.id}&boardId=${board.id}` });
    await t.inject(me, { method: 'DELETE', url: `/api/data/board?id=${other.board.id}&userId=${me.id}` });
    expect((await search(me, 'walrus')).map((h) => h.name)).toEqual(['walrus two']);
  });

  it('treats query syntax as plain words and needs a query', async () => {
    const me = await t.signUp();
    await seedBoard(t, me, { A: ['quote "this" OR that*', 'NEAR(a b)'] });
    for (const q of ['"', 'OR', '*', 'NEAR(', "'; drop table cards; --", ':*', '&|!']) {
      const res = await t.inject(me, { method: 'GET', url: `/api/data/search?q=${encodeURIComponent(q)}` });
      expect(res.statusCode, q).toBe(200);
    }
    expect((await search(me, 'this OR')).map((h) => h.name)).toEqual(['quote "this" OR that*']);
    expect(await search(me, '   ')).toEqual([]);
    expect((await t.inject(me, { method: 'GET', url: '/api/data/search' })).statusCode).toBe(400);
    expect((await t.inject(null, { method: 'GET', url: '/api/data/search?q=x' })).statusCode).toBe(403);
  });
});

it('splits a query into plain lower-case words', () => {
  expect(searchTerms('  Äpfel, "Birnen" OR x*y  ')).toEqual(['äpfel', 'birnen', 'or', 'x', 'y']);
});
