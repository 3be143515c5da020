import { queryOptions, replaceEqualDeep, type QueryClient } from '@tanstack/react-query';
import { api } from './client';
import type {
  Field,
  ActivityEntry,
  Area,
  Board,
  BoardWithAccess,
  Card,
  CardListItem,
  Comment,
  InviteList,
  Label,
  Session,
} from './types';

/** Every query key of the app, in one place: realtime events and mutations patch these. */
export const keys = {
  session: ['session'] as const,
  boards: (kind: 'owned' | 'shared') => ['boards', kind] as const,
  board: (id: number) => ['board', id] as const,
  areas: (boardId: number) => ['areas', boardId] as const,
  cards: (areaId: number) => ['cards', areaId] as const,
  card: (cardId: number) => ['card', cardId] as const,
  labels: (boardId: number) => ['labels', boardId] as const,
  fields: (boardId: number) => ['fields', boardId] as const,
  members: (boardId: number) => ['members', boardId] as const,
  comments: (cardId: number) => ['comments', cardId] as const,
  activity: (cardId: number) => ['activity', cardId] as const,
};

export const sessionQuery = queryOptions({
  queryKey: keys.session,
  queryFn: () => api<Session | null>('/api/auth/get-session'),
  staleTime: 5 * 60_000,
});

export const boardsQuery = (kind: 'owned' | 'shared') =>
  queryOptions({
    queryKey: keys.boards(kind),
    queryFn: async () =>
      (await api<{ boards: Board[] }>('/api/data/boards', { method: 'POST', body: { shared: kind === 'shared' } })).boards,
  });

/** A board and whether I may change it. */
export type BoardData = BoardWithAccess;

export const boardQuery = (id: number, userId: string) =>
  queryOptions({
    queryKey: keys.board(id),
    queryFn: () => api<BoardData>('/api/data/board', { query: { id, userId } }),
  });

export const areasQuery = (boardId: number) =>
  queryOptions({
    queryKey: keys.areas(boardId),
    queryFn: async () => (await api<{ areas: Area[] }>('/api/data/areas', { query: { boardId } })).areas,
  });

/**
 * Structural sharing by card id instead of by position: after a card is
 * inserted or removed, the cards behind it keep their identity (position-wise
 * sharing would copy every shifted card and re-render every tile behind it).
 */
function shareCardsById(previous: unknown, next: unknown): unknown {
  if (!Array.isArray(previous) || !Array.isArray(next)) return next;
  const old = new Map((previous as CardListItem[]).map((card) => [card.id, card]));
  let same = previous.length === next.length;
  const shared = (next as CardListItem[]).map((card, index) => {
    const before = old.get(card.id);
    const kept = before ? replaceEqualDeep(before, card) : card;
    if (kept !== previous[index]) same = false;
    return kept;
  });
  return same ? previous : shared;
}

export const cardsQuery = (areaId: number) =>
  queryOptions({
    queryKey: keys.cards(areaId),
    queryFn: async () => (await api<{ cards: CardListItem[] }>('/api/data/cards', { query: { areaId } })).cards,
    structuralSharing: shareCardsById,
  });

export const cardQuery = (cardId: number) =>
  queryOptions({
    queryKey: keys.card(cardId),
    queryFn: async () => (await api<{ card: Card }>('/api/data/card', { query: { cardID: cardId } })).card,
  });

export const fieldsQuery = (boardId: number) =>
  queryOptions({
    queryKey: keys.fields(boardId),
    queryFn: async () => (await api<{ fields: Field[] }>('/api/data/fields', { query: { boardId } })).fields,
  });

export const labelsQuery = (boardId: number) =>
  queryOptions({
    queryKey: keys.labels(boardId),
    queryFn: async () => (await api<{ labels: Label[] }>('/api/data/labels', { query: { boardId } })).labels,
  });

export const membersQuery = (boardId: number) =>
  queryOptions({
    queryKey: keys.members(boardId),
    queryFn: () => api<InviteList>('/api/data/invite', { query: { boardId } }),
  });

export const commentsQuery = (cardId: number) =>
  queryOptions({
    queryKey: keys.comments(cardId),
    queryFn: async () => (await api<{ comments: Comment[] }>('/api/data/comment', { query: { cardId } })).comments,
  });

export const activityQuery = (cardId: number) =>
  queryOptions({
    queryKey: keys.activity(cardId),
    queryFn: async () =>
      (await api<{ activity: ActivityEntry[] }>('/api/data/card-activity', { query: { cardID: cardId } })).activity,
  });

/** The areas of a board and then all their cards, into the cache (failures are left to the page's own queries). */
export async function prefetchBoard(qc: QueryClient, boardId: number): Promise<void> {
  try {
    const areas = await qc.fetchQuery({ ...areasQuery(boardId), retry: false });
    await Promise.all(areas.map((area) => qc.prefetchQuery(cardsQuery(area.id))));
  } catch {
    qc.removeQueries({ queryKey: keys.areas(boardId), exact: true });
  }
}
