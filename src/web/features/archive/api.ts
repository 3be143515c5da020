import { queryOptions, type QueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import { keys } from '../../api/queries';
import type { ArchivedBoard, BoardArchive } from '../../api/types';

export type { ArchivedArea, ArchivedBoard, ArchivedCard } from '../../api/types';

export const archiveKeys = {
  all: ['archive'] as const,
  board: (boardId: number) => ['archive', 'board', boardId] as const,
  boards: ['archive', 'boards'] as const,
};

/** What is archived on one board (needs edit access). Read fresh each time the page opens. */
export const boardArchiveQuery = (boardId: number) =>
  queryOptions({
    queryKey: archiveKeys.board(boardId),
    queryFn: () => api<BoardArchive>('/api/data/archive', { query: { boardId } }),
    staleTime: 0,
    refetchOnWindowFocus: true,
  });

/** The archived boards the account owns. */
export const archivedBoardsQuery = queryOptions({
  queryKey: archiveKeys.boards,
  queryFn: async () => (await api<{ boards: ArchivedBoard[] }>('/api/data/archive')).boards,
  staleTime: 0,
  refetchOnWindowFocus: true,
});

/** Takes one item out of the cached board archive at once (the refetch that follows confirms it). */
function dropFromArchive(qc: QueryClient, boardId: number, type: 'card' | 'area', id: number): void {
  qc.setQueryData<BoardArchive>(archiveKeys.board(boardId), (old) =>
    old
      ? type === 'card'
        ? { ...old, cards: old.cards.filter((c) => c.id !== id) }
        : { ...old, areas: old.areas.filter((a) => a.id !== id) }
      : old,
  );
}

/** Brings a card (with its area, if archived too) or an area back onto the board. */
export async function restoreItem(qc: QueryClient, boardId: number, type: 'card' | 'area', id: number): Promise<void> {
  await api('/api/data/archive', { method: 'POST', body: { type, id } });
  dropFromArchive(qc, boardId, type, id);
  await Promise.all([
    qc.invalidateQueries({ queryKey: archiveKeys.board(boardId) }),
    qc.invalidateQueries({ queryKey: keys.areas(boardId), refetchType: 'all' }),
    qc.invalidateQueries({ queryKey: ['cards'] }),
    type === 'card' ? qc.invalidateQueries({ queryKey: keys.card(id) }) : Promise.resolve(),
  ]);
}

/** Removes an archived card or area, and everything in it, for good. */
export async function deleteItem(qc: QueryClient, boardId: number, type: 'card' | 'area', id: number): Promise<void> {
  if (type === 'card') {
    await api('/api/data/card', { method: 'DELETE', body: { cardID: id, permanent: true } });
    qc.removeQueries({ queryKey: keys.card(id) });
  } else {
    await api('/api/data/area', { method: 'DELETE', query: { id, boardId, permanent: true } });
    qc.removeQueries({ queryKey: keys.cards(id) });
  }
  dropFromArchive(qc, boardId, type, id);
  await qc.invalidateQueries({ queryKey: archiveKeys.board(boardId) });
}

export async function restoreBoard(qc: QueryClient, boardId: number): Promise<void> {
  await api('/api/data/archive', { method: 'POST', body: { type: 'board', id: boardId } });
  qc.setQueryData<ArchivedBoard[]>(archiveKeys.boards, (old) => old?.filter((b) => b.id !== boardId));
  await Promise.all([
    qc.invalidateQueries({ queryKey: archiveKeys.boards }),
    // Read now, even with no dashboard on screen: a later realtime patch of the list would otherwise mark the old one fresh.
    qc.invalidateQueries({ queryKey: ['boards'], refetchType: 'all' }),
    qc.invalidateQueries({ queryKey: keys.board(boardId) }),
  ]);
}

export async function deleteBoard(qc: QueryClient, boardId: number, userId: string): Promise<void> {
  await api('/api/data/board', { method: 'DELETE', query: { id: boardId, userId, permanent: true } });
  qc.setQueryData<ArchivedBoard[]>(archiveKeys.boards, (old) => old?.filter((b) => b.id !== boardId));
  qc.removeQueries({ queryKey: keys.board(boardId) });
  qc.removeQueries({ queryKey: keys.areas(boardId) });
  await qc.invalidateQueries({ queryKey: archiveKeys.boards });
}
