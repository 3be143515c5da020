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
   * process. `announced`: the writer already told the other processes (a
   * `REVOCATIONS` notification in its transaction); else the realtime side
   * tells them now, after the commit.
   */
  revoke(revocation: Revocation, announced = false): void {
    this.#emitter.emit('revocation', revocation, announced);
  }

  subscribeRevocations(listener: (revocation: Revocation, announced: boolean) => void): () => void {
    this.#emitter.on('revocation', listener);
    return () => this.#emitter.off('revocation', listener);
  }
}
