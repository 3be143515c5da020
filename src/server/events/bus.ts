import { EventEmitter } from 'node:events';

/** One change to a board as viewers receive it. */
export interface BoardEvent {
  boardId: number;
  version: number;
  name: string;
  actor: { id: string; name: string } | null;
  data: unknown;
  createdAt: string;
}

/**
 * Carries committed board events to whoever listens in this process (the
 * realtime hub). Services never call it: the write path publishes after commit.
 */
export class EventBus {
  readonly #emitter = new EventEmitter().setMaxListeners(0);

  publish(events: readonly BoardEvent[]): void {
    for (const event of events) this.#emitter.emit('event', event);
  }

  subscribe(listener: (event: BoardEvent) => void): () => void {
    this.#emitter.on('event', listener);
    return () => this.#emitter.off('event', listener);
  }
}
