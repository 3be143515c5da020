import type { Deps } from '../../deps.js';
import { announce, REVOCATIONS } from '../../db/channels.js';
import { announceLinkChange, recheckLinkViewers } from '../public-links/public-socket.js';
import * as repo from './reclaim.repository.js';

/**
 * The address was just proven by its owner (a password reset, the first
 * confirmation of the address, a password set by an administrator): whoever
 * held the account before may have handed out standing access — API keys,
 * calendar feeds, webhooks, public links — that outlives their sessions. All
 * of it goes, in one transaction, and the sockets opened with it close.
 */
export async function endStandingAccess(deps: Pick<Deps, 'database' | 'bus' | 'log'>, userId: string): Promise<void> {
  const { keyIds, linkBoards } = await deps.database.db.transaction().execute(async (trx) => {
    const keyIds = await repo.deleteKeys(trx, userId);
    await repo.deleteCalendarFeeds(trx, userId);
    await repo.deleteWebhooks(trx, userId);
    const linkBoards = await repo.deletePublicLinks(trx, userId);
    // Told inside the transaction, as every revocation is: other processes hear it at the commit, a rollback tells nobody.
    for (const keyId of keyIds) await announce(deps.database.dialect, trx, REVOCATIONS, { userId, keyId }, true);
    for (const boardId of linkBoards) await announceLinkChange(deps, trx, boardId);
    return { keyIds, linkBoards };
  });
  for (const keyId of keyIds) deps.bus.revoke({ userId, keyId });
  await Promise.all(linkBoards.map((boardId) => recheckLinkViewers(deps, boardId)));
  if (keyIds.length + linkBoards.length > 0) {
    deps.log.info({ userId, keys: keyIds.length, links: linkBoards.length }, 'standing access ended: the address was reclaimed');
  }
}
