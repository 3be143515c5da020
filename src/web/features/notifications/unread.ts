import { useEffect, useMemo, useRef } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useRealtime } from '../../realtime/RealtimeProvider';
import { asNotification, markRead, unreadBoardsQuery, unreadCardsQuery } from './api';

/**
 * Marks notifications read as the spec describes: the board's own when it
 * opens, a card's when it opens. One that arrives about what is open right
 * now is read at once too.
 */
export function useMarkRead(boardId: number, cardId: number | null): void {
  const qc = useQueryClient();
  const connection = useRealtime();
  const open = useRef({ boardId, cardId });
  useEffect(() => {
    open.current = { boardId, cardId };
  });

  useEffect(() => {
    if (Number.isInteger(boardId) && boardId > 0) void markRead(qc, { boardId });
  }, [qc, boardId]);

  useEffect(() => {
    if (cardId !== null && cardId > 0) void markRead(qc, { cardId });
  }, [qc, cardId]);

  useEffect(() => {
    if (!connection) return;
    return connection.onNotification((value) => {
      const n = asNotification(value);
      if (!n || n.boardId !== open.current.boardId) return;
      if (n.cardId !== null && n.cardId === open.current.cardId) void markRead(qc, { cardId: n.cardId });
      else if (n.cardId === null) void markRead(qc, { boardId: n.boardId });
    });
  }, [connection, qc]);
}

const NONE: ReadonlySet<number> = new Set();

/** Ids of the board's cards with an unread notification. */
export function useUnreadCards(boardId: number): ReadonlySet<number> {
  const { data } = useQuery({ ...unreadCardsQuery(boardId), enabled: Number.isInteger(boardId) && boardId > 0 });
  return useMemo(() => (data && data.length > 0 ? new Set(data) : NONE), [data]);
}

/** Whether a board has anything unread: about a card of it, or its own (an invitation). */
export function useBoardUnread(boardId: number): boolean {
  const { data } = useQuery({ ...unreadBoardsQuery, select: (ids) => ids.includes(boardId) });
  return data === true;
}
