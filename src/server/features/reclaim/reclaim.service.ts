import { randomUUID } from 'node:crypto';
import type { Deps } from '../../deps.js';
import { announce, REVOCATIONS } from '../../db/channels.js';
import { systemWrite } from '../../events/board-write.js';
import { enqueue, type RegisterJobs } from '../../jobs/runner.js';
import { presentBoard } from '../../events/present-board.js';
import * as repo from './reclaim.repository.js';

type ReclaimDeps = Pick<Deps, 'database' | 'bus' | 'log' | 'config'>;

/** The job that ends a reclaim's public links if the process died before all their board writes committed. */
const FINISH_JOB = 'reclaim-links';
/** Long enough for the writes done right away to be over: the job then finds nothing left, or what a crash left. */
const FINISH_AFTER_MS = 60_000;

/**
 * The address was just proven by its owner (a password reset, the first
 * confirmation of the address, a password set by an administrator): whoever
 * held the account before may have handed out standing access — API keys,
 * calendar feeds, webhooks, public links — that outlives their sessions.
 *
 * First, in one transaction, what is not board content: the keys, feeds and
 * webhooks go (a webhook's own deletion is no board write either; and a
 * board write cannot delete webhooks, as its batch reads the board's
 * webhooks with the lock and would queue deliveries to the deleted ones),
 * the key revocations are announced, and a job is recorded. Then each board
 * that lost a webhook or shows the account's public link takes one write on
 * its path (`systemWrite`): the link goes, and `board.updated` tells its
 * viewers, public viewers, webhooks and other processes, as any change does.
 * A crash between these atomic steps leaves the recorded job, which ends the
 * links still there (a board write deletes only what is left, so running it
 * again changes nothing).
 */
export async function endStandingAccess(deps: ReclaimDeps, userId: string): Promise<void> {
  const { keyIds, hooked } = await deps.database.db.transaction().execute(async (trx) => {
    const keyIds = await repo.deleteKeys(trx, userId);
    await repo.deleteCalendarFeeds(trx, userId);
    const hooked = await repo.deleteWebhooks(trx, userId);
    // Told inside the transaction, as every revocation is: other processes hear it at the commit, a rollback tells nobody.
    for (const keyId of keyIds) await announce(deps.database.dialect, trx, REVOCATIONS, { userId, keyId }, true);
    await enqueue(trx, FINISH_JOB, `${FINISH_JOB}:${randomUUID()}`, { userId }, new Date(Date.now() + FINISH_AFTER_MS));
    return { keyIds, hooked };
  });
  for (const keyId of keyIds) deps.bus.revoke({ userId, keyId });
  const linked = await endLinks(deps, userId, hooked);
  if (keyIds.length + hooked.length + linked > 0) {
    deps.log.info(
      { userId, keys: keyIds.length, webhookBoards: hooked.length, links: linked },
      'standing access ended: the address was reclaimed',
    );
  }
}

/**
 * One write per board: the account's public link goes, and the board's
 * viewers hear `board.updated` (as do those of the boards in `changed`,
 * which lost their webhooks). Answers how many links ended.
 */
async function endLinks(deps: ReclaimDeps, userId: string, changed: readonly number[] = []): Promise<number> {
  const boards = new Set([...changed, ...(await repo.boardsWithLinks(deps.database.db, userId))]);
  let ended = 0;
  for (const boardId of [...boards].sort((a, b) => a - b)) {
    ended +=
      (await systemWrite(deps, boardId, async ({ trx, board, emit, tell }) => {
        const links = await repo.deleteBoardLinks(trx, boardId, userId);
        // The link's open views close once this commits (the `link.changed` subscriber).
        if (links > 0) tell('link.changed', {});
        // The board's sharing changed: its viewers (the owner's share settings among them) read it again.
        if (links > 0 || changed.includes(boardId)) emit('board.updated', { board: presentBoard(board) });
        return links;
      })) ?? 0;
  }
  return ended;
}

/** The reclaim's recorded job: the links a process that died mid-way did not get to. */
export const registerReclaimJobs: RegisterJobs = (runner, deps) => {
  runner.register(FINISH_JOB, async ({ payload }) => {
    if (typeof payload.userId === 'string') await endLinks(deps, payload.userId);
  });
};
