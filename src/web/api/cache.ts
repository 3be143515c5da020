import type { QueryClient } from '@tanstack/react-query';
import { keys, type BoardData } from './queries';
import type { Area, Board, Card, CardListItem, Comment, Field } from './types';

/**
 * Edits of the query cache shared by optimistic mutations and realtime events.
 * Each is idempotent (applying the same change twice gives the same lists), so
 * the echo of my own change from the socket is harmless. The order of an
 * area's array is the truth on screen; the `sort` numbers of cards are not
 * rewritten, so that unchanged cards keep their identity and their tiles do
 * not re-render.
 */

export function getCards(qc: QueryClient, areaId: number): CardListItem[] | undefined {
  return qc.getQueryData<CardListItem[]>(keys.cards(areaId));
}

export function setCards(qc: QueryClient, areaId: number, update: (cards: CardListItem[]) => CardListItem[]): void {
  qc.setQueryData<CardListItem[]>(keys.cards(areaId), (old) => (old ? update(old) : old));
}

/** The area currently holding a card on the board, as far as the cache knows. */
export function findCardArea(qc: QueryClient, boardId: number, cardId: number): number | undefined {
  for (const area of qc.getQueryData<Area[]>(keys.areas(boardId)) ?? []) {
    if (getCards(qc, area.id)?.some((c) => c.id === cardId)) return area.id;
  }
  return undefined;
}

function insertAt<T>(list: T[], index: number, item: T): T[] {
  const at = Math.max(0, Math.min(index, list.length));
  return [...list.slice(0, at), item, ...list.slice(at)];
}

/** A card of the board, wherever the cache holds it. */
export function findCard(qc: QueryClient, boardId: number, cardId: number): CardListItem | undefined {
  const areaId = findCardArea(qc, boardId, cardId);
  return areaId === undefined ? undefined : getCards(qc, areaId)?.find((c) => c.id === cardId);
}

/** Someone's new name or picture, on every card of the board they are on and on their comments. */
export function updatePerson(qc: QueryClient, boardId: number, person: { id: string; name: string; image: string | null }): void {
  for (const area of qc.getQueryData<Area[]>(keys.areas(boardId)) ?? []) {
    setCards(qc, area.id, (cards) =>
      cards.some((c) => c.assignees.some((a) => a.id === person.id)) ? cards.map((c) => withPerson(c, person)) : cards,
    );
  }
  for (const query of qc.getQueryCache().findAll({ queryKey: ['card'] })) {
    const card = query.state.data as Card | undefined;
    if (card?.boardId === boardId) qc.setQueryData(query.queryKey, withPerson(card, person));
  }
  for (const query of qc.getQueryCache().findAll({ queryKey: ['comments'] })) {
    const comments = query.state.data as Comment[] | undefined;
    if (!comments?.some((c) => c.author?.id === person.id)) continue;
    qc.setQueryData(
      query.queryKey,
      comments.map((c) =>
        c.author?.id === person.id ? { ...c, author: { ...c.author, ...person }, authorName: person.name } : c,
      ),
    );
  }
}

function withPerson<T extends CardListItem>(card: T, person: { id: string; name: string; image: string | null }): T {
  if (!card.assignees.some((a) => a.id === person.id)) return card;
  const assignees = card.assignees.map((a) => (a.id === person.id ? { ...a, name: person.name, image: person.image } : a));
  const first = assignees[0];
  return { ...card, assignees, assigneeName: first?.name ?? null, assigneeImage: first?.image ?? null };
}

/** Puts a card at `index` of `toAreaId`, taking it out of wherever it was on the board. */
export function moveCardInCache(qc: QueryClient, boardId: number, card: CardListItem, toAreaId: number, index: number): void {
  const placed = card.area === toAreaId ? card : { ...card, area: toAreaId };
  for (const area of qc.getQueryData<Area[]>(keys.areas(boardId)) ?? []) {
    if (area.id === toAreaId) continue;
    const list = getCards(qc, area.id);
    if (list?.some((c) => c.id === card.id)) setCards(qc, area.id, (cards) => cards.filter((c) => c.id !== card.id));
  }
  setCards(qc, toAreaId, (cards) => {
    const without = cards.filter((c) => c.id !== card.id);
    const current = cards.findIndex((c) => c.id === card.id);
    if (current === index && cards[current] === placed && without.length === cards.length - 1) return cards;
    return insertAt(without, index, placed);
  });
  patchCardDetail(qc, placed);
}

/** A changed card: replaced where it stands; placed at its `sort` if the list does not hold it yet. */
export function upsertCard(qc: QueryClient, boardId: number, card: CardListItem): void {
  const list = getCards(qc, card.area);
  const index = list?.findIndex((c) => c.id === card.id) ?? -1;
  if (list && index >= 0) {
    setCards(qc, card.area, (cards) => cards.map((c) => (c.id === card.id ? card : c)));
    patchCardDetail(qc, card);
  } else {
    moveCardInCache(qc, boardId, card, card.area, card.sort);
  }
}

