import { sql } from 'kysely';
import type { Member } from '../../../shared/api/sharing.js';
import type { Actor } from '../../auth/actor.js';
import { nowIso } from '../../db/dialect.js';
import type { Deps } from '../../deps.js';
import { recordEvents } from '../../events/board-write.js';
import { HttpError, notFound } from '../../http/errors.js';
import { hashToken } from './sharing.service.js';

const invalid = () => notFound('INVALID_INVITATION');

/** What an invitation link is for, while it can still be used. */
export async function readInvitation(deps: Pick<Deps, 'database'>, token: string) {
  const row = await deps.database.db
    .selectFrom('board_invites')
    .innerJoin('boards', 'boards.id', 'board_invites.boardId')
    .select(['board_invites.email', 'board_invites.permission', 'boards.name as boardName', 'boards.id as boardId'])
    .where('board_invites.tokenHash', '=', hashToken(token))
    .where('board_invites.usedAt', 'is', null)
    .where('board_invites.expiresAt', '>', nowIso())
    .where('boards.archivedAt', 'is', null)
    .executeTakeFirst();
  if (!row) throw invalid();
  return row;
}

/**
 * Uses the link once: the invitation is claimed (a second use finds it
 * gone), the account's address counts as verified, the account joins the
 * board with the invited permission, and viewers and the account's dashboard hear of it.
 */
export async function joinByInvitation(
  deps: Pick<Deps, 'database' | 'bus'>,
  token: string,
  account: Actor & { email: string },
): Promise<number> {
  const { db, dialect } = deps.database;
  const { boardId, events } = await db.transaction().execute(async (trx) => {
    const invite = await trx
      .updateTable('board_invites')
      .set({ usedAt: nowIso() })
      .where('tokenHash', '=', hashToken(token))
      .where('usedAt', 'is', null)
      .where('expiresAt', '>', nowIso())
      .returning(['boardId', 'email', 'permission'])
      .executeTakeFirst();
    if (!invite) throw invalid();
    if (invite.email !== account.email.toLowerCase()) throw new HttpError(403, 'This invitation was sent to another address');
    // The link came by mail to this address: whoever holds it, signed in to it, receives that mail.
    await trx.updateTable('user').set({ emailVerified: dialect.true }).where('id', '=', account.id).execute();
    const board = await trx
      .selectFrom('boards')
      .selectAll()
      .where('id', '=', invite.boardId)
      .$call((q) => dialect.lockForUpdate(q))
      .executeTakeFirst();
    if (!board || board.archivedAt !== null) throw invalid();
    if (board.ownerId === account.id) return { boardId: board.id, events: [] };
    const inserted = await trx
      .insertInto('board_members')
      .values({
        boardId: board.id,
        userId: account.id,
        permission: invite.permission,
        readableFrom: board.version,
        createdAt: nowIso(),
      })
      .onConflict((oc) => oc.columns(['boardId', 'userId']).doUpdateSet({ permission: sql`excluded.permission` }))
      .execute();
    const member: Member = {
      id: account.id,
      name: account.name,
      image: account.image,
      permission: invite.permission as Member['permission'],
    };
    return {
      boardId: board.id,
      events: inserted.length > 0 ? await recordEvents(trx, board, account, [{ name: 'member.added', data: { member } }]) : [],
    };
  });
  deps.bus.publish(events);
  return boardId;
}
