import type { BoardRow } from '../db/schema.js';
import { conflict } from '../http/errors.js';

/*
 * An archived thing must be restored before it changes (409). The write path
 * checks the board on every write, so the rule lives beside the access checks
 * rather than in a feature.
 */

/** The 409 for changing an archived board, area or card. */
export const archived = (what: 'board' | 'area' | 'card') => conflict(`The ${what} is archived; restore it first`);

/** 409 for an archived board. */
export function unarchivedBoard<B extends Pick<BoardRow, 'archivedAt'>>(board: B): B {
  if (board.archivedAt !== null) throw archived('board');
  return board;
}
