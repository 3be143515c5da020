import type { Actor } from '../auth/actor.js';
import type { Db } from '../db/database.js';
import type { DialectName } from '../db/dialect.js';
import type { BoardRow } from '../db/schema.js';
import { forbidden, notFound } from '../http/errors.js';

export type Level = 'none' | 'read' | 'edit' | 'owner';
export type RequiredLevel = Exclude<Level, 'none'>;

const rank: Record<Level, number> = { none: 0, read: 1, edit: 2, owner: 3 };

export function atLeast(level: Level, needed: Level): boolean {
  return rank[level] >= rank[needed];
}

/**
 * The one board-access rule: the owner, then a member's permission, then
 * `read` for any signed-in account on a public board. The admin role grants
 * nothing here.
 */
export function levelOf(board: Pick<BoardRow, 'ownerId' | 'status'>, actorId: string, permission: string | null): Level {
  if (board.ownerId === actorId) return 'owner';
  if (permission === 'edit') return 'edit';
  if (permission === 'read') return 'read';
  return board.status === 'public' ? 'read' : 'none';
}

export interface BoardAccess {
  board: BoardRow;
  level: Level;
}

/**
 * Loads a board with the caller's level and refuses what the level does not
 * allow: a board the caller cannot read is indistinguishable from a missing
 * one (404), a readable board without the needed level is 403. With `lock`,
 * the board row stays locked until the transaction ends, which serialises
 * every write to one board on PostgreSQL (SQLite has a single writer anyway).
 */
export async function requireBoard(
  db: Db,
  dialect: DialectName,
  actor: Actor,
  boardId: number,
  needed: RequiredLevel,
  lock = false,
): Promise<BoardAccess> {
  const row = await db
    .selectFrom('boards')
    .leftJoin('board_members', (join) =>
      join.onRef('board_members.boardId', '=', 'boards.id').on('board_members.userId', '=', actor.id),
    )
    .selectAll('boards')
    .select('board_members.permission')
    .where('boards.id', '=', boardId)
    .$if(lock && dialect === 'postgres', (q) => q.forUpdate(['boards']))
    .executeTakeFirst();
  if (!row) throw notFound();
  const { permission, ...board } = row;
  const level = levelOf(board, actor.id, permission);
  if (level === 'none') throw notFound();
  if (!atLeast(level, needed)) throw forbidden();
  return { board, level };
}

/** The board an area or card belongs to, or 404: the access check then runs on that board. */
export async function boardIdOf(db: Db, table: 'areas' | 'cards', id: number): Promise<number> {
  const row = await db.selectFrom(table).select('boardId').where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound(table === 'areas' ? 'Area not found' : 'Card not found');
  return row.boardId;
}
