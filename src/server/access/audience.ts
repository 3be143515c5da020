import { sql, type ExpressionBuilder, type RawBuilder } from 'kysely';
import type { Db } from '../db/database.js';
import { dialectOf, type Dialect } from '../db/dialects/index.js';
import { hotQuery } from '../db/hot-query.js';
import type { BoardRow, Schema } from '../db/schema.js';
import { levelOf } from './level.js';

/*
 * Who a board reaches and which boards reach an account, asked from outside a
 * single request's access check: lists across boards, search, exports, the
 * archive, the profile's fan-out, notifications, the realtime hub. The rule
 * itself is `levelOf` in level.ts; these are its forms for queries and for
 * sets of accounts, kept here so no feature writes its own copy.
 */

/** A member row for the account on the board of the enclosing query. */
function memberOf(eb: ExpressionBuilder<Schema, 'boards'>, actorId: string) {
  return eb.exists(
    eb
      .selectFrom('board_members')
      .select('board_members.id')
      .whereRef('board_members.boardId', '=', 'boards.id')
      .where('board_members.userId', '=', actorId),
  );
}

/** `levelOf(...) === 'owner'` as a condition on the `boards` table of a query. */
export function ownedBy(eb: ExpressionBuilder<Schema, 'boards'>, actorId: string) {
  return eb('boards.ownerId', '=', actorId);
}

/**
 * The boards shared with the account: those it is a member of. Written as
 * `IN`, so both databases start from the account's few memberships (index
 * `board_members_user`) rather than from every board.
 */
export function sharedWith(eb: ExpressionBuilder<Schema, 'boards'>, actorId: string) {
  return eb(
    'boards.id',
    'in',
    eb.selectFrom('board_members').select('board_members.boardId').where('board_members.userId', '=', actorId),
  );
}

/**
 * `levelOf(...) !== 'none'` as a condition on the `boards` table of a query,
 * for lists across boards: owned, a member's, or public.
 */
export function readableBy(eb: ExpressionBuilder<Schema, 'boards'>, actorId: string) {
  return eb.or([eb('boards.ownerId', '=', actorId), eb('boards.status', '=', 'public'), memberOf(eb, actorId)]);
}

/**
 * The boards an account has joined: its own and those it is a member of. A
 * public board the account never joined is readable but not joined, so it
 * stays out of search, as it stays out of the board's audience.
 */
export function joinedBy(eb: ExpressionBuilder<Schema, 'boards'>, actorId: string) {
  return eb.or([eb('boards.ownerId', '=', actorId), memberOf(eb, actorId)]);
}

/** The ids of the boards an account has joined (`joinedBy`), in one statement: what its own changes reach. */
export async function boardsJoinedBy(db: Db, actorId: string): Promise<number[]> {
  const rows = await db
    .selectFrom('boards')
    .select('id')
    .where('ownerId', '=', actorId)
    .union(db.selectFrom('board_members').select('boardId as id').where('userId', '=', actorId))
    .execute();
  return rows.map((r) => r.id);
}

/**
 * The account itself and everyone in the audience (owner or member) of a
 * board it has joined, as a condition on the `user` table of a query: the
 * people it shares a board with.
 */
export function sharesBoardWith(eb: ExpressionBuilder<Schema, 'user'>, actorId: string) {
  const boards = eb
    .selectFrom('boards')
    .select('boards.id')
    .where((b) => joinedBy(b, actorId));
  return eb.or([
    eb('user.id', '=', actorId),
    eb('user.id', 'in', eb.selectFrom('boards').select('boards.ownerId').where('boards.id', 'in', boards)),
    eb(
      'user.id',
      'in',
      eb.selectFrom('board_members').select('board_members.userId').where('board_members.boardId', 'in', boards),
    ),
  ]);
}

/**
 * The members of the board of the enclosing query (a `boards` row), as a
 * JSON array of account ids: with the owner, `audienceOf` makes them the
 * board's audience. A column, so that the write path's access check reads it
 * in the same statement.
 */
export function membersOfBoard(dialect: Dialect): RawBuilder<string> {
  const { json } = dialect;
  return sql.raw<string>(json.text(json.array('m."userId"', 'm.id', 'board_members m WHERE m."boardId" = boards.id')));
}

/** The accounts that have joined a board, its owner and its members: whom its notifications and dashboard changes reach. */
export function audienceOf(board: Pick<BoardRow, 'ownerId'>, members: string): string[] {
  return [...new Set([board.ownerId, ...(JSON.parse(members) as string[])])];
}

const ownerAndMembers = hotQuery((db: Db, boardId: number) =>
  db
    .selectFrom('boards')
    .select(['ownerId', membersOfBoard(dialectOf(db)).as('members')])
    .where('id', '=', boardId),
);

/** `audienceOf` a board by its id (nobody, for a board that is gone). */
export async function boardAudience(db: Db, boardId: number): Promise<string[]> {
  const [board] = await ownerAndMembers(db, boardId);
  return board ? audienceOf(board, board.members) : [];
}

/**
 * Whether an account can read the board, answered for many accounts from one
 * look at the board and its members (nobody can read a board that is gone).
 */
export async function boardReaders(db: Db, boardId: number): Promise<(userId: string) => boolean> {
  const board = await db.selectFrom('boards').select(['ownerId', 'status']).where('id', '=', boardId).executeTakeFirst();
  const members = new Map(
    (await db.selectFrom('board_members').select(['userId', 'permission']).where('boardId', '=', boardId).execute()).map((m) => [
      m.userId,
      m.permission,
    ]),
  );
  return (userId) => board !== undefined && levelOf(board, userId, members.get(userId) ?? null) !== 'none';
}

/**
 * The version from which an account may replay a board's events: the owner
 * from the start, others from when they could first read it (as a member, or
 * since the board went public); `Infinity` for an account that cannot.
 */
export async function readableFrom(
  db: Db,
  board: Pick<BoardRow, 'id' | 'ownerId' | 'status' | 'publicFrom'>,
  userId: string,
): Promise<number> {
  if (board.ownerId === userId) return 0;
  const member = await db
    .selectFrom('board_members')
    .select('readableFrom')
    .where('boardId', '=', board.id)
    .where('userId', '=', userId)
    .executeTakeFirst();
  return Math.min(member?.readableFrom ?? Infinity, board.status === 'public' ? board.publicFrom : Infinity);
}
