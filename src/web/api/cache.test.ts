import { QueryClient } from '@tanstack/react-query';
import { beforeEach, describe, expect, test } from 'vitest';
import { moveCardInCache, removeCard, updatePerson, upsertArea, upsertCard, upsertComment } from './cache';
import { keys } from './queries';
import type { Area, Card, CardListItem, Comment } from './types';
import { cardListItem } from '../test/fixtures';

/** The cache edits that optimistic writes and realtime events share: what the board shows after each. */

const BOARD = 1;
const TODO = 10;
const DOING = 20;

function card(id: number, area: number, fields: Partial<CardListItem> = {}): CardListItem {
  return cardListItem({ id, area, ...fields });
}

let qc: QueryClient;
const names = (areaId: number) => qc.getQueryData<CardListItem[]>(keys.cards(areaId))?.map((c) => c.name);

beforeEach(() => {
  qc = new QueryClient();
  qc.setQueryData<Area[]>(keys.areas(BOARD), [
    { id: TODO, board: BOARD, name: 'To do', sort: 0, wipLimit: null },
    { id: DOING, board: BOARD, name: 'Doing', sort: 1, wipLimit: null },
  ]);
  qc.setQueryData(keys.cards(TODO), [card(1, TODO), card(2, TODO), card(3, TODO)]);
  qc.setQueryData(keys.cards(DOING), [card(4, DOING)]);
});

describe('a card moved', () => {
  test('to another area leaves its old one and shows at the index asked for', () => {
    moveCardInCache(qc, BOARD, card(2, TODO), DOING, 0);
    expect(names(TODO)).toEqual(['Card 1', 'Card 3']);
    expect(names(DOING)).toEqual(['Card 2', 'Card 4']);
    expect(qc.getQueryData<CardListItem[]>(keys.cards(DOING))?.[0]?.area).toBe(DOING);
  });

  test('twice (my move, then its echo from the socket) shows once, where it was put', () => {
    moveCardInCache(qc, BOARD, card(1, TODO), DOING, 1);
    moveCardInCache(qc, BOARD, card(1, DOING), DOING, 1);
    expect(names(TODO)).toEqual(['Card 2', 'Card 3']);
    expect(names(DOING)).toEqual(['Card 4', 'Card 1']);
  });

  test('while its dialog is open changes the area the dialog shows', () => {
    qc.setQueryData<Card>(keys.card(3), { ...card(3, TODO), boardId: BOARD, html: '', reminders: [], archivedAt: null });
    moveCardInCache(qc, BOARD, card(3, TODO), DOING, 5);
    expect(qc.getQueryData<Card>(keys.card(3))?.area).toBe(DOING);
    expect(names(DOING)).toEqual(['Card 4', 'Card 3']);
  });
});

describe('a changed card', () => {
  test('is replaced where it stands, and the others keep their place', () => {
    upsertCard(qc, BOARD, card(2, TODO, { name: 'Renamed', status: 1 }));
    expect(names(TODO)).toEqual(['Card 1', 'Renamed', 'Card 3']);
  });

  test('that the list does not hold yet (someone else made it) appears at its position', () => {
    upsertCard(qc, BOARD, card(9, TODO, { name: 'New', sort: 1 }));
    upsertCard(qc, BOARD, card(9, TODO, { name: 'New', sort: 1 }));
    expect(names(TODO)).toEqual(['Card 1', 'New', 'Card 2', 'Card 3']);
  });

  test('removed goes from its area, and removing it again changes nothing', () => {
    removeCard(qc, TODO, 2);
    removeCard(qc, TODO, 2);
    expect(names(TODO)).toEqual(['Card 1', 'Card 3']);
  });
});

test('a new area shows at its position, a renamed one keeps its place', () => {
  upsertArea(qc, { id: 30, board: BOARD, name: 'Review', sort: 1, wipLimit: null });
  upsertArea(qc, { id: TODO, board: BOARD, name: 'Backlog', sort: 0, wipLimit: null });
  expect(qc.getQueryData<Area[]>(keys.areas(BOARD))?.map((a) => a.name)).toEqual(['Backlog', 'Review', 'Doing']);
});

test('a comment added twice (my answer and its echo) shows once; an edit replaces it', () => {
  qc.setQueryData<Comment[]>(keys.comments(1), []);
  const comment: Comment = {
    id: 7,
    author: { id: 'u-1', name: 'Ann', image: null },
    authorName: 'Ann',
    content: 'First',
    html: '<p>First</p>',
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
  };
  upsertComment(qc, 1, comment);
  upsertComment(qc, 1, comment);
  upsertComment(qc, 1, { ...comment, content: 'Edited' });
  expect(qc.getQueryData<Comment[]>(keys.comments(1))?.map((c) => c.content)).toEqual(['Edited']);
});

test('a person’s new name shows on every card they are on and on their comments', () => {
  const ann = { id: 'u-1', name: 'Ann', image: null, type: 'human' };
  qc.setQueryData(keys.cards(DOING), [
    card(4, DOING, { assignees: [ann], assignee: ann.id, assigneeName: ann.name }),
    card(5, DOING),
  ]);
  qc.setQueryData<Comment[]>(keys.comments(4), [
    {
      id: 1,
      author: { id: 'u-1', name: 'Ann', image: null },
      authorName: 'Ann',
      content: 'x',
      html: '',
      createdAt: '',
      updatedAt: '',
    },
  ]);
  updatePerson(qc, BOARD, { id: 'u-1', name: 'Ann Berg', image: '/api/data/avatar/a.png' });
  const [first, second] = qc.getQueryData<CardListItem[]>(keys.cards(DOING))!;
  expect(first?.assignees[0]).toMatchObject({ name: 'Ann Berg', image: '/api/data/avatar/a.png', type: 'human' });
  expect(first?.assigneeName).toBe('Ann Berg');
  expect(second?.assignees).toEqual([]);
  expect(qc.getQueryData<Comment[]>(keys.comments(4))?.[0]).toMatchObject({
    authorName: 'Ann Berg',
    author: { name: 'Ann Berg' },
  });
});
