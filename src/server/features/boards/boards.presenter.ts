import type { Board } from '../../../shared/api/boards.js';
import { toIso } from '../../db/dialect.js';
import type { BoardRow } from '../../db/schema.js';

export function presentBoard(row: BoardRow): Board {
  return {
    id: row.id,
    user: row.ownerId,
    name: row.name,
    style: row.style,
    image: row.image,
    color: row.color,
    status: row.status,
    archivedAt: toIso(row.archivedAt),
  };
}
