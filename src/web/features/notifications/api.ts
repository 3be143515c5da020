import { infiniteQueryOptions, queryOptions, type InfiniteData, type QueryClient } from '@tanstack/react-query';
import type { Notification, NotificationPage } from '../../../shared/api/notifications.js';
import { api } from '../../api/client';
import i18n from '../../app/i18n';

export type { NotificationPage };

export const PAGE_SIZE = 20;

export const notificationKeys = {
  all: ['notifications'] as const,
  list: ['notifications', 'list'] as const,
  unreadCards: ['notifications', 'unreadCards'] as const,
  unreadCardsOf: (boardId: number) => ['notifications', 'unreadCards', boardId] as const,
  unreadBoards: ['notifications', 'unreadBoards'] as const,
};

/**
 * The account's notifications, newest first, a page of 20 at a time anchored
 * to the last id held. Their texts come in the account's language, else in the
 * one asked for: the interface's, which need not be the browser's.
 */
export const notificationsQuery = infiniteQueryOptions({
  queryKey: notificationKeys.list,
  queryFn: ({ pageParam, signal }) =>
    api<NotificationPage>('/api/data/notifications', {
      query: { limit: PAGE_SIZE, before: pageParam ?? undefined },
      headers: { 'accept-language': i18n.language },
      signal,
    }),
  initialPageParam: null as number | null,
  getNextPageParam: (last) => (last.hasMore ? (last.notifications.at(-1)?.id ?? null) : null),
  staleTime: 30_000,
});

/** Ids of a board's cards with an unread notification. */
export const unreadCardsQuery = (boardId: number) =>
  queryOptions({
    queryKey: notificationKeys.unreadCardsOf(boardId),
    queryFn: async ({ signal }) =>
      (await api<{ cardIds: number[] }>('/api/data/notifications', { query: { unreadCards: 1, boardId }, signal })).cardIds,
    staleTime: 30_000,
  });

/** Ids of the boards with anything unread (one question for the whole dashboard). */
export const unreadBoardsQuery = queryOptions({
  queryKey: notificationKeys.unreadBoards,
  queryFn: async ({ signal }) =>
    (await api<{ boardIds: number[] }>('/api/data/notifications', { query: { unreadBoards: 1 }, signal })).boardIds,
  staleTime: 30_000,
});

type ListData = InfiniteData<NotificationPage, number | null>;

/** A notification that just arrived: on top of the list, and counted (once, whatever the order of arrival). */
export function prependNotification(qc: QueryClient, notification: Notification): void {
  qc.setQueryData<ListData>(notificationKeys.list, (old) => {
    if (!old || old.pages.length === 0) return old;
    if (old.pages.some((page) => page.notifications.some((n) => n.id === notification.id))) return old;
    const [first, ...rest] = old.pages;
    return {
      ...old,
      pages: [
        {
          ...first!,
          notifications: [notification, ...first!.notifications],
          unreadCount: first!.unreadCount + (notification.isRead ? 0 : 1),
        },
        ...rest,
      ],
    };
  });
  void qc.invalidateQueries({ queryKey: notificationKeys.unreadCards });
  void qc.invalidateQueries({ queryKey: notificationKeys.unreadBoards });
}

/** Shows the notifications matching `read` as read at once (the server's answer follows). */
function markInCache(qc: QueryClient, read: (n: Notification) => boolean): void {
  qc.setQueryData<ListData>(notificationKeys.list, (old) => {
    if (!old || old.pages.length === 0) return old;
    let changed = 0;
    const pages = old.pages.map((page) => {
      if (!page.notifications.some((n) => !n.isRead && read(n))) return page;
      return {
        ...page,
        notifications: page.notifications.map((n) => {
          if (n.isRead || !read(n)) return n;
          changed++;
          return { ...n, isRead: true };
        }),
      };
    });
    if (changed === 0) return old;
    pages[0] = { ...pages[0]!, unreadCount: Math.max(0, pages[0]!.unreadCount - changed) };
    return { ...old, pages };
  });
}

export type ReadTarget = { cardId: number } | { boardId: number } | { id: number };

/** Marks read on the server (a card's, a board's own, or one), then brings the count, list and dots up to date. */
export async function markRead(qc: QueryClient, target: ReadTarget): Promise<void> {
  if ('cardId' in target) markInCache(qc, (n) => n.cardId === target.cardId);
  else if ('boardId' in target) markInCache(qc, (n) => n.boardId === target.boardId && n.cardId === null);
  else markInCache(qc, (n) => n.id === target.id);
  if ('cardId' in target) {
    for (const query of qc.getQueryCache().findAll({ queryKey: notificationKeys.unreadCards })) {
      qc.setQueryData<number[]>(query.queryKey, (old) => old?.filter((id) => id !== target.cardId));
    }
  }
  try {
    await api('/api/data/notifications', { method: 'PATCH', query: target });
  } catch {
    // Nothing to tell: the refetch below shows what is really unread.
  }
  // A first load still on its way may have been answered before the change: invalidating would wait for that
  // answer instead of asking again (TanStack Query cancels only a refetch), and show it as it was.
  await qc.cancelQueries({ queryKey: notificationKeys.all });
  await qc.invalidateQueries({ queryKey: notificationKeys.all });
}

/** The shape the socket delivers (it comes as `unknown`). */
export function asNotification(value: unknown): Notification | null {
  if (!value || typeof value !== 'object') return null;
  const n = value as Partial<Notification>;
  if (typeof n.id !== 'number' || typeof n.message !== 'string') return null;
  return {
    id: n.id,
    type: typeof n.type === 'string' ? n.type : '',
    boardId: typeof n.boardId === 'number' ? n.boardId : null,
    cardId: typeof n.cardId === 'number' ? n.cardId : null,
    message: n.message,
    isRead: n.isRead === true,
    createdAt: typeof n.createdAt === 'string' ? n.createdAt : new Date().toISOString(),
    ...(typeof n.actorName === 'string'
      ? { actorName: n.actorName, actorImage: n.actorImage ?? null, actorType: n.actorType ?? 'human' }
      : {}),
  };
}
