import { sql } from 'kysely';
import type { Db } from '../../db/database.js';

export interface MemberRow {
  id: string;
  name: string;
  image: string | null;
  permission: string;
}

const memberColumns = ['user.id', 'user.name', 'user.image', 'board_members.permission'] as const;

/** The board's members in the order they were added. */
export function listMembers(db: Db, boardId: number): Promise<MemberRow[]> {
  return db
    .selectFrom('board_members')
    .innerJoin('user', 'user.id', 'board_members.userId')
    .select(memberColumns)
    .where('board_members.boardId', '=', boardId)
    .orderBy('board_members.id')
    .execute();
}

export function findMember(db: Db, boardId: number, userId: string): Promise<MemberRow | undefined> {
  return db
    .selectFrom('board_members')
    .innerJoin('user', 'user.id', 'board_members.userId')
    .select(memberColumns)
    .where('board_members.boardId', '=', boardId)
    .where('board_members.userId', '=', userId)
    .executeTakeFirst();
}

/** `readableFrom`: the board's version now; the new member replays nothing older. */
export async function addMember(
  db: Db,
  board: { id: number; version: number },
  userId: string,
  permission: string,
  now: string,
): Promise<void> {
  await db
    .insertInto('board_members')
    .values({ boardId: board.id, userId, permission, readableFrom: board.version, createdAt: now })
    .execute();
}

export async function setPermission(db: Db, boardId: number, userId: string, permission: string): Promise<void> {
  await db.updateTable('board_members').set({ permission }).where('boardId', '=', boardId).where('userId', '=', userId).execute();
}

export async function removeMember(db: Db, boardId: number, userId: string): Promise<void> {
  await db.deleteFrom('board_members').where('boardId', '=', boardId).where('userId', '=', userId).execute();
}

/**
 * Takes the account off every card of the board (archived ones too) and
 * answers the ids of the visible cards it was on, whose viewers must hear of it.
 */
export async function removeAssignments(db: Db, boardId: number, userId: string): Promise<number[]> {
  const rows = await db
    .selectFrom('card_assignees')
    .innerJoin('cards', 'cards.id', 'card_assignees.cardId')
    .innerJoin('areas', 'areas.id', 'cards.areaId')
    .select(['cards.id', 'cards.archivedAt', 'areas.archivedAt as areaArchivedAt'])
    .where('cards.boardId', '=', boardId)
    .where('card_assignees.userId', '=', userId)
    .orderBy('cards.id')
    .execute();
  if (rows.length === 0) return [];
  await db
    .deleteFrom('card_assignees')
    .where('userId', '=', userId)
    .where(
      'cardId',
      'in',
      rows.map((r) => r.id),
    )
    .execute();
  return rows.filter((r) => r.archivedAt === null && r.areaArchivedAt === null).map((r) => r.id);
}

export interface InviteRow {
  id: number;
  email: string;
  permission: string;
  usedAt: Date | string | null;
  expiresAt: Date | string;
  createdAt: Date | string;
}

const inviteColumns = ['id', 'email', 'permission', 'usedAt', 'expiresAt', 'createdAt'] as const;

/** The board's invitation row for an address, used, expired or live. */
export function findInvite(db: Db, boardId: number, mail: string): Promise<InviteRow | undefined> {
  return db
    .selectFrom('board_invites')
    .select(inviteColumns)
    .where('boardId', '=', boardId)
    .where('email', '=', mail)
    .executeTakeFirst();
}

/** Invitations that can still be accepted (unused, unexpired), oldest first. */
export function listLiveInvites(db: Db, boardId: number, now: string): Promise<InviteRow[]> {
  return db
    .selectFrom('board_invites')
    .select(inviteColumns)
    .where('boardId', '=', boardId)
    .where('usedAt', 'is', null)
    .where('expiresAt', '>', now)
    .orderBy('id')
    .execute();
}

export interface InviteValues {
  permission: string;
  tokenHash: string;
  invitedBy: string;
  expiresAt: string;
}

export async function insertInvite(db: Db, boardId: number, mail: string, values: InviteValues, now: string): Promise<void> {
  await db
    .insertInto('board_invites')
    .values({ boardId, email: mail, ...values, usedAt: null, createdAt: now })
    .execute();
}

export async function renewInvite(db: Db, id: number, values: InviteValues & { createdAt?: string }): Promise<void> {
  await db
    .updateTable('board_invites')
    .set({ ...values, usedAt: null })
    .where('id', '=', id)
    .execute();
}

/**
 * Drops the board's not yet used invitation for an address (with `liveAt`,
 * only one still valid at that time); answers whether there was one.
 */
export async function deleteUnusedInvite(db: Db, boardId: number, mail: string, liveAt?: string): Promise<boolean> {
  const result = await db
    .deleteFrom('board_invites')
    .where('boardId', '=', boardId)
    .where('email', '=', mail)
    .where('usedAt', 'is', null)
    .$if(liveAt !== undefined, (q) => q.where('expiresAt', '>', liveAt!))
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** A not yet used, unexpired invitation by its token's hash, with its board while that is not archived. */
export function findLiveInvitation(db: Db, tokenHash: string, now: string) {
  return db
    .selectFrom('board_invites')
    .innerJoin('boards', 'boards.id', 'board_invites.boardId')
    .select(['board_invites.email', 'board_invites.permission', 'boards.name as boardName', 'boards.id as boardId'])
    .where('board_invites.tokenHash', '=', tokenHash)
    .where('board_invites.usedAt', 'is', null)
    .where('board_invites.expiresAt', '>', now)
    .where('boards.archivedAt', 'is', null)
    .executeTakeFirst();
}

/** The board of an invitation, live or not (used, expired): where a retried use of its link queues. */
export async function invitationBoard(db: Db, tokenHash: string): Promise<number | undefined> {
  const row = await db.selectFrom('board_invites').select('boardId').where('tokenHash', '=', tokenHash).executeTakeFirst();
  return row?.boardId;
}

/** Marks a live invitation used and answers it; a second claim finds nothing. */
export function claimInvitation(db: Db, tokenHash: string, now: string) {
  return db
    .updateTable('board_invites')
    .set({ usedAt: now })
    .where('tokenHash', '=', tokenHash)
    .where('usedAt', 'is', null)
    .where('expiresAt', '>', now)
    .returning(['boardId', 'email', 'permission'])
    .executeTakeFirst();
}

/** Adds a member, or sets the permission of one already there; answers whether a row was written. */
export async function joinBoard(
  db: Db,
  values: { boardId: number; userId: string; permission: string; readableFrom: number; createdAt: string },
): Promise<boolean> {
  const inserted = await db
    .insertInto('board_members')
    .values(values)
    .onConflict((oc) => oc.columns(['boardId', 'userId']).doUpdateSet({ permission: sql`excluded.permission` }))
    .execute();
  return inserted.length > 0;
}
