import type { BoardAt, HistoryEntry } from '../../../shared/api/history.js';
import type { Card } from '../../api/types';
import { api } from '../../api/client';

export type { BoardAt, HistoryEntry };

/** The newest changes of the board the account may see, newest first. */
export async function boardHistory(boardId: number): Promise<HistoryEntry[]> {
  return (await api<{ entries: HistoryEntry[] }>('/api/data/board-history', { query: { boardId, limit: 200 } })).entries;
}

export function boardAt(boardId: number, version: number): Promise<BoardAt> {
  return api<BoardAt>('/api/data/board-at', { query: { boardId, version } });
}

export async function restoreCard(cardID: number, version: number): Promise<Card> {
  return (await api<{ card: Card }>('/api/data/card-restore', { method: 'POST', body: { cardID, version } })).card;
}
