import { EventEmitter } from 'node:events';

import type { BoardEvent } from '../../shared/events.js';
import type { Revocation } from '../db/channels.js';

export type { BoardEvent, Revocation };

/**
 * Carries committed board events to whoever listens in this process (the
 * realtime hub). Services never call it: the write path publishes after commit.
 */
export class EventBus {
  readonly #emitter = new EventEmitter().setMaxListeners(0);

  /** The events one transaction committed, in version order. */
  publish(events: readonly BoardEvent[]): void {
    if (events.length > 0) this.#emitter.emit('events', events);
  }

  subscribe(listener: (events: readonly BoardEvent[]) => void): () => void {
    this.#emitter.on('events', listener);
    return () => this.#emitter.off('events', listener);
  }

  /** New notifications, each for one account. */
  publishNotifications(items: ReadonlyArray<{ userId: string; notification: unknown }>): void {
    if (items.length > 0) this.#emitter.emit('notifications', items);
  }

  subscribeNotifications(listener: (items: ReadonlyArray<{ userId: string; notification: unknown }>) => void): () => void {
    this.#emitter.on('notifications', listener);
    return () => this.#emitter.off('notifications', listener);
  }

  /**
   * Credentials that no longer work (signed out, deleted, banned), in this
   * process, after the commit. The other processes were told inside the
   * transaction: by the writer (a deleted key) or by the database itself (a
   * session ended, an account banned or removed: see account-announcements.ts).
   */
  revoke(revocation: Revocation): void {
    this.#emitter.emit('revocation', revocation);
  }

  subscribeRevocations(listener: (revocation: Revocation) => void): () => void {
    this.#emitter.on('revocation', listener);
    return () => this.#emitter.off('revocation', listener);
  }
}
