import type { Member } from '../../../shared/api/sharing.js';
import { accountIdByEmail, deleteAccount, markMailVerified } from '../../auth/accounts.repository.js';
import type { Actor } from '../../auth/actor.js';
import { nowIso } from '../../db/dialect.js';
import type { Deps } from '../../deps.js';
import { recordEvents } from '../../events/board-write.js';
import { HttpError, notFound } from '../../http/errors.js';
import { endStandingAccess } from '../reclaim/reclaim.service.js';
import * as repo from './sharing.repository.js';
import { hashToken } from './sharing.service.js';

const invalid = () => notFound('INVALID_INVITATION');

/** What an invitation link is for, while it can still be used. */
export async function readInvitation(deps: Pick<Deps, 'database'>, token: string) {
  const row = await repo.findLiveInvitation(deps.database.db, hashToken(token), nowIso());
  if (!row) throw invalid();
  return row;
}

/**
 * Uses the link once: the invitation is claimed (a second use finds it
 * gone), the account's address counts as verified, the account joins the
 * board with the invited permission, and viewers and the account's dashboard hear of it.
 */
export async function joinByInvitation(
  deps: Pick<Deps, 'database' | 'bus' | 'log'>,
  token: string,
  account: Actor & { email: string },
): Promise<number> {
  const { db, dialect } = deps.database;
  let reclaimed = false;
  const { boardId, events } = await db.transaction().execute(async (trx) => {
    const invite = await repo.claimInvitation(trx, hashToken(token), nowIso());
    if (!invite) throw invalid();
    if (invite.email !== account.email.toLowerCase()) throw new HttpError(403, 'This invitation was sent to another address');
    // The link came by mail to this address: whoever holds it, signed in to it, receives that mail.
    reclaimed = await markMailVerified(trx, dialect, account.id);
    const board = await repo.lockBoard(trx, dialect, invite.boardId);
    if (!board || board.archivedAt !== null) throw invalid();
    if (board.ownerId === account.id) return { boardId: board.id, events: [] };
    const joined = await repo.joinBoard(trx, {
      boardId: board.id,
      userId: account.id,
      permission: invite.permission,
      readableFrom: board.version,
      createdAt: nowIso(),
    });
    const member: Member = {
      id: account.id,
      name: account.name,
      image: account.image,
      permission: invite.permission as Member['permission'],
    };
    return {
      boardId: board.id,
      events: joined ? await recordEvents(trx, board, account, [{ name: 'member.added', data: { member } }]) : [],
    };
  });
  deps.bus.publish(events);
  // The first confirmation of the address, like the mailed link's: what a squatter handed out ends.
  if (reclaimed) await endStandingAccess(deps, account.id);
  return boardId;
}

/** Whether the invited address has an account already: its owner signs in and opens the link again instead. */
export async function invitedAccountExists(deps: Pick<Deps, 'database'>, email: string): Promise<boolean> {
  return (await accountIdByEmail(deps.database.db, email)) !== undefined;
}

/** Removes the account made for an invitation that was used meanwhile, so none is left behind. */
export async function removeUnjoinedAccount(deps: Pick<Deps, 'database'>, userId: string): Promise<void> {
  await deleteAccount(deps.database.db, userId);
}
