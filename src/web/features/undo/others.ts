import type { BoardEvent } from '../../../shared/events.js';

/**
 * Who else changed what on the boards this tab watches, as their realtime
 * events arrive: an undo step asks whether anyone but me changed its item
 * after it was made, and who.
 */

let clock = 0;
const seen = new Map<number, Map<string, { by: string; at: number }>>();

/** The item a board event changes (`card:12`, `area:3`, `areas`), or null for others (comments, members…). */
export function itemOf(event: BoardEvent): string | null {
  const data = event.data as Record<string, unknown>;
  const card = data.card as { id?: number } | undefined;
  const area = data.area as { id?: number } | undefined;
  switch (event.name) {
    case 'card.created':
    case 'card.updated':
    case 'card.restored':
      return card?.id === undefined ? null : `card:${card.id}`;
    case 'card.moved':
    case 'card.archived':
    case 'card.deleted':
      return `card:${String(data.cardId)}`;
    case 'area.updated':
    case 'area.restored':
      return area?.id === undefined ? null : `area:${area.id}`;
    case 'area.archived':
    case 'area.deleted':
      return `area:${String(data.areaId)}`;
    case 'areas.reordered':
      return 'areas';
    default:
      return null;
  }
}

/** Notes an event of the board page's stream; my own changes are not noted. */
export function noteBoardEvent(event: BoardEvent, myId: string): void {
  const item = itemOf(event);
  if (!item || !event.actor || event.actor.id === myId) return;
  let board = seen.get(event.boardId);
  if (!board) {
    board = new Map();
    seen.set(event.boardId, board);
  }
  board.set(item, { by: event.actor.name, at: ++clock });
}

/** A mark in time to compare with later. */
export function now(): number {
  return clock;
}

/** The name of the last other person who changed the item after `since`, if any. */
export function changedBy(boardId: number, item: string, since: number): string | null {
  const last = seen.get(boardId)?.get(item);
  return last && last.at > since ? last.by : null;
}

/** The last other person who changed the item at all (to name them when a change is found another way). */
export function lastChangedBy(boardId: number, item: string): string | null {
  return seen.get(boardId)?.get(item)?.by ?? null;
}
