import { queryOptions } from '@tanstack/react-query';
import { api } from './client';
import type { ActivityEntry, Area, Board, Card, CardListItem, Comment, InviteList, Label, Session } from './types';

/** Every query key of the app, in one place: realtime events and mutations patch these. */
export const keys = {
  session: ['session'] as const,
  boards: (kind: 'owned' | 'shared') => ['boards', kind] as const,
  board: (id: number) => ['board', id] as const,
  areas: (boardId: number) => ['areas', boardId] as const,
  cards: (areaId: number) => ['cards', areaId] as const,
  card: (cardId: number) => ['card', cardId] as const,
  labels: (boardId: number) => ['labels', boardId] as const,
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
    queryFn: async () => (await api<{ boards: Board[] }>('/api/data/boards', { method: 'POST', body: { shared: kind === 'shared' } })).boards,
  });

export interface BoardData {
  board: Board;
  writeAccess: boolean;
}

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

export const cardsQuery = (areaId: number) =>
  queryOptions({
    queryKey: keys.cards(areaId),
    queryFn: async () => (await api<{ cards: CardListItem[] }>('/api/data/cards', { query: { areaId } })).cards,
  });

export const cardQuery = (cardId: number) =>
  queryOptions({
    queryKey: keys.card(cardId),
    queryFn: async () => (await api<{ card: Card }>('/api/data/card', { query: { cardID: cardId } })).card,
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
    queryFn: async () => (await api<{ activity: ActivityEntry[] }>('/api/data/card-activity', { query: { cardID: cardId } })).activity,
  });
