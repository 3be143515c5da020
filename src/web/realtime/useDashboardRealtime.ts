import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { Board } from '../api/types';
import { applyBoard, dropBoard } from '../api/cache';
import { keys } from '../api/queries';
import { useRealtime } from './RealtimeProvider';

/** Keeps the dashboard's tiles live: boards shared with me, renamed, recoloured, archived or removed by others. */
export function useDashboardRealtime(userId: string): void {
  const connection = useRealtime();
  const qc = useQueryClient();
  useEffect(() => {
    if (!connection) return;
    return connection.onDashboard((message) => {
      const data = message.data as { board?: Board; userId?: string };
      switch (message.name) {
        case 'board.updated':
        case 'board.restored':
        case 'board.created': {
          if (data.board) applyBoard(qc, data.board);
          // A board the dashboard does not show yet (restored, or new to me): read the lists again.
          const shown = (['owned', 'shared'] as const).some((kind) =>
            qc.getQueryData<Board[]>(keys.boards(kind))?.some((b) => b.id === message.boardId),
          );
          if (!shown) void qc.invalidateQueries({ queryKey: ['boards'] });
          return;
        }
        case 'board.archived':
        case 'board.deleted':
          dropBoard(qc, message.boardId);
          return;
        case 'member.removed':
          if (data.userId === userId) dropBoard(qc, message.boardId);
          void qc.invalidateQueries({ queryKey: ['boards', 'shared'] });
          return;
        default:
          void qc.invalidateQueries({ queryKey: ['boards', 'shared'] });
      }
    });
  }, [connection, qc, userId]);
}
