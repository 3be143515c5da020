import type { RawBuilder } from 'kysely';
import type { BoardEvent } from '../../shared/events.js';
import type { Actor } from '../auth/actor.js';
import type { Db } from '../db/database.js';
import type { Dialect } from '../db/dialects/index.js';
import type { BoardRow } from '../db/schema.js';
import type { Deps } from '../deps.js';

/*
 * One registry of what follows a board change, kept by the write path
 * (board-write.ts): features register their handlers here (app.ts wires
 * them in), and no service calls a side effect itself. A change is the
 * events it emitted (what viewers, webhooks and caches hear) and the facts
 * it told (what only the side effects need: who was assigned, which area a
 * card left). Three moments:
 *
 * - `written`: in the write's own transaction (its savepoint), right after
 *   its work: rows that must exist exactly when the change does
 *   (notifications). A handler that throws undoes the write.
 * - `stored`: in the batch's transaction, once per board with the batch's
 *   events, its column read by the version bump under the board's lock
 *   (webhook deliveries).
 * - committed: after the commit, through `deps.bus.subscribe` (the realtime
 *   hub, the read caches); other processes hear the board's version on the
 *   `BOARD_VERSIONS` channel (their hubs, caches and public viewers).
 */

/** What a change tells its side effects beyond its events, by name: none of it leaves the server. */
export interface BoardFactMap {
  /** Someone made a card (not a repeating card's successor). */
  'card.made': { cardId: number; card: string };
  /** People were put on a card. */
  'card.assigned': { cardId: number; card: string; assignees: string[] };
  /** A card was marked done or open again. */
  'card.status': { cardId: number; card: string; done: boolean };
  /** A card went to another area. */
  'card.moved': { cardId: number; card: string; from: string; to: string };
  /** Someone commented on a card. */
  'comment.written': { cardId: number; card: string; excerpt: string };
  /** A card's description or a comment was written; `after` may mention people `before` did not. */
  'text.mentioned': { cardId: number; card: string; commentId?: number; before: string; after: string };
  /** The owner gave an account access to the board. */
  'member.granted': { userId: string };
  /** A card's reminder came due (the service's own work: told without an actor). */
  'card.due': { cardId: number; card: string; due: string };
  /** A webhook of the board was turned off after too many failures in a row (the service's own work). */
  'webhook.disabled': { url: string; failures: number };
  /** The board's public link was made, replaced or ended: its open views check theirs again. */
  'link.changed': Record<string, never>;
}

export type BoardFactName = keyof BoardFactMap;

export type BoardFact = { [K in BoardFactName]: { name: K; data: BoardFactMap[K] } }[BoardFactName];

/** One write's change as its subscribers see it. */
export interface Change {
  events: readonly BoardEvent[];
  facts: readonly BoardFact[];
}

/** What a `written` handler works with: the write's transaction and what it read. */
export interface WrittenScope {
  trx: Db;
  dialect: Dialect;
  board: BoardRow;
  /** Who made the change; null for the service's own work. */
  actor: Actor | null;
  /** Everyone who joined the board, as the write read it. */
  audience: () => Promise<string[]>;
  afterCommit: (work: () => Promise<void>) => void;
  deps: SubscriberDeps;
}

export type SubscriberDeps = Pick<Deps, 'bus' | 'config' | 'database' | 'log'>;

export interface ChangeSubscriber {
  written?: (scope: WrittenScope, change: Change) => Promise<void>;
  /**
   * Whether `written` runs no statement for a change telling (some of)
   * `facts`, made by `actor` on a board joined by `audience`: then the write
   * may be sent back to back with others (board-write.ts, `QuickWork`).
   * Absent: it may run some.
   */
  quiet?: (facts: readonly BoardFactName[], who: { actor: Actor | null; audience: readonly string[] }) => boolean;
  stored?: StoredHandler;
}

/**
 * A part in storing a batch's events: `read` is one more column of the
 * version bump, so it is read under the board's lock without a statement of
 * its own; `store` gets its value with the stored events.
 */
export interface StoredHandler {
  read: (dialect: Dialect) => RawBuilder<string>;
  store: (trx: Db, boardId: number, events: readonly BoardEvent[], read: string) => Promise<void>;
}

const subscribers = new Map<string, ChangeSubscriber>();
let stored: { name: string; handler: StoredHandler } | undefined;

/**
 * Registers (or replaces) the feature's handlers under `name`. Set before the
 * first write: the version bump's SQL is built once per database with the
 * `stored` handler's column, so one feature at most may have one.
 */
export function subscribeToChanges(name: string, subscriber: ChangeSubscriber): void {
  if (subscriber.stored) {
    if (stored && stored.name !== name) throw new Error(`${stored.name} already reads the version bump's column`);
    stored = { name, handler: subscriber.stored };
  }
  subscribers.set(name, subscriber);
}

/** The `stored` handler, if a feature registered one. */
export function storedHandler(): StoredHandler | undefined {
  return stored?.handler;
}

/** Whether any `written` handler listens (a write with nothing to tell skips them). */
function anyWritten(): boolean {
  for (const s of subscribers.values()) if (s.written) return true;
  return false;
}

/** Whether no `written` handler runs a statement for a change telling (some of) `facts` (see `ChangeSubscriber.quiet`). */
export function changeIsQuiet(
  facts: readonly BoardFactName[],
  who: { actor: Actor | null; audience: readonly string[] },
): boolean {
  for (const subscriber of subscribers.values()) {
    if (subscriber.written && !(subscriber.quiet?.(facts, who) ?? false)) return false;
  }
  return true;
}

/** Runs every `written` handler for one write's change, in registration order. */
export async function changeWritten(scope: WrittenScope, change: Change): Promise<void> {
  if (change.events.length === 0 && change.facts.length === 0) return;
  if (!anyWritten()) return;
  for (const subscriber of subscribers.values()) await subscriber.written?.(scope, change);
}
