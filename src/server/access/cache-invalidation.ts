import type { FastifyBaseLogger } from 'fastify';
import type { Dialect } from '../db/dialects/index.js';
import { ACCOUNT_CHANGES, BOARD_VERSIONS, listenTo, on, REVOCATIONS } from '../db/channels.js';
import type { ReadCaches } from './read-caches.js';

/**
 * Keeps one process's read caches fresh with the other processes' changes,
 * heard on the process's listening connection (PostgreSQL LISTEN):
 *
 * - `tavla_events` (sent inside the writing transaction, so delivered at its
 *   commit): the board's older entries go;
 * - `tavla_revocations` (a key deleted: sent inside the deleting transaction;
 *   an account banned or removed, a session ended: sent by the database's
 *   triggers inside whichever transaction made the change, see
 *   account-announcements.ts): what it names goes (one key's actor, or every
 *   key actor of the account);
 * - `tavla_accounts` (a new name, picture, address, role, or an unban: the
 *   same triggers): the account's key actors go.
 *
 * The window: another process may answer from its cache from the commit
 * until the notification reaches it (normally well under a millisecond on one
 * host). A notification lost with the connection cannot be replayed, so the
 * caches stop serving the moment the connection fails and start again, empty,
 * only once it is listening again. A connection that dies without a word is
 * noticed by TCP keepalive. Every notification is sent inside its
 * change's transaction, so none is missing from a commit; as a backstop no
 * entry lives longer than `CACHE_LIFETIME_MS`.
 *
 * Where the dialect serves one process only (SQLite), every change is heard on
 * the bus and the caches serve at once. Answers the function that stops listening.
 */
export function keepCachesFresh(dialect: Dialect, url: string, caches: ReadCaches, log: FastifyBaseLogger): () => Promise<void> {
  const listener = listenTo(
    dialect,
    url,
    [
      on(BOARD_VERSIONS, ({ boardId, version }) => caches.boards.heard(boardId, version)),
      on(REVOCATIONS, (revocation) => caches.actors.forgetRevoked(revocation)),
      on(ACCOUNT_CHANGES, ({ userId }) => caches.actors.forgetAccount(userId)),
    ],
    {
      // Something unreadable may have been a change: nothing cached can be trusted.
      dropped: () => {
        caches.setLive(false);
        caches.setLive(true);
      },
      connected: () => caches.setLive(true),
      lost: () => caches.setLive(false),
      warn: (error, text) => log.warn({ err: error }, `cache invalidation: ${text}; reads go to the database meanwhile`),
    },
  );
  if (!listener) {
    caches.setLive(true);
    return () => Promise.resolve();
  }
  return async () => {
    caches.setLive(false);
    await listener.stop();
  };
}
