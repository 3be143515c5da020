import type { BoardEvent } from '../../shared/events.js';
import type { Db } from '../db/database.js';
import { toIso } from '../db/dialect.js';
import { pruneSnapshots, scrubSnapshots } from '../events/snapshots.js';
import { deleteEventsBefore, eventRows, eventsMentioning, rewriteEvent } from './event-log.repository.js';

/** How long the event log keeps a board's events for viewers to resume from. */
export const EVENT_RETENTION_DAYS = 7;

/**
 * The name an event row takes when what it showed was deleted for good: the
 * row keeps its version (versions stay consecutive), its data is emptied.
 */
export const REDACTED = 'redacted';

/**
 * The stored events of a board with versions in (after, upTo], oldest first;
 * redacted ones are left out (a replay that misses any reloads instead).
 */
export async function readEvents(db: Db, boardId: number, after: number, upTo: number): Promise<BoardEvent[]> {
  const rows = await eventRows(db, boardId, after, upTo, REDACTED);
  return rows.map((row) => ({
    boardId,
    version: row.version,
    name: row.name as BoardEvent['name'],
    actor: row.actorId === null ? null : { id: row.actorId, name: row.actorName ?? '' },
    data: JSON.parse(row.data) as BoardEvent['data'],
    createdAt: toIso(row.createdAt),
  }));
}

/** What is being deleted for good: its text must not outlive it in the event log. */
export interface Erased {
  cardIds?: readonly number[];
  commentIds?: readonly number[];
}

/** The events that can show a card's or a comment's content; the others carry ids only. */
const CONTENT_EVENTS = [
  'card.created',
  'card.updated',
  'card.restored',
  'area.restored',
  'comment.created',
  'comment.updated',
  'attachment.created',
] as const;

/**
 * Empties, in the deleting transaction, the board's stored events that show
 * the erased cards (with their comments and attachments) or comments. An
 * area's restoration keeps its other cards and loses only the erased ones.
 */
export async function redactEvents(trx: Db, boardId: number, erased: Erased): Promise<void> {
  const cards = new Set(erased.cardIds ?? []);
  const comments = new Set(erased.commentIds ?? []);
  if (cards.size === 0 && comments.size === 0) return;
  await scrubSnapshots(trx, boardId, [...cards]);
  const rows = await eventsMentioning(trx, boardId, CONTENT_EVENTS, { ids: [...cards, ...comments], cardIds: [...cards] });
  for (const row of rows) {
    const data = JSON.parse(row.data) as {
      card?: { id: number };
      cards?: Array<{ id: number }>;
      cardId?: number;
      comment?: { id: number };
    };
    if (row.name === 'area.restored') {
      const kept = (data.cards ?? []).filter((c) => !cards.has(c.id));
      if (kept.length === data.cards?.length) continue;
      await rewriteEvent(trx, row.id, { data: JSON.stringify({ ...data, cards: kept }) });
      continue;
    }
    const cardId = data.card?.id ?? data.cardId;
    const shows = (cardId !== undefined && cards.has(cardId)) || (data.comment !== undefined && comments.has(data.comment.id));
    if (shows) await rewriteEvent(trx, row.id, { name: REDACTED, data: '{}' });
  }
}

/** Forgets events older than the retention window; a viewer further behind reloads the board. */
export async function pruneEvents(db: Db, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - EVENT_RETENTION_DAYS * 86_400_000).toISOString();
  const events = await deleteEventsBefore(db, cutoff);
  await pruneSnapshots(db, cutoff);
  return events;
}
