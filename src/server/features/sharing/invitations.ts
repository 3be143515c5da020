import type { Member } from '../../../shared/api/sharing.js';
import { accountIdByEmail, deleteAccount, markMailVerified } from '../../auth/accounts.repository.js';
import type { Actor } from '../../auth/actor.js';
import { nowIso } from '../../db/dialect.js';
import type { Deps } from '../../deps.js';
import { systemWrite } from '../../events/board-write.js';
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
  deps: Pick<Deps, 'database' | 'bus' | 'log' | 'config'>,
  token: string,
  account: Actor & { email: string },
): Promise<number> {
  const { dialect } = deps.database;
  const tokenHash = hashToken(token);
  // Which board the link is for, to queue on its write path; the claim below decides whether it still works
  // (a link used already may be a retry of this very request: its write gives back what it did).
  const boardOf = await repo.invitationBoard(deps.database.db, tokenHash);
  if (boardOf === undefined) throw invalid();
  let reclaimed = false;
  // The one the link was sent to joins: no access of theirs to check, the change is theirs (its events name them).
  const boardId = await systemWrite(
    deps,
    boardOf,
    async ({ trx, board, emit }) => {
      const invite = await repo.claimInvitation(trx, tokenHash, nowIso());
      if (!invite || invite.boardId !== board.id) throw invalid();
      if (invite.email !== account.email.toLowerCase()) throw new HttpError(403, 'This invitation was sent to another address');
      // The link came by mail to this address: whoever holds it, signed in to it, receives that mail.
      reclaimed = await markMailVerified(trx, dialect, account.id);
      if (board.archivedAt !== null) throw invalid();
      if (board.ownerId === account.id) return board.id;
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
      if (joined) emit('member.added', { member });
      return board.id;
    },
    { actor: account },
  );
  if (boardId === undefined) throw invalid();
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
