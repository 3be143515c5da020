import type { FastifyBaseLogger } from 'fastify';
import { CLOSE_CREDENTIAL_ENDED, type BoardEvent, type ServerMessage, type Viewer } from '../../shared/events.js';
import { credentialValidUntil, type Actor } from '../auth/actor.js';
import { boardAudience, boardReaders, readableFrom, requireBoard } from '../access/index.js';
import type { Database } from '../db/database.js';
import type { BoardRow } from '../db/schema.js';
import type { Revocation } from '../events/bus.js';
import { HttpError } from '../http/errors.js';
import { readEvents } from './event-log.js';
import { inSpan } from '../telemetry/tracing.js';

/** Past this many missed events a viewer is told to reload instead of replaying them. */
export const MAX_REPLAY = 500;

/** One connected socket, as the hub sees it. */
export interface Client {
  readonly actor: Actor;
  /** Sends a message; `droppable` ones are skipped when the socket is backed up. */
  send(message: ServerMessage, droppable?: boolean): void;
  /**
   * Sends an already serialised message (one JSON.stringify per event, not per
   * viewer); `droppable` ones are skipped when the socket is backed up.
   * Answers whether it was sent.
   */
  sendRaw(json: string, droppable?: boolean): boolean;
  /** Ends the connection; nothing more is sent on it. */
  close(code: number, reason: string): void;
}

interface Subscription {
  /** The last version this viewer has received. */
  lastSent: number;
  cardId: number | null;
}

const DASHBOARD_EVENTS = new Set([
  'board.created',
  'board.updated',
  'board.archived',
  'board.restored',
  'board.deleted',
  'member.added',
  'member.updated',
  'member.removed',
]);
const ACCESS_EVENTS = new Set(['board.updated', 'member.updated', 'member.removed']);

/** How often, at most, a board's viewers hear who else views it (joins, leaves and opened cards are coalesced). */
export const PRESENCE_INTERVAL_MS = 150;

/** A board's presence as this process tells it: changes are gathered and sent once per interval. */
interface BoardPresence {
  /** The flush to come, if one is due. */
  timer: NodeJS.Timeout | null;
  lastFlush: number;
  /** Who views the board changed (here or on another process) since the last flush. */
  dirty: boolean;
  /** This process's viewers changed: the other processes hear of it at the next flush. */
  localChanged: boolean;
  /** What the viewers were last told, by account. */
  told: Map<string, Viewer>;
  /** Viewers owed the whole list: new ones, and those a change was not sent to (socket backed up). */
  untold: Set<Client>;
}

export interface HubOptions {
  /** At most one presence message per board per this many milliseconds. */
  presenceIntervalMs?: number;
}

/** The viewers other processes hold (PostgreSQL, presence-relay.ts); the hub only knows its own. */
export interface RemotePresence {
  /** This process's viewers of a board changed (an empty list: none left here). */
  announce(boardId: number, viewers: Viewer[]): void;
  /** The viewers of a board on the other processes. */
  viewers(boardId: number): Viewer[];
}

/**
 * Who watches what, in this process. Everything about one board (subscribing,
 * delivering, revoking) runs in that board's own queue, so a viewer receives
 * every version once, in order, and never an event after losing access.
 * Events come from this process after commit (`publish`) or from another
 * process through the database (`notify`); gaps are filled from the event log.
 */
export class Hub {
  readonly #boards = new Map<number, Map<Client, Subscription>>();
  readonly #accounts = new Map<string, Set<Client>>();
  /** The last version handled for each board with viewers here. */
  readonly #cursor = new Map<number, number>();
  readonly #queues = new Map<number, Promise<void>>();
  readonly #presence = new Map<number, BoardPresence>();
  readonly #presenceIntervalMs: number;
  #remote: RemotePresence | null = null;

  constructor(
    private readonly database: Database,
    private readonly log: FastifyBaseLogger,
    { presenceIntervalMs = PRESENCE_INTERVAL_MS }: HubOptions = {},
  ) {
    this.#presenceIntervalMs = presenceIntervalMs;
  }

  connect(client: Client): void {
    const set = this.#accounts.get(client.actor.id) ?? new Set();
    set.add(client);
    this.#accounts.set(client.actor.id, set);
  }

  disconnect(client: Client): void {
    const set = this.#accounts.get(client.actor.id);
    set?.delete(client);
    if (set?.size === 0) this.#accounts.delete(client.actor.id);
    for (const [boardId, subs] of this.#boards) {
      if (subs.has(client)) void this.#enqueue(boardId, () => this.#drop(boardId, client));
    }
  }

