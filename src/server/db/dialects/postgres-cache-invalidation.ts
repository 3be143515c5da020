import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';
import { ACCOUNTS_CHANNEL, type ReadCaches } from '../../access/read-caches.js';
import { EVENTS_CHANNEL } from '../../events/board-write.js';
import { REVOCATIONS_CHANNEL } from '../../events/bus.js';

/**
 * Keeps one process's read caches fresh with the other processes' changes,
 * heard through PostgreSQL LISTEN on a connection of its own:
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
 */
/** How the listener's connection shows in pg_stat_activity. */
export const LISTENER_NAME = 'tavla-cache-invalidation';

export function listenForCacheInvalidation(url: string, caches: ReadCaches, log: FastifyBaseLogger): () => Promise<void> {
  let client: pg.Client | null = null;
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;

  const onNotification = (message: pg.Notification) => {
    try {
      if (!message.payload) return;
      const payload = JSON.parse(message.payload) as { boardId?: number; version?: number; userId?: string };
      if (message.channel === EVENTS_CHANNEL) caches.boards.heard(payload.boardId!, payload.version!);
      else if (message.channel === REVOCATIONS_CHANNEL || message.channel === ACCOUNTS_CHANNEL) {
        caches.actors.forgetAccount(payload.userId!);
      }
    } catch (error) {
      // Something unreadable may have been a change: nothing cached can be trusted.
      caches.setLive(false);
      caches.setLive(true);
      log.warn({ err: error }, 'unreadable cache invalidation');
    }
  };

  const connect = async () => {
    const next = new pg.Client({ connectionString: url, keepAlive: true, application_name: LISTENER_NAME });
    next.on('notification', onNotification);
    next.on('error', (error) => {
      caches.setLive(false);
      log.warn({ err: error }, 'cache invalidation listener lost; reads go to the database until it is back');
      void next.end().catch(() => undefined);
      if (client === next) client = null;
      schedule(1000);
    });
    next.on('end', () => {
      if (client === next) {
        caches.setLive(false);
        client = null;
        schedule(1000);
      }
    });
    try {
      await next.connect();
      await next.query(`LISTEN ${EVENTS_CHANNEL}; LISTEN ${REVOCATIONS_CHANNEL}; LISTEN ${ACCOUNTS_CHANNEL}`);
      if (stopped) return void (await next.end());
      client = next;
      caches.setLive(true);
    } catch (error) {
      caches.setLive(false);
      log.warn({ err: error }, 'cache invalidation listener could not connect; retrying');
      void next.end().catch(() => undefined);
      schedule(2000);
    }
  };

  const schedule = (ms: number) => {
    if (stopped || retry) return;
    retry = setTimeout(() => {
      retry = undefined;
      void connect();
    }, ms);
  };

  void connect();
  return async () => {
    stopped = true;
    clearTimeout(retry);
    caches.setLive(false);
    const last = client;
    client = null;
    await last?.end().catch(() => undefined);
  };
}
