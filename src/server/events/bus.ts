import { EventEmitter } from 'node:events';

import type { BoardEvent } from '../../shared/events.js';

export type { BoardEvent };

/** The PostgreSQL channel on which revocations reach every process. */
export const REVOCATIONS_CHANNEL = 'tavla_revocations';

/**
 * A credential stopped working: one session, one API key, or (neither named)
 * every credential of the account. Sockets opened with it must close.
 */
export interface Revocation {
  userId: string;
  sessionId?: string;
  keyId?: string;
}

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

  /** Credentials that no longer work (signed out, deleted, banned); reaches every process. */
  revoke(revocation: Revocation): void {
    this.#emitter.emit('revocation', revocation);
  }

  subscribeRevocations(listener: (revocation: Revocation) => void): () => void {
    this.#emitter.on('revocation', listener);
    return () => this.#emitter.off('revocation', listener);
  }
}
