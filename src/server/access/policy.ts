import type { Actor } from '../auth/actor.js';
import type { Db } from '../db/database.js';
import { dialectOf } from '../db/dialects/index.js';
import { hotQuery } from '../db/hot-query.js';
import type { AreaRow, BoardRow } from '../db/schema.js';
import { forbidden, notFound } from '../http/errors.js';
import { readCachesOf } from './read-caches.js';
import { audienceOf, membersOfBoard } from './audience.js';
import { atLeast, levelOf, type Level, type RequiredLevel } from './level.js';
import type { BoardAccessCache, CachedArea } from './board-access-cache.js';

/**
 * The kinds of thing a route names by id. A thing on a board the caller
 * cannot read gets the same 404 body as a missing one of its kind, so the
 * kind of the id asked for, not the board, names the refusal.
 */
export type Subject = 'Board' | 'Area' | 'Card' | 'Comment' | 'Attachment' | 'Image' | 'Webhook' | 'Delivery' | 'Field';

export const missing = (subject: Subject) => notFound(`${subject} not found`);

export interface BoardAccess {
  board: BoardRow;
  level: Level;
}

/**
 * Loads a board with the caller's level and refuses what the level does not
 * allow: a board the caller cannot read is indistinguishable from a missing
 * one (404), a readable board without the needed level is 403. It locks
 * nothing: a change takes the board's lock on its write path (`writeBoard`).
 */
const boardQuery = (db: Db, actorId: string, boardId: number) =>
  db
    .selectFrom('boards')
    .leftJoin('board_members', (join) =>
      join.onRef('board_members.boardId', '=', 'boards.id').on('board_members.userId', '=', actorId),
    )
    .selectAll('boards')
    .select('board_members.permission')
    .where('boards.id', '=', boardId);
const boardWithPermission = hotQuery(boardQuery);

export async function requireBoard(
  db: Db,
  actor: Actor,
  boardId: number,
  needed: RequiredLevel,
  { subject = 'Board' }: { subject?: Subject } = {},
): Promise<BoardAccess> {
  const [row] = await boardWithPermission(db, actor.id, boardId);
  return checked(row, actor, needed, subject);
}

const boardWithAudience = hotQuery((db: Db, actorId: string, boardId: number) =>
  boardQuery(db, actorId, boardId).select(membersOfBoard(dialectOf(db)).as('members')),
);

/**
 * `requireBoard` for the write path, which also answers the board's
 * audience: most writes notify it, and this way it costs no statement of its own.
 */
export async function requireBoardWithAudience(
  db: Db,
  actor: Actor,
  boardId: number,
  needed: RequiredLevel,
  subject: Subject = 'Board',
): Promise<BoardAccess & { audience: string[] }> {
  const [row] = await boardWithAudience(db, actor.id, boardId);
  if (!row) throw missing(subject);
  const { members, ...rest } = row;
  const access = checked(rest, actor, needed, subject);
  return { ...access, audience: audienceOf(access.board, members) };
}

function checked(
  row: (BoardRow & { permission: string | null }) | undefined,
  actor: Actor,
  needed: RequiredLevel,
  subject: Subject,
): BoardAccess {
  if (!row) throw missing(subject);
  const { permission, ...board } = row;
  const level = levelOf(board, actor.id, permission);
  if (level === 'none') throw missing(subject);
  if (!atLeast(level, needed)) throw forbidden();
  return { board, level };
}

/** The board an area or card belongs to, or 404: the access check then runs on that board. */
export async function boardIdOf(db: Db, table: 'areas' | 'cards', id: number): Promise<number> {
  const row = await db.selectFrom(table).select('boardId').where('id', '=', id).executeTakeFirst();
  if (!row) throw missing(table === 'areas' ? 'Area' : 'Card');
  return row.boardId;
}

/** Per database handle: `areas:<id>` / `cards:<id>` → board id. */
const homes = new WeakMap<Db, Map<string, number>>();
const HOMES_MAX = 50_000;

/**
 * `boardIdOf` for a write, remembered: no area or card ever changes board
 * and ids are never reused, and a write finds its card or area again under
 * the board's lock (a removed one answers 404 there). A read must not use
 * it: it would answer for a card removed since.
 */
export async function boardIdForWrite(db: Db, table: 'areas' | 'cards', id: number): Promise<number> {
  let known = homes.get(db);
  if (!known) homes.set(db, (known = new Map<string, number>()));
  const key = `${table}:${id}`;
  const cached = known.get(key);
  if (cached !== undefined) return cached;
  const boardId = await boardIdOf(db, table, id);
  if (known.size >= HOMES_MAX) known.clear();
  known.set(key, boardId);
  return boardId;
}

const areaWithPermission = hotQuery((db: Db, actorId: string, areaId: number) =>
  db
    .selectFrom('areas')
    .innerJoin('boards', 'boards.id', 'areas.boardId')
    .leftJoin('board_members', (join) =>
      join.onRef('board_members.boardId', '=', 'boards.id').on('board_members.userId', '=', actorId),
    )
    .selectAll('boards')
    .select([
      'board_members.permission',
      'areas.id as areaId',
      'areas.name as areaName',
      'areas.sort as areaSort',
      'areas.archivedAt as areaArchivedAt',
      'areas.createdAt as areaCreatedAt',
      'areas.updatedAt as areaUpdatedAt',
      'areas.wipLimit as areaWipLimit',
    ])
    .where('areas.id', '=', areaId),
);

/**
 * An area with its board and the caller's level on it, in one query or, for
 * an unchanged board, none (see BoardAccessCache); the same refusals as
 * `requireBoard`. Inside a transaction (another `db` handle) it always queries.
 * The rows answered may be the cached ones, shared by every request: read them, never change them.
 */
export async function requireArea(
  db: Db,
  actor: Actor,
  areaId: number,
  needed: RequiredLevel,
): Promise<BoardAccess & { area: AreaRow }> {
  const cache = readCachesOf(db)?.boards;
  const found = cache?.lookupArea(areaId, actor.id) ?? (await loadArea(db, actor.id, areaId, cache));
  if (!found) throw missing('Area');
  const { board, area, permission } = found;
  const level = levelOf(board, actor.id, permission);
  if (level === 'none') throw missing('Area');
  if (!atLeast(level, needed)) throw forbidden();
  return { board, level, area };
}

async function loadArea(
  db: Db,
  actorId: string,
  areaId: number,
  cache: BoardAccessCache | undefined,
): Promise<CachedArea | undefined> {
  const token = cache?.begin();
  const [row] = await areaWithPermission(db, actorId, areaId);
  if (!row) return undefined;
  const {
    permission,
    areaId: id,
    areaName,
    areaSort,
    areaArchivedAt,
    areaCreatedAt,
    areaUpdatedAt,
    areaWipLimit,
    ...board
  } = row;
  const area: AreaRow = {
    id,
    boardId: board.id,
    name: areaName,
    sort: areaSort,
    archivedAt: areaArchivedAt,
    createdAt: areaCreatedAt,
    updatedAt: areaUpdatedAt,
    wipLimit: areaWipLimit,
  };
  const found = { board, area, permission };
  // Refusals are not kept: they are not the hot path, and access granted later must not wait for a new version.
  if (levelOf(board, actorId, permission) !== 'none') cache?.storeArea(token!, actorId, found);
  return found;
}
