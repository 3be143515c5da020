import type { Actor } from '../auth/actor.js';
import type { BoardRow } from '../db/schema.js';
import { forbidden } from '../http/errors.js';

/*
 * The rules themselves, with no query and nothing imported from the rest of
 * access/: a board's level for an account and the instance administrator.
 * Every other form of them (a request's check, a query's condition, a set of
 * accounts) is written from these in policy.ts and audience.ts.
 */

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

/** Whether the account administers the instance: what only the instance as a whole is asked for (its export), never a board. */
export function isAdmin(actor: Pick<Actor, 'role'>): boolean {
  return actor.role === 'admin';
}

/** Refuses (403) anyone but an administrator; `what` ends the message, as in "Only an administrator can export the instance". */
export function requireAdmin(actor: Pick<Actor, 'role'>, what: string): void {
  if (!isAdmin(actor)) throw forbidden(`Only an administrator can ${what}`);
}
