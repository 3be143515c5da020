import type { Placement } from './ordering.repository.js';

/**
 * Stored sorts are keys with room between them, not positions: a card goes
 * between its new neighbours by taking a key in the gap, so a move or an
 * insert writes one row instead of renumbering everything after it (on
 * PostgreSQL every rewritten row costs real CPU, and a dense order made a
 * move rewrite about a hundred of them). Positions, which the API answers,
 * are counted from the keys. Keys are distinct within an area.
 */
export const SORT_STEP = 1024;
/** The largest key both databases store in a 32-bit integer; past it the area is renumbered. */
export const MAX_SORT = 2_147_483_647;

/** A key between the card's new neighbours, or null when they leave no room. */
export function keyFor(facts: Placement): number | null {
  if (facts.targetSort === null) return after(facts.lastSort);
  return between(facts.beforeSort === null ? null : Number(facts.beforeSort), Number(facts.targetSort));
}

/** The key for a card after `last` (null: the area is empty), or null when the keys ran out. */
export function after(last: number | string | null): number | null {
  if (last === null) return 0;
  const key = Number(last) + SORT_STEP;
  return key <= MAX_SORT ? key : null;
}

/** A key strictly between two (null `low`: before `high`), or null when there is none. */
export function between(low: number | null, high: number): number | null {
  if (low === null) return high - SORT_STEP >= -MAX_SORT ? high - SORT_STEP : null;
  return high - low >= 2 ? low + Math.floor((high - low) / 2) : null;
}
