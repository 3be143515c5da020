import type { FastifyBaseLogger } from 'fastify';
import type { BoardEvent } from '../../shared/events.js';
import type { Database, Db } from '../db/database.js';
import type { Notification } from '../../shared/api/notifications.js';
import { BOARD_VERSIONS, listenTo, NEW_NOTIFICATIONS, on, REVOCATIONS, type Revocation } from '../db/channels.js';
import { sessionExists } from '../auth/accounts.repository.js';
import type { Hub } from './hub.js';

/** How long an ended session has to come back (a password change) before its sockets close. */
const SESSION_RETURN_MS = 300;

/** Reads the boards' current versions (for the sweep). */
export type BoardVersions = (db: Db, boardIds: number[]) => Promise<Array<{ id: number; version: number }>>;

/**
 * What the listener reads from the features, passed in by app.ts: core
 * does not import features, whose data these are.
 */
export interface ListenerFeeds {
  boardVersions: BoardVersions;
  /** Notifications by id with their recipients, ready to push (another process wrote them). */
  notificationsByIds: (db: Db, ids: number[]) => Promise<Array<{ userId: string; notification: Notification }>>;
}

/**
 * Hears every process's committed board versions (and new notifications)
 * through the database's notifications (PostgreSQL LISTEN/NOTIFY) and hands
 * them to the hub, which reads the events from the log. A notification lost while the connection was down is caught up by a
 * sweep of the watched boards' versions, so an event can be late, never lost;
 * revoked credentials (`tavla_revocations`) likewise by checking every socket's.
 */
export function listenForEvents(
  url: string,
  database: Database,
  hub: Hub,
  log: FastifyBaseLogger,
  feeds: ListenerFeeds,
  sweepMs = 5000,
): (() => Promise<void>) | null {
  // Notifications are pushed, not resumed: a lost one is still in the list the next time it is read.
  const pushNotifications = async ({ ids }: { ids: number[] }) => {
    try {
      for (const { userId, notification } of await feeds.notificationsByIds(database.db, ids)) {
        hub.sendToAccount(userId, { type: 'notification', notification });
      }
    } catch (error) {
      log.warn({ err: error }, 'notification push failed');
    }
  };

  // A password change ends every session and opens the changing tab's again under its id, in steps the
  // sign-in library commits one by one: a session back within a moment did not end, and its sockets go on.
  const endSession = async (revocation: Revocation): Promise<void> => {
    try {
      if (revocation.sessionId !== undefined) {
        await new Promise((resolve) => setTimeout(resolve, SESSION_RETURN_MS));
        if (await sessionExists(database.db, revocation.sessionId)) return;
      }
    } catch (error) {
      log.warn({ err: error }, 'session check failed; its sockets close');
    }
    hub.revoke(revocation);
  };

  const sweep = () => sweepVersions(database.db, hub, feeds.boardVersions);

  const listener = listenTo(
    database.dialect,
    url,
    [
      on(BOARD_VERSIONS, ({ boardId, version, deleted }) => hub.notify(boardId, version, deleted as BoardEvent | undefined)),
      on(NEW_NOTIFICATIONS, (payload) => void pushNotifications(payload)),
      on(REVOCATIONS, (revocation) => void endSession(revocation)),
    ],
    {
      connected: async () => {
        await sweep();
        // Revocations announced while the connection was down are found in the credentials themselves.
        await hub.audit().catch((error: unknown) => log.warn({ err: error }, 'credential audit failed'));
      },
      warn: (error, text) => log.warn({ err: error }, `event ${text}`),
    },
  );
  // One process (SQLite) hears its own in memory.
  if (listener === null) return null;

  const sweeper = setInterval(
    () => void sweep().catch((error: unknown) => log.warn({ err: error }, 'event sweep failed')),
    sweepMs,
  );
  sweeper.unref();
  return async () => {
    clearInterval(sweeper);
    await listener.stop();
  };
}

/** What keeps viewers of boards at a version in this process: the hub, the public views. */
export interface VersionWatcher {
  watchedBoards(): number[];
  /** The board is at `version`: what the viewers have not had yet is read from the event log. */
  notify(boardId: number, version: number): void;
}

/**
 * Brings the watched boards to their current versions, for the
 * notifications lost while the listening connection was down. Harmless when
 * nothing was missed: a version the watcher already has is ignored.
 */
export async function sweepVersions(db: Db, watcher: VersionWatcher, boardVersions: BoardVersions): Promise<void> {
  const boards = watcher.watchedBoards();
  if (boards.length === 0) return;
  const rows = await boardVersions(db, boards);
  for (const row of rows) watcher.notify(row.id, row.version);
}
