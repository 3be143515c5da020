import type { Area } from '../../../shared/api/areas.js';
import type { AreaRow } from '../../db/schema.js';

export function presentArea(row: AreaRow, position: number): Area {
  return { id: row.id, board: row.boardId, name: row.name, sort: position, wipLimit: row.wipLimit ?? null };
}