  /** Boards with viewers in this process (the PostgreSQL listener sweeps these). */
  watchedBoards(): number[] {
    return [...this.#boards.keys()];
  }

  /** Merges other processes' viewers into the presence messages, and tells them of this process's. */
  attachPresence(remote: RemotePresence): void {
    this.#remote = remote;
  }

  get remotePresence(): RemotePresence | null {
    return this.#remote;
  }

  /** Another process's viewers of a board changed: this process's viewers hear of it. */
  remotePresenceChanged(boardId: number): void {
    if (this.#boards.has(boardId)) this.#presenceChanged(boardId, false);
  }

  /** This process's viewers of every board it has viewers of (for a full re-announce). */
  localPresence(): Map<number, Viewer[]> {
    return new Map([...this.#boards.keys()].map((boardId) => [boardId, this.#localViewers(boardId)]));
  }

  viewerCount(): number {
    let n = 0;
    for (const subs of this.#boards.values()) n += subs.size;
    return n;
  }

  subscribe(client: Client, boardId: number, since: number | undefined): Promise<void> {
    return this.#enqueue(boardId, async () => {
      const { db } = this.database;
      let board: BoardRow;
      try {
        ({ board } = await requireBoard(db, client.actor, boardId, 'read'));
      } catch (error) {
        const message = error instanceof HttpError ? 'Board not found or not readable' : 'Subscription failed';
        return client.send({ type: 'error', boardId, error: message });
      }
      const { version } = board;
      const subs = this.#boards.get(boardId) ?? new Map<Client, Subscription>();
      this.#boards.set(boardId, subs);
      const existing = subs.get(client);
      subs.set(client, { lastSent: version, cardId: existing?.cardId ?? null });
      if (!this.#cursor.has(boardId)) this.#cursor.set(boardId, version);
      client.send({ type: 'subscribed', boardId, version });

      if (since !== undefined && since < version) {
        const replayable = version - since <= MAX_REPLAY && since >= (await readableFrom(db, board, client.actor.id));
        const missed = replayable ? await readEvents(db, boardId, since, version) : [];
        // Rows pruned or redacted, too many to replay, or from before the viewer could read the board: reload instead.
        if (missed.length !== version - since) client.send({ type: 'resync', boardId });
        else for (const event of missed) client.sendRaw(eventJson(event));
      }
      // The list itself comes with the board's next presence flush: nothing here costs more with a larger audience.
      if (!existing) this.#presenceChanged(boardId, true, client);
    });
  }

  unsubscribe(client: Client, boardId: number): Promise<void> {
    return this.#enqueue(boardId, () => this.#drop(boardId, client));
  }

  /** Which card the viewer has open; everyone on the board hears of it. */
  setPresence(client: Client, boardId: number, cardId: number | null): Promise<void> {
    return this.#enqueue(boardId, () => {
      const sub = this.#boards.get(boardId)?.get(client);
      if (!sub || sub.cardId === cardId) return;
      sub.cardId = cardId;
      this.#presenceChanged(boardId, true);
    });
  }

  /** Events committed by this process, in version order. */
  publish(events: readonly BoardEvent[]): void {
    const byBoard = new Map<number, BoardEvent[]>();
    for (const e of events) byBoard.set(e.boardId, [...(byBoard.get(e.boardId) ?? []), e]);
    for (const [boardId, list] of byBoard) {
      void this.#enqueue(boardId, () => this.#deliver(boardId, list.at(-1)!.version, list));
    }
  }

  /** Another process committed `version` of a board: read what is new from the event log. */
  notify(boardId: number, version: number, deleted?: BoardEvent): void {
    if (!this.#boards.has(boardId) && !deleted && this.#accounts.size === 0) return;
    void this.#enqueue(boardId, () => this.#deliver(boardId, version, deleted ? [deleted] : []));
  }

  /** Closes the sockets opened with a credential that stopped working. */
  revoke(revocation: Revocation): void {
    for (const client of [...(this.#accounts.get(revocation.userId) ?? [])]) {
      const credential = client.actor.credential;
      if (revocation.sessionId !== undefined && (credential?.kind !== 'session' || credential.id !== revocation.sessionId))
        continue;
      if (revocation.keyId !== undefined && (credential?.kind !== 'key' || credential.id !== revocation.keyId)) continue;
      const reason = revocation.keyId ? 'API key deleted' : revocation.sessionId ? 'Session ended' : 'Account unavailable';
      this.disconnect(client);
      client.close(CLOSE_CREDENTIAL_ENDED, reason);
    }
  }

  /** Checks every connection's credential against the database (after revocations may have been missed). */
  async audit(): Promise<void> {
    for (const clients of [...this.#accounts.values()]) {
      for (const client of [...clients]) {
        const credential = client.actor.credential;
        if (credential && (await credentialValidUntil(this.database.db, credential)) === null) {
          this.disconnect(client);
          client.close(CLOSE_CREDENTIAL_ENDED, 'Credential no longer valid');
        }
      }
    }
  }

  /** A message for one account's every connection (notifications). */
  sendToAccount(userId: string, message: ServerMessage): void {
    for (const client of this.#accounts.get(userId) ?? []) client.send(message);
  }

  #deliver(boardId: number, version: number, given: BoardEvent[]): Promise<void> {
    return inSpan('realtime deliver', { 'tavla.board.id': boardId, 'tavla.board.version': version }, () =>
      this.#deliverNow(boardId, version, given),
    );
  }

  async #deliverNow(boardId: number, version: number, given: BoardEvent[]): Promise<void> {
    const subs = this.#boards.get(boardId);
    const cursor = this.#cursor.get(boardId) ?? (given[0]?.version ?? version) - 1;
    if (version <= cursor) return;
    // Events between the cursor and what we were given (lost or from another process) come from the log.
    const firstGiven = given[0]?.version ?? version + 1;
    const missing =
      firstGiven > cursor + 1 ? await readEvents(this.database.db, boardId, cursor, Math.min(version, firstGiven - 1)) : [];
    const events = [...missing, ...given.filter((e) => e.version > cursor)];
    if (subs) this.#cursor.set(boardId, version);

    for (const event of events) {
      // Written once for all its viewers, and not at all for a board nobody watches.
      let json: string | undefined;
      for (const [client, sub] of subs ?? []) {
        if (event.version <= sub.lastSent) continue;
        sub.lastSent = event.version;
        client.sendRaw((json ??= eventJson(event)));
      }
      if (DASHBOARD_EVENTS.has(event.name)) await this.#dashboard(event);
      if (event.name === 'board.deleted') this.#forget(boardId);
      else if (ACCESS_EVENTS.has(event.name)) await this.#recheckAccess(boardId);
    }
  }

  /** Tells the accounts whose dashboards show the board. */
  async #dashboard(event: BoardEvent): Promise<void> {
    const recipients = new Set<string>();
    if (event.name === 'board.deleted') {
      for (const id of (event as BoardEvent<'board.deleted'>).data.memberIds) recipients.add(id);
    } else {
      for (const id of await boardAudience(this.database.db, event.boardId)) recipients.add(id);
      if (event.name === 'member.removed') recipients.add((event as BoardEvent<'member.removed'>).data.userId);
    }
    const message: ServerMessage = { type: 'dashboard', boardId: event.boardId, name: event.name, data: event.data };
    for (const userId of recipients) this.sendToAccount(userId, message);
  }

  /** After a change of membership or visibility, viewers who can no longer read the board are cut off. */
  async #recheckAccess(boardId: number): Promise<void> {
    const subs = this.#boards.get(boardId);
    if (!subs || subs.size === 0) return;
    const canRead = await boardReaders(this.database.db, boardId);
    let changed = false;
    for (const client of [...subs.keys()]) {
      if (canRead(client.actor.id)) continue;
      subs.delete(client);
      this.#presence.get(boardId)?.untold.delete(client);
      client.send({ type: 'revoked', boardId });
      changed = true;
    }
    if (subs.size === 0) this.#forget(boardId);
    else if (changed) this.#presenceChanged(boardId, true);
  }

  #drop(boardId: number, client: Client): void {
    const subs = this.#boards.get(boardId);
    if (!subs?.delete(client)) return;
    this.#presence.get(boardId)?.untold.delete(client);
    if (subs.size === 0) this.#forget(boardId);
    else this.#presenceChanged(boardId, true);
  }

  #forget(boardId: number): void {
    this.#boards.delete(boardId);
    this.#cursor.delete(boardId);
    const presence = this.#presence.get(boardId);
    if (presence?.timer) clearTimeout(presence.timer);
    this.#presence.delete(boardId);
    this.#remote?.announce(boardId, []);
  }

  /** One entry per account (several tabs are one face), with a card open in any of them. */
  #localViewers(boardId: number): Viewer[] {
    const viewers = new Map<string, Viewer>();
    for (const [client, sub] of this.#boards.get(boardId) ?? []) {
      const seen = viewers.get(client.actor.id);
      if (seen) seen.cardId ??= sub.cardId;
      else
        viewers.set(client.actor.id, {
          id: client.actor.id,
          name: client.actor.name,
          image: client.actor.image,
          cardId: sub.cardId,
        });
    }
    return [...viewers.values()];
  }

