import { useEffect, useRef } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { invalidateBoard } from '../api/cache';
import { keys } from '../api/queries';
import { noteBoardEvent } from '../features/undo/others';
import { applyBoardEvent, type EventContext } from './boardEvents';
import { useRealtime } from './RealtimeProvider';

export type BoardGoneReason = 'archived' | 'deleted' | 'revoked';

/**
 * Keeps a board's cached data live: subscribes to the board, applies every
 * event in version order, and refetches the board when a version was skipped,
 * when the server asks for a resync, or when the data loaded before the
 * subscription was in place. `onChange` hears of every change (pages that
 * show the board's cards in their own shape, such as My work, read again).
 */
export function useBoardRealtime(
  boardId: number,
  userId: string,
  onGone: (reason: BoardGoneReason) => void,
  onChange?: () => void,
): void {
  const connection = useRealtime();
  const qc = useQueryClient();
  const goneRef = useRef(onGone);
  const changeRef = useRef(onChange);
  useEffect(() => {
    goneRef.current = onGone;
    changeRef.current = onChange;
  });

  useEffect(() => {
    if (!connection) return;
    let version: number | undefined;
    const ctx: EventContext = { qc, boardId, userId, boardGone: (reason) => goneRef.current(reason) };
    const advance = (next: number) => {
      version = next;
      connection.setVersion(boardId, next);
    };
    return connection.subscribe(boardId, {
      subscribed(current, requestedAt) {
        if (version !== undefined) return; // a resumed subscription: the missed events follow
        advance(current);
        // performance.now() and dataUpdatedAt (Date.now()) share no origin; compare in wall-clock time.
        const requestedWall = Date.now() - (performance.now() - requestedAt);
        const loadedAt = qc.getQueryState(keys.areas(boardId))?.dataUpdatedAt ?? 0;
        if (loadedAt > 0 && loadedAt < requestedWall) void invalidateBoard(qc, boardId);
        changeRef.current?.();
      },
      event(event) {
        if (version !== undefined && event.version <= version) return;
        noteBoardEvent(event, userId); // who else changed what, for undo
        if (version !== undefined && event.version > version + 1) {
          advance(event.version);
          void invalidateBoard(qc, boardId);
          changeRef.current?.();
          return;
        }
        advance(event.version);
        applyBoardEvent(ctx, event);
        changeRef.current?.();
      },
      resync() {
        void invalidateBoard(qc, boardId);
        changeRef.current?.();
      },
      revoked() {
        goneRef.current('revoked');
      },
    });
  }, [connection, qc, boardId, userId]);
}
