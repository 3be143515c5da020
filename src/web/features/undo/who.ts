import { api } from '../../api/client';
import type { HistoryEntry } from '../../../shared/api/history.js';

/** The account whose changes are "mine" (set by the board page's undo hook). */
let me: string | null = null;
export function setUndoUser(id: string): void {
  me = id;
}

/**
 * Who else last changed a card, read from the board's history when the
 * realtime stream did not tell (it was offline): the newest card change by
 * someone other than me that names the card. Null when none is found.
 */
export async function whoChangedCard(boardId: number, cardName: string | null): Promise<string | null> {
  if (cardName === null) return null;
  try {
    const { entries } = await api<{ entries: HistoryEntry[] }>('/api/data/board-history', { query: { boardId, limit: 50 } });
    const entry = entries.find((e) => e.actor && e.actor.id !== me && e.name.startsWith('card.') && e.summary === cardName);
    return entry?.actor?.name ?? null;
  } catch {
    return null;
  }
}
