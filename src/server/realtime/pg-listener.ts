import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';
import type { BoardEvent } from '../../shared/events.js';
import type { Database } from '../db/database.js';
import { EVENTS_CHANNEL } from '../events/board-write.js';
import { REVOCATIONS_CHANNEL, type Revocation } from '../events/bus.js';
import { NOTIFICATIONS_CHANNEL, notificationsByIds } from '../features/notifications/notifications.service.js';
import type { Hub } from './hub.js';

/**
 * Hears every process's committed board versions (and new notifications) through PostgreSQL
 * LISTEN/NOTIFY and hands them to the hub, which reads the events from the
 * log. A notification lost while the connection was down is caught up by a
 * sweep of the watched boards' versions, so an event can be late, never lost;
 * revoked credentials (`tavla_revocations`) likewise by checking every socket's.
 */
export function listenForEvents(
  url: string,
  database: Database,
  hub: Hub,
  log: FastifyBaseLogger,
  sweepMs = 5000,
): () => Promise<void> {
  let client: pg.Client | null = null;
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;

  const connect = async () => {
    const next = new pg.Client({ connectionString: url });
    next.on('notification', (message) => {
      if (!message.payload) return;
      if (message.channel === NOTIFICATIONS_CHANNEL) return void pushNotifications(message.payload);
      if (message.channel === REVOCATIONS_CHANNEL) return revoke(message.payload);
      if (message.channel !== EVENTS_CHANNEL) return;
      try {
        const { boardId, version, deleted } = JSON.parse(message.payload) as {
          boardId: number;
          version: number;
          deleted?: BoardEvent;
        };
        hub.notify(boardId, version, deleted);
      } catch (error) {
        log.warn({ err: error }, 'unreadable event notification');
      }
    });
    next.on('error', (error) => {
      log.warn({ err: error }, 'event listener connection lost; reconnecting');
      void next.end().catch(() => undefined);
      if (client === next) client = null;
      schedule(1000);
    });
    try {
      await next.connect();
      await next.query(`LISTEN ${EVENTS_CHANNEL}`);
      await next.query(`LISTEN ${NOTIFICATIONS_CHANNEL}`);
      await next.query(`LISTEN ${REVOCATIONS_CHANNEL}`);
      if (stopped) return void (await next.end());
      client = next;
      await sweep();
      // Revocations announced while the connection was down are found in the credentials themselves.
      await hub.audit().catch((error: unknown) => log.warn({ err: error }, 'credential audit failed'));
    } catch (error) {
      log.warn({ err: error }, 'event listener could not connect; retrying');
      void next.end().catch(() => undefined);
      schedule(2000);
    }
  };

  // Notifications are pushed, not resumed: a lost one is still in the list the next time it is read.
  const pushNotifications = async (payload: string) => {
    try {
      const { ids } = JSON.parse(payload) as { ids: number[] };
      for (const { userId, notification } of await notificationsByIds(database.db, ids)) {
        hub.sendToAccount(userId, { type: 'notification', notification });
      }
    } catch (error) {
      log.warn({ err: error }, 'notification push failed');
    }
  };

  const revoke = (payload: string) => {
    try {
      hub.revoke(JSON.parse(payload) as Revocation);
    } catch (error) {
      log.warn({ err: error }, 'unreadable revocation');
    }
  };

  const schedule = (ms: number) => {
    if (stopped || retry) return;
    retry = setTimeout(() => {
      retry = undefined;
      void connect();
    }, ms);
  };

  const sweep = async () => {
    const boards = hub.watchedBoards();
    if (boards.length === 0) return;
    const rows = await database.db.selectFrom('boards').select(['id', 'version']).where('id', 'in', boards).execute();
    for (const row of rows) hub.notify(row.id, row.version);
  };
  const sweeper = setInterval(
    () => void sweep().catch((error: unknown) => log.warn({ err: error }, 'event sweep failed')),
    sweepMs,
  );
  sweeper.unref();

  void connect();
  return async () => {
    stopped = true;
    clearInterval(sweeper);
    clearTimeout(retry);
    await client?.end().catch(() => undefined);
  };
}
