import type { FastifyBaseLogger } from 'fastify';
import { CLOSE_LINK_GONE, type PublicServerMessage } from '../../../shared/api/public-links.js';
import type { BoardEvent } from '../../../shared/events.js';
import type { Database } from '../../db/database.js';
import { readEvents } from '../../realtime/event-log.js';
import { hashToken } from '../sharing/sharing.service.js';
import { openLinks } from './public-links.repository.js';
import { publicDelivery } from './public-shape.js';

/** One open public view, as the registry sees it. */
export interface PublicViewer {
  /** The link's token: the pictures in the cards it is sent are addressed with it. */
  readonly token: string;
  send(message: PublicServerMessage): void;
  close(code: number, reason: string): void;
}

interface Watch {
  tokenHash: string;
  /** The last version this viewer has been brought to. */
  lastSent: number;
}

/**
 * Who looks at which board through a public link, in this process. Like the
 * member hub, everything about one board runs in that board's own queue, so
 * a viewer gets every change once, in order, and nothing after its link
 * stopped working. Changes come from this process after commit (`publish`)
 * or from another one through the database (`notify`, read from the event log).
 */
export class PublicViewers {
  readonly #boards = new Map<number, Map<PublicViewer, Watch>>();
  readonly #cursor = new Map<number, number>();
  readonly #queues = new Map<number, Promise<void>>();

  constructor(
    private readonly database: Database,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** Starts sending the board's changes to the viewer, if its link still opens the board (else closes it). */
  add(viewer: PublicViewer, boardId: number): Promise<void> {
    return this.#enqueue(boardId, async () => {
      const tokenHash = hashToken(viewer.token);
      const version = (await this.#openLinks(boardId)).get(tokenHash);
      if (version === undefined) return viewer.close(CLOSE_LINK_GONE, 'Link revoked');
      const viewers = this.#boards.get(boardId) ?? new Map<PublicViewer, Watch>();
      this.#boards.set(boardId, viewers);
      viewers.set(viewer, { tokenHash, lastSent: version });
      if (!this.#cursor.has(boardId)) this.#cursor.set(boardId, version);
      viewer.send({ type: 'ready', version });
    });
  }

  remove(viewer: PublicViewer, boardId: number): Promise<void> {
    return this.#enqueue(boardId, () => {
      const viewers = this.#boards.get(boardId);
      if (viewers?.delete(viewer) && viewers.size === 0) this.#forget(boardId);
    });
  }

  watchedBoards(): number[] {
    return [...this.#boards.keys()];
  }

  viewerCount(): number {
    let n = 0;
    for (const viewers of this.#boards.values()) n += viewers.size;
    return n;
  }

  /** Events committed by this process, in version order. */
  publish(events: readonly BoardEvent[]): void {
    const byBoard = new Map<number, BoardEvent[]>();
    for (const e of events) if (this.#boards.has(e.boardId)) byBoard.set(e.boardId, [...(byBoard.get(e.boardId) ?? []), e]);
    for (const [boardId, list] of byBoard) void this.#enqueue(boardId, () => this.#deliver(boardId, list.at(-1)!.version, list));
  }

  /** Another process committed `version` of a board. */
  notify(boardId: number, version: number): void {
    if (this.#boards.has(boardId)) void this.#enqueue(boardId, () => this.#deliver(boardId, version, []));
  }

  /** The board's links changed (revoked, replaced) or it may have closed: viewers whose link no longer opens it are closed. */
  recheck(boardId: number): Promise<void> {
    if (!this.#boards.has(boardId)) return Promise.resolve();
    return this.#enqueue(boardId, () => this.#recheck(boardId));
  }

  async #recheck(boardId: number): Promise<void> {
    const viewers = this.#boards.get(boardId);
    if (!viewers) return;
    const open = await this.#openLinks(boardId);
    for (const [viewer, watch] of [...viewers]) {
      if (open.has(watch.tokenHash)) continue;
      viewers.delete(viewer);
      viewer.close(CLOSE_LINK_GONE, 'Link revoked');
    }
    if (viewers.size === 0) this.#forget(boardId);
  }

  /** The hashes of the links that open the board (none once it is archived), each with the board's version. */
  async #openLinks(boardId: number): Promise<Map<string, number>> {
    const rows = await openLinks(this.database.db, boardId);
    return new Map(rows.map((r) => [r.tokenHash, r.version]));
  }

  async #deliver(boardId: number, version: number, given: readonly BoardEvent[]): Promise<void> {
    const viewers = this.#boards.get(boardId);
    const cursor = this.#cursor.get(boardId);
    if (!viewers || cursor === undefined || version <= cursor) return;
    const firstGiven = given[0]?.version ?? version + 1;
    const missing =
      firstGiven > cursor + 1 ? await readEvents(this.database.db, boardId, cursor, Math.min(version, firstGiven - 1)) : [];
    const events = [...missing, ...given.filter((e) => e.version > cursor)];
    this.#cursor.set(boardId, version);
    // Redacted rows are left out of the log: whatever they changed, the page reads the board again.
    let reload = events.length !== version - cursor;
    let recheck = false;
    for (const event of events) {
      const delivery = publicDelivery(event);
      if (delivery === 'reload') reload = true;
      else if (delivery === 'gone') recheck = true;
      else if (delivery) {
        for (const [viewer, watch] of viewers) {
          if (event.version <= watch.lastSent) continue;
          watch.lastSent = event.version;
          viewer.send({ type: 'change', version: event.version, change: delivery.change(viewer.token) });
        }
      }
    }
    if (recheck) await this.#recheck(boardId);
    if (!reload) return;
    for (const [viewer, watch] of this.#boards.get(boardId) ?? []) {
      if (version <= watch.lastSent) continue;
      watch.lastSent = version;
      viewer.send({ type: 'reload', version });
    }
  }

  #forget(boardId: number): void {
    this.#boards.delete(boardId);
    this.#cursor.delete(boardId);
  }

  #enqueue(boardId: number, work: () => Promise<void> | void): Promise<void> {
    const previous = this.#queues.get(boardId) ?? Promise.resolve();
    const next = previous
      .then(work)
      .catch((error: unknown) => this.log.error({ err: error, boardId }, 'public view delivery failed'));
    this.#queues.set(boardId, next);
    void next.then(() => {
      if (this.#queues.get(boardId) === next) this.#queues.delete(boardId);
    });
    return next;
  }
}
