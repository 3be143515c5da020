import type { QueryClient } from '@tanstack/react-query';
import { applyBoard, dropBoard } from '../../api/cache';
import { api } from '../../api/client';
import { attempt, optimistic, snapshot } from '../../api/optimistic';
import { keys } from '../../api/queries';
import type { Board, BoardStatus, BoardStyle } from '../../api/types';
import i18n from '../../app/i18n';
import { toast } from '../../app/toast';

/** The writes of the dashboard and the board settings: boards made, changed, archived, left. */

export interface BoardFields {
  name: string;
  style: BoardStyle;
  status: BoardStatus;
  color: string | null;
  image?: string | null;
}

export async function createBoard(qc: QueryClient, userId: string, fields: BoardFields): Promise<Board | undefined> {
  const result = await attempt(() => api<{ board: Board }>('/api/data/board', { method: 'POST', body: { userId, ...fields } }));
  if (!result) return undefined;
  qc.setQueryData<Board[]>(keys.boards('owned'), (old) =>
    old && !old.some((b) => b.id === result.board.id) ? [...old, result.board] : old,
  );
  return result.board;
}

export async function updateBoard(qc: QueryClient, board: Board, fields: BoardFields): Promise<Board | undefined> {
  const next: Board = { ...board, ...fields, color: fields.image ? null : fields.color };
  const undo = [snapshot(qc, keys.boards('owned')), snapshot(qc, keys.board(board.id))];
  const result = await optimistic(
    () => {
      applyBoard(qc, next);
      return () => undo.forEach((u) => u());
    },
    () => api<{ board: Board }>('/api/data/board', { method: 'POST', body: { id: board.id, userId: board.user, ...fields } }),
  );
  if (result) applyBoard(qc, result.board);
  return result?.board;
}

export async function archiveBoard(qc: QueryClient, board: Board): Promise<boolean> {
  const undo = snapshot(qc, keys.boards('owned'));
  const done = await optimistic(
    () => {
      dropBoard(qc, board.id);
      return undo;
    },
    () => api('/api/data/board', { method: 'DELETE', query: { id: board.id, userId: board.user } }),
  );
  if (done === undefined) return false;
  toast.info(i18n.t('dashboard.archived', { name: board.name }), {
    label: i18n.t('common.undo'),
    run: () => void restoreBoard(qc, board.id),
  });
  return true;
}

export async function restoreBoard(qc: QueryClient, boardId: number): Promise<void> {
  await attempt(() => api('/api/data/archive', { method: 'POST', body: { type: 'board', id: boardId } }));
  await qc.invalidateQueries({ queryKey: ['boards'] });
}

export async function leaveBoard(qc: QueryClient, boardId: number): Promise<boolean> {
  const undo = snapshot(qc, keys.boards('shared'));
  const done = await optimistic(
    () => {
      dropBoard(qc, boardId);
      return undo;
    },
    () => api('/api/data/leaveBoard', { method: 'POST', body: { boardId } }),
  );
  return done !== undefined;
}
