import type { Board, BoardStatus, BoardStyle } from '../../shared/api/boards.js';
import { toIso } from '../db/dialect.js';
import type { BoardRow } from '../db/schema.js';

/** A board row as the API shows it (the board list, a board's answer, its events and its snapshots). */
export function presentBoard(row: BoardRow): Board {
  return {
    id: row.id,
    user: row.ownerId,
    name: row.name,
    // The columns hold only what the write schema let in.
    style: row.style as BoardStyle,
    image: row.image,
    color: row.color,
    status: row.status as BoardStatus,
    archivedAt: toIso(row.archivedAt),
  };
}
