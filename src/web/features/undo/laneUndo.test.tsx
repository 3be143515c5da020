import { afterEach, describe, expect, test, vi } from 'vitest';
import { keys } from '../../api/queries';
import type { Area, Card, CardListItem, Person } from '../../api/types';
import { toast } from '../../app/toast';
import { cardListItem } from '../../test/fixtures';
import { mockFetch, testQueryClient, type Call } from '../../test/render';
import { laneMove } from '../board/lanes/api';
import { redoLast, undoLast } from './actions';
import { undoStackOf } from './stack';

/**
 * A card taken to another lane and area in the lanes view is one undo step:
 * undo moves it back and puts its value back, redo does both again, and a
 * change by someone else since stops it.
 */

let nextBoard = 500;
const bob: Person = { id: 'u-bob', name: 'Bob', type: 'human', image: null };

function setup(server: (areas: { todo: number }) => Partial<Card> = () => ({})) {
  const boardId = nextBoard++;
  const [todo, doing] = [boardId * 10, boardId * 10 + 1];
  const qc = testQueryClient();
  const card = {
    ...cardListItem({ id: boardId * 100, area: todo, name: 'Beta' }),
    boardId,
    html: '',
    reminders: [],
    archivedAt: null,
  } as Card;
  const other = cardListItem({ id: boardId * 100 + 1, area: doing, name: 'Gamma' });
  qc.setQueryData<Area[]>(keys.areas(boardId), [
    { id: todo, board: boardId, name: 'Todo', sort: 0, wipLimit: null },
    { id: doing, board: boardId, name: 'Doing', sort: 1, wipLimit: null },
  ]);
  qc.setQueryData<CardListItem[]>(keys.cards(todo), [card]);
  qc.setQueryData<CardListItem[]>(keys.cards(doing), [other]);
  // What the server holds: each write is applied to it; `server` overrides what a GET answers (someone else's change).
  let held: Card = { ...card };
  const fetch = mockFetch((call: Call) => {
    const body = call.body as Record<string, unknown>;
    if (call.path === '/api/data/card' && call.method === 'PUT') {
      const ids = body.assignees as string[] | undefined;
      if (ids) held = { ...held, assignees: ids.map((id) => (id === bob.id ? bob : { ...bob, id, name: id })) };
      return { body: { card: held, next: null } };
    }
    if (call.path === '/api/data/cardMove') {
      held = { ...held, area: body.toAreaId as number };
      return { body: {} };
    }
    if (call.path === '/api/data/card') return { body: { card: { ...held, ...server({ todo }) } } };
    if (call.path === '/api/data/board-history') return { body: { entries: [] } };
    return undefined;
  });
  const writes = () => fetch.writes().map((c) => [c.path, c.body]);
  return { qc, boardId, card, todo, doing, fetch, writes, held: () => held };
}

afterEach(() => vi.restoreAllMocks());

describe('undo of a lane move', () => {
  test('one step: undo moves the card back, then puts its value back; redo sends both again', async () => {
    const info = vi.spyOn(toast, 'info');
    const { qc, boardId, card, todo, doing, writes, held } = setup();
    await laneMove(qc, boardId, card, { assignees: [bob] }, { toAreaId: doing, index: 0 });
    expect(held()).toMatchObject({ area: doing, assignees: [bob] });
    expect(undoStackOf(boardId).sizes).toEqual({ undo: 1, redo: 0 });
    // The same toast as a plain move to another area, with its Undo.
    expect(info).toHaveBeenCalledWith('“Beta” moved to Doing', expect.objectContaining({ label: 'Undo' }));

    expect((await undoLast(boardId)).kind).toBe('done');
    expect(writes().slice(2)).toEqual([
      ['/api/data/cardMove', { cardId: card.id, fromAreaId: doing, toAreaId: todo, newIndex: 0 }],
      ['/api/data/card', { cardID: card.id, assignees: [] }],
    ]);
    expect(held()).toMatchObject({ area: todo, assignees: [] });
    expect(qc.getQueryData<CardListItem[]>(keys.cards(todo))?.map((c) => c.id)).toEqual([card.id]);

    expect((await redoLast(boardId)).kind).toBe('done');
    expect(writes().slice(4)).toEqual([
      ['/api/data/card', { cardID: card.id, assignees: [bob.id] }],
      ['/api/data/cardMove', { cardId: card.id, fromAreaId: todo, toAreaId: doing, newIndex: 0 }],
    ]);
    expect(held()).toMatchObject({ area: doing, assignees: [bob] });
    expect(undoStackOf(boardId).sizes).toEqual({ undo: 1, redo: 0 });
  });

  test('someone else changed the lane value since: nothing is sent back', async () => {
    const { qc, boardId, card, doing, writes } = setup(() => ({ assignees: [] }));
    await laneMove(qc, boardId, card, { assignees: [bob] }, { toAreaId: doing, index: 0 });
    expect(await undoLast(boardId)).toMatchObject({ kind: 'conflict' });
    expect(writes()).toHaveLength(2);
    expect(undoStackOf(boardId).sizes).toEqual({ undo: 0, redo: 0 });
  });

  test('someone else moved the card since: nothing is sent back either', async () => {
    const { qc, boardId, card, doing, writes } = setup(({ todo }) => ({ area: todo }));
    await laneMove(qc, boardId, card, { assignees: [bob] }, { toAreaId: doing, index: 0 });
    expect(await undoLast(boardId)).toMatchObject({ kind: 'conflict' });
    expect(writes()).toHaveLength(2);
  });

  test('a refused move is no step at all', async () => {
    const { qc, boardId, card, doing } = setup();
    const refuse = mockFetch((call) =>
      call.path === '/api/data/cardMove'
        ? { status: 403, body: { error: 'No' } }
        : { body: { card: { ...card, assignees: [bob] } } },
    );
    await laneMove(qc, boardId, card, { assignees: [bob] }, { toAreaId: doing, index: 0 });
    expect(refuse.writes().map((c) => c.path)).toEqual(['/api/data/card', '/api/data/cardMove', '/api/data/card']);
    expect(undoStackOf(boardId).sizes).toEqual({ undo: 0, redo: 0 });
  });
});
