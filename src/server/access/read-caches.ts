import { ActorCache } from '../auth/actor-cache.js';
import type { Database, Db } from '../db/database.js';
import type { EventBus } from '../events/bus.js';
import type { Clock } from './cache-lifetime.js';
import { BoardAccessCache } from './board-access-cache.js';

/** The in-process caches of the read path: who a key is, and what a board lets a caller read. */
export interface ReadCaches {
  actors: ActorCache;
  boards: BoardAccessCache;
  /** Starts or stops serving from both; either way they start empty. */
  setLive(live: boolean): void;
}

// Keyed by the database handle the app serves with: a transaction is another handle, so it always reads the database.
const registry = new WeakMap<Db, ReadCaches>();

/** The caches serving reads on `db`, if an app made them (callers without them just query). */
export function readCachesOf(db: Db): ReadCaches | undefined {
  return registry.get(db);
}

/**
 * Makes the caches of one app and keeps them fresh from this process's bus:
 * committed events drop the entries of older board versions and revocations
 * forget the account's keys, both before the write's response is sent. They
 * stay off until `setLive(true)`: at once on SQLite (one process), on
 * PostgreSQL once the listener of the other processes' changes is connected.
 * Returns the unsubscribing function.
 */
export function createReadCaches(
  database: Database,
  bus: EventBus,
  now: Clock = Date.now,
): { caches: ReadCaches; stop: () => void } {
  const actors = new ActorCache(undefined, now);
  const boards = new BoardAccessCache(undefined, now);
  const caches: ReadCaches = {
    actors,
    boards,
    setLive: (live) => {
      actors.setLive(live);
      boards.setLive(live);
    },
  };
  registry.set(database.db, caches);
  const unsubscribeEvents = bus.subscribe((events) => {
    for (const event of events) boards.heard(event.boardId, event.version);
  });
  const unsubscribeRevocations = bus.subscribeRevocations((revocation) => actors.forgetRevoked(revocation));
  return {
    caches,
    stop: () => {
      unsubscribeEvents();
      unsubscribeRevocations();
      caches.setLive(false);
      registry.delete(database.db);
    },
  };
}

/**
 * An account's name, picture or role changed (committed): this process
 * forgets its keys' actors at once. The others were told by the database in
 * the changing transaction (`ACCOUNT_CHANGES`, see account-announcements.ts).
 */
export function accountChanged(database: Database, userId: string): void {
  readCachesOf(database.db)?.actors.forgetAccount(userId);
}
