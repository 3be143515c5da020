import type { AreaRow, BoardRow } from '../db/schema.js';
import { CACHE_LIFETIME_MS, type Clock } from './cache-lifetime.js';

interface BoardEntry {
  board: BoardRow;
  /** When the board row was read: no entry is used longer than `CACHE_LIFETIME_MS`. */
  storedAt: number;
  /** A user's membership permission on the board; `null` = known not to be a member. */
  members: Map<string, string | null>;
  areas: Map<number, AreaRow>;
}

export interface CachedArea {
  board: BoardRow;
  area: AreaRow;
  permission: string | null;
}

/** How many users' permissions one board keeps (a public board is read by many). */
const MEMBERS_PER_BOARD = 1_000;

/**
 * What `requireArea` reads for a board (its row, its areas, a caller's
 * membership), kept for one board version. Every change to any of these
 * raises the board's version through the write path, so an entry is right
 * for as long as no newer version has been heard of: `heard` (fed by the
 * committed events of this process's bus and, on PostgreSQL, by every
 * process's `tavla_events` notifications) drops the entry of an older one.
 *
 * Reads never see an answer older than a write committed by this process
 * before they started: the bus delivers a commit before its response is
 * sent. A read whose query ran before that commit cannot store its older
 * row afterwards either: the highest version heard per board (its floor) is
 * kept apart from the entries, and a fill below it is not stored.
 *
 * Consulted only while `live` (see ActorCache): on SQLite always, on
 * PostgreSQL while the invalidation listener is connected; and no entry
 * longer than `CACHE_LIFETIME_MS`.
 */
export class BoardAccessCache {
  /** In order of use, least recent first. */
  private readonly boards = new Map<number, BoardEntry>();
  private readonly areaBoards = new Map<number, number>();
  private readonly floors = new Map<number, number>();
  private epoch = 0;
  private isLive = false;

  constructor(
    readonly maxBoards = 5_000,
    private readonly now: Clock = Date.now,
  ) {}

  get size(): number {
    return this.boards.size;
  }

  get live(): boolean {
    return this.isLive;
  }

  setLive(live: boolean): void {
    this.clear();
    this.isLive = live;
  }

  /** A committed version of a board (from this process or another): anything older goes. */
  heard(boardId: number, version: number): void {
    if ((this.floors.get(boardId) ?? -1) < version) {
      // Bounded: forgetting the floors also forgets what was stored under them, and refuses fills begun before.
      if (this.floors.size >= this.maxBoards * 4) this.clear();
      this.floors.set(boardId, version);
    }
    const entry = this.boards.get(boardId);
    if (entry && entry.board.version < version) this.boards.delete(boardId);
  }

  lookupArea(areaId: number, actorId: string): CachedArea | undefined {
    if (!this.isLive) return undefined;
    const boardId = this.areaBoards.get(areaId);
    const entry = boardId === undefined ? undefined : this.boards.get(boardId);
    const area = entry?.areas.get(areaId);
    const permission = entry?.members.get(actorId);
    if (!entry || !area || permission === undefined) return undefined;
    this.boards.delete(entry.board.id);
    // The backstop for a change never heard of: read again, and the fill starts a fresh entry.
    if (this.now() - entry.storedAt >= CACHE_LIFETIME_MS) return undefined;
    this.boards.set(entry.board.id, entry);
    return { board: entry.board, area, permission };
  }

  /** The token a lookup takes before it reads the database, for `storeArea`. */
  begin(): number {
    return this.epoch;
  }

  storeArea(token: number, actorId: string, { board, area, permission }: CachedArea): void {
    if (!this.isLive || token !== this.epoch) return;
    if (board.version < (this.floors.get(board.id) ?? -1)) return;
    let entry = this.boards.get(board.id);
    if (entry && entry.board.version > board.version) return;
    if (!entry || entry.board.version < board.version || this.now() - entry.storedAt >= CACHE_LIFETIME_MS) {
      entry = { board, storedAt: this.now(), members: new Map(), areas: new Map() };
      this.boards.set(board.id, entry);
    }
    if (entry.members.size >= MEMBERS_PER_BOARD) entry.members.clear();
    entry.members.set(actorId, permission);
    entry.areas.set(area.id, area);
    // An area never moves to another board, so this map needs no invalidation, only a bound.
    if (this.areaBoards.size >= this.maxBoards * 20) this.areaBoards.clear();
    this.areaBoards.set(area.id, board.id);
    while (this.boards.size > this.maxBoards) this.boards.delete(this.boards.keys().next().value!);
  }

  clear(): void {
    this.epoch++;
    this.boards.clear();
    this.areaBoards.clear();
    this.floors.clear();
  }
}