export function removeCard(qc: QueryClient, areaId: number, cardId: number): void {
  setCards(qc, areaId, (cards) => (cards.some((c) => c.id === cardId) ? cards.filter((c) => c.id !== cardId) : cards));
}

/** Keeps an open card dialog in step with a list-shaped change. */
export function patchCardDetail(qc: QueryClient, card: CardListItem | Card): void {
  qc.setQueryData<Card>(keys.card(card.id), (old) => (old ? { ...old, ...card } : 'boardId' in card ? card : old));
}

export function setAreas(qc: QueryClient, boardId: number, update: (areas: Area[]) => Area[]): void {
  qc.setQueryData<Area[]>(keys.areas(boardId), (old) => (old ? update(old) : old));
}

export function upsertArea(qc: QueryClient, area: Area): void {
  setAreas(qc, area.board, (areas) => {
    const index = areas.findIndex((a) => a.id === area.id);
    if (index >= 0) return areas.map((a) => (a.id === area.id ? area : a));
    return insertAt(areas, area.sort, area);
  });
}

/** A board's new settings, wherever the cache shows it. */
export function applyBoard(qc: QueryClient, board: Board): void {
  for (const kind of ['owned', 'shared'] as const) {
    qc.setQueryData<Board[]>(keys.boards(kind), (old) => old?.map((b) => (b.id === board.id ? board : b)));
  }
  qc.setQueryData<BoardData>(keys.board(board.id), (old) => (old ? { ...old, board } : old));
}

/** A board off the dashboard's lists (archived, left, or no longer shared with me). */
export function dropBoard(qc: QueryClient, boardId: number): void {
  for (const kind of ['owned', 'shared'] as const) {
    qc.setQueryData<Board[]>(keys.boards(kind), (old) => old?.filter((b) => b.id !== boardId));
  }
}

export function upsertComment(qc: QueryClient, cardId: number, comment: Comment): void {
  qc.setQueryData<Comment[]>(keys.comments(cardId), (old) => {
    if (!old) return old;
    return old.some((c) => c.id === comment.id) ? old.map((c) => (c.id === comment.id ? comment : c)) : [...old, comment];
  });
}

export function dropComment(qc: QueryClient, cardId: number, commentId: number): void {
  qc.setQueryData<Comment[]>(keys.comments(cardId), (old) => old?.filter((c) => c.id !== commentId));
}

/** Every query about one board's content (for a refetch after a gap). */
export function invalidateBoard(qc: QueryClient, boardId: number): Promise<void> {
  const areaIds = (qc.getQueryData<Area[]>(keys.areas(boardId)) ?? []).map((a) => a.id);
  return Promise.all([
    qc.invalidateQueries({ queryKey: keys.board(boardId) }),
    qc.invalidateQueries({ queryKey: keys.areas(boardId) }),
    qc.invalidateQueries({ queryKey: keys.labels(boardId) }),
    ...areaIds.map((id) => qc.invalidateQueries({ queryKey: keys.cards(id) })),
    qc.invalidateQueries({ queryKey: ['card'] }),
    qc.invalidateQueries({ queryKey: ['comments'] }),
    qc.invalidateQueries({ queryKey: ['activity'] }),
  ]).then(() => undefined);
}

/** A new or changed field, in its place; the fields it passed keep theirs until their own events arrive. */
export function upsertField(qc: QueryClient, boardId: number, field: Field): void {
  qc.setQueryData<Field[]>(keys.fields(boardId), (old) =>
    old ? [...old.filter((f) => f.id !== field.id), field].sort((a, b) => a.sort - b.sort || a.id - b.id) : old,
  );
}

/** A removed field, with every cached card's value for it. */
export function dropField(qc: QueryClient, boardId: number, fieldId: number): void {
  qc.setQueryData<Field[]>(keys.fields(boardId), (old) => old?.filter((f) => f.id !== fieldId));
  const key = String(fieldId);
  const without = <T extends CardListItem>(card: T): T => {
    if (!(key in card.fields)) return card;
    const { [key]: _gone, ...fields } = card.fields;
    return { ...card, fields };
  };
  for (const area of qc.getQueryData<Area[]>(keys.areas(boardId)) ?? []) {
    setCards(qc, area.id, (cards) => (cards.some((c) => key in c.fields) ? cards.map(without) : cards));
  }
  for (const query of qc.getQueryCache().findAll({ queryKey: ['card'] })) {
    const card = query.state.data as Card | undefined;
    if (card?.boardId === boardId && key in card.fields) qc.setQueryData(query.queryKey, without(card));
  }
}