  /**
   * Who views the board changed (`local`: here, so the other processes hear
   * of it too; `newcomer`: a viewer who is owed the whole list). The viewers
   * hear of it at the board's next flush: at once after a quiet spell, else
   * one interval after the last one, so a burst of joins costs one message
   * per viewer per interval instead of one per join.
   */
  #presenceChanged(boardId: number, local: boolean, newcomer?: Client): void {
    let state = this.#presence.get(boardId);
    if (!state) {
      state = { timer: null, lastFlush: 0, dirty: false, localChanged: false, told: new Map(), untold: new Set() };
      this.#presence.set(boardId, state);
    }
    state.dirty = true;
    if (local) state.localChanged = true;
    if (newcomer) state.untold.add(newcomer);
    this.#scheduleFlush(boardId, state);
  }

  #scheduleFlush(boardId: number, state: BoardPresence): void {
    if (state.timer) return;
    const wait = Math.max(0, state.lastFlush + this.#presenceIntervalMs - Date.now());
    state.timer = setTimeout(() => this.#flushPresence(boardId, state), wait);
    state.timer.unref();
  }

  /**
   * Tells the board's viewers what changed since the last flush: a
   * `presenceChange` (who joined or changed, who left), or the whole list
   * where that is shorter; the whole list to those owed it. One serialisation
   * per flush, whatever the audience.
   */
  #flushPresence(boardId: number, state: BoardPresence): void {
    state.timer = null;
    state.lastFlush = Date.now();
    const subs = this.#boards.get(boardId);
    if (!subs || this.#presence.get(boardId) !== state) return;
    let full: string | undefined;
    if (state.dirty) {
      state.dirty = false;
      const local = this.#localViewers(boardId);
      if (state.localChanged) this.#remote?.announce(boardId, local);
      state.localChanged = false;
      const viewers = new Map(local.map((v) => [v.id, { ...v }]));
      for (const v of this.#remote?.viewers(boardId) ?? []) {
        const seen = viewers.get(v.id);
        if (seen) seen.cardId ??= v.cardId;
        else viewers.set(v.id, { ...v });
      }
      const changed = [...viewers.values()].filter((v) => !sameViewer(state.told.get(v.id), v));
      const left = [...state.told.keys()].filter((id) => !viewers.has(id));
      state.told = viewers;
      full = JSON.stringify({ type: 'presence', boardId, viewers: [...viewers.values()] } satisfies ServerMessage);
      if (changed.length > 0 || left.length > 0) {
        const delta = JSON.stringify({ type: 'presenceChange', boardId, viewers: changed, left } satisfies ServerMessage);
        const message = delta.length < full.length ? delta : full;
        for (const client of subs.keys()) {
          if (!state.untold.has(client) && !client.sendRaw(message, true)) state.untold.add(client);
        }
      }
    }
    if (state.untold.size === 0) return;
    full ??= JSON.stringify({ type: 'presence', boardId, viewers: [...state.told.values()] } satisfies ServerMessage);
    for (const client of state.untold) if (client.sendRaw(full, true)) state.untold.delete(client);
    // A socket too backed up to take it now gets the whole list at a later flush.
    if (state.untold.size > 0) this.#scheduleFlush(boardId, state);
  }

  /** Runs `work` after everything already queued for the board. */
  #enqueue(boardId: number, work: () => Promise<void> | void): Promise<void> {
    const previous = this.#queues.get(boardId) ?? Promise.resolve();
    const next = previous
      .then(work)
      .catch((error: unknown) => this.log.error({ err: error, boardId }, 'realtime delivery failed'));
    this.#queues.set(boardId, next);
    void next.then(() => {
      if (this.#queues.get(boardId) === next) this.#queues.delete(boardId);
    });
    return next;
  }
}

function eventJson(event: BoardEvent): string {
  return JSON.stringify({ type: 'event', ...event });
}

function sameViewer(a: Viewer | undefined, b: Viewer): boolean {
  return a !== undefined && a.name === b.name && a.image === b.image && a.cardId === b.cardId;
}
