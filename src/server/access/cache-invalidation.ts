import type { FastifyBaseLogger } from 'fastify';
import type { Dialect } from '../db/dialects/index.js';
import { ACCOUNTS_CHANNEL, type ReadCaches } from './read-caches.js';
import { EVENTS_CHANNEL } from '../events/board-write.js';
import { REVOCATIONS_CHANNEL } from '../events/bus.js';

/**
 * Keeps one process's read caches fresh with the other processes' changes,
 * heard on the process's listening connection (PostgreSQL LISTEN):
 *
 * - `tavla_events` (sent inside the writing transaction, so delivered at its
 *   commit): the board's older entries go;
 * - `tavla_revocations` (a key deleted, an account banned or removed) and
 *   `tavla_accounts` (a new name, picture or role), sent right after the
 *   commit: the account's key actors go.
 *
 * The window: another process may answer from its cache from the commit
 * until the notification reaches it (normally well under a millisecond on one
 * host), never longer. A notification lost with the connection cannot be
 * replayed, so the caches stop serving the moment the connection fails and
 * start again, empty, only once it is listening again. A connection that dies
 * without a word is noticed by TCP keepalive.
 *
 * Where the dialect serves one process only (SQLite), every change is heard on
 * the bus and the caches serve at once. Answers the function that stops listening.
 */
export function keepCachesFresh(dialect: Dialect, url: string, caches: ReadCaches, log: FastifyBaseLogger): () => Promise<void> {
  const listener = dialect.listen(url, [EVENTS_CHANNEL, REVOCATIONS_CHANNEL, ACCOUNTS_CHANNEL], {
    message: (channel, text) => {
      try {
        const payload = JSON.parse(text) as { boardId?: number; version?: number; userId?: string };
        if (channel === EVENTS_CHANNEL) caches.boards.heard(payload.boardId!, payload.version!);
        else caches.actors.forgetAccount(payload.userId!);
      } catch (error) {
        // Something unreadable may have been a change: nothing cached can be trusted.
        caches.setLive(false);
        caches.setLive(true);
        log.warn({ err: error }, 'unreadable cache invalidation');
      }
    },
    connected: () => caches.setLive(true),
    lost: () => caches.setLive(false),
    warn: (error, text) => log.warn({ err: error }, `cache invalidation ${text}; reads go to the database meanwhile`),
  });
  if (!listener) {
    caches.setLive(true);
    return () => Promise.resolve();
  }
  return async () => {
    caches.setLive(false);
    await listener.stop();
  };
}
