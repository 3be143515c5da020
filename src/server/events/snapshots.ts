import type { Database, Db } from '../db/database.js';
import { nowIso, toIso } from '../db/dialect.js';
import { HttpError } from '../http/errors.js';
import { applyEvent, type BoardState, type PastCard } from './board-state.js';
import { presentBoard } from './present-board.js';
import * as repo from './snapshots.repository.js';

/**
 * A snapshot every `every` versions: a rewind replays at most this many
 * events on top of the newest snapshot before the version it is asked for.
 * An object so that a test can take them closer together.
 */
export const snapshotInterval = { every: 500 };

/** The name an event row takes when what it showed was deleted for good (realtime/event-log.ts keeps the same word). */
const REDACTED = 'redacted';

/** A version older than the kept history (before the board's first snapshot, or with its events pruned). */
export const notKept = (message: string) => new HttpError(410, message);

/** The board's visible state from its present rows. */
export async function presentState(db: Db, boardId: number): Promise<{ version: number; state: BoardState } | undefined> {
  const rows = await repo.presentRows(db, boardId);
  if (!rows) return undefined;
  const { board } = rows;
  const labels = new Map<number, PastCard['labels']>();
  for (const { cardId, ...label } of rows.labels) labels.set(cardId, [...(labels.get(cardId) ?? []), label]);
  const people = new Map<number, PastCard['assignees']>();
  for (const { cardId, ...person } of rows.assignees) people.set(cardId, [...(people.get(cardId) ?? []), person]);
  const values = new Map<number, PastCard['fields']>();
  for (const { cardId, fieldId, value } of rows.values)
    values.set(cardId, { ...values.get(cardId), [fieldId]: JSON.parse(value) as unknown });
  const cards = new Map<number, PastCard[]>();
  for (const card of rows.cards) {
    const list = cards.get(card.areaId) ?? [];
    list.push({
      id: card.id,
      name: card.name,
      content: card.content,
      labels: labels.get(card.id) ?? [],
      assignees: people.get(card.id) ?? [],
      dueDate: toIso(card.dueDate),
      done: card.status === 1,
      fields: values.get(card.id) ?? {},
    });
    cards.set(card.areaId, list);
  }
  return {
    version: board.version,
    state: {
      board: presentBoard(board),
      areas: rows.areas.map((a) => ({ id: a.id, name: a.name, cards: cards.get(a.id) ?? [] })),
    },
  };
}

/** Takes a snapshot of the board as its rows stand in `db` (a transaction that holds the board, or a consistent view). */
export async function snapshotPresent(db: Db, boardId: number): Promise<void> {
  const present = await presentState(db, boardId);
  if (present) await repo.insertSnapshot(db, boardId, present.version, JSON.stringify(present.state), nowIso());
}

/**
 * The board's visible state at `version`: its newest snapshot at or before
 * it, with the events after that replayed. Refuses (410) a version the kept
 * history cannot rebuild: before the first snapshot, or across pruned events.
 */
export async function stateAt(db: Db, boardId: number, version: number): Promise<BoardState> {
  const snapshot = await repo.snapshotAtOrBefore(db, boardId, version);
  if (!snapshot) throw notKept(`The board's history is kept from a later version than ${version}`);
  const events = await repo.eventsBetween(db, boardId, snapshot.version, version);
  if (events.length !== version - snapshot.version) {
    throw notKept(`The board's changes up to version ${version} are no longer kept`);
  }
  const state = JSON.parse(snapshot.state) as BoardState;
  for (const event of events) {
    if (event.name !== REDACTED) applyEvent(state, { name: event.name, data: JSON.parse(event.data) as unknown });
  }
  return state;
}

/** The board's version at a moment: the one before its oldest change stored after it, if that version is known to be that old. */
export async function versionAtTime(db: Db, boardId: number, currentVersion: number, at: string): Promise<number> {
  const next = await repo.firstEventAfter(db, boardId, at);
  const version = next ? next.version - 1 : currentVersion;
  if (!(await repo.versionKnownBy(db, boardId, version, at))) {
    throw notKept(`The board's history is not kept as far back as ${at}`);
  }
  return version;
}

/** Boards known to have a snapshot to start from, per database: the check costs a statement once per board and process. */
const based = new WeakMap<object, Set<number>>();
/** Snapshots being taken, per database: a board's next batch does not start another. */
const taking = new WeakMap<object, Set<number>>();

/** Forgets which boards this process knew to have a snapshot, as a process starting afresh (after the upgrade) knows none. */
export function forgetBases(database: Database): void {
  based.delete(database);
}

function setOf(map: WeakMap<object, Set<number>>, key: object): Set<number> {
  let set = map.get(key);
  if (!set) map.set(key, (set = new Set()));
  return set;
}

/**
 * After a batch committed versions (from, to] of a board: a board with no
 * snapshot yet (one from before snapshots) gets one of its present, taken
 * on a consistent view; a batch that crossed a multiple of `snapshotInterval.every`
 * stores the replayed state at its last version. Off the write path: it runs
 * after the commit, and its failure is only logged.
 */
export function afterBatch(database: Database, boardId: number, from: number, to: number, log: (error: unknown) => void): void {
  const known = setOf(based, database);
  const { every } = snapshotInterval;
  const crossed = Math.floor(to / every) > Math.floor(from / every);
  if (known.has(boardId) && !crossed) return;
  const busy = setOf(taking, database);
  if (busy.has(boardId)) return;
  busy.add(boardId);
  void (async () => {
    if (!known.has(boardId)) {
      if (!(await repo.hasSnapshot(database.db, boardId))) {
        await database.snapshot(async (view) => {
          const present = await presentState(view, boardId);
          if (present) await repo.insertSnapshot(database.db, boardId, present.version, JSON.stringify(present.state), nowIso());
        });
        known.add(boardId);
        return;
      }
      known.add(boardId);
    }
    if (crossed) {
      const state = await stateAt(database.db, boardId, to);
      await repo.insertSnapshot(database.db, boardId, to, JSON.stringify(state), nowIso());
    }
  })()
    .catch((error: unknown) => {
      // A board removed meanwhile, or its history not rebuildable: the next crossing tries again.
      if (!(error instanceof HttpError)) log(error);
    })
    .finally(() => busy.delete(boardId));
}

/** Forgets the erased cards in every snapshot of the board, in the erasing transaction: their text must not outlive them. */
export async function scrubSnapshots(trx: Db, boardId: number, cardIds: readonly number[]): Promise<void> {
  if (cardIds.length === 0) return;
  const erased = new Set(cardIds);
  for (const row of await repo.snapshotsHolding(trx, boardId, cardIds)) {
    const state = JSON.parse(row.state) as BoardState;
    let changed = false;
    for (const area of state.areas) {
      const kept = area.cards.filter((c) => !erased.has(c.id));
      if (kept.length !== area.cards.length) {
        area.cards = kept;
        changed = true;
      }
    }
    if (changed) await repo.rewriteSnapshot(trx, row.id, JSON.stringify(state));
  }
}

/** Forgets snapshots older than the cutoff, but each board's newest from before it (where its kept events start). */
export function pruneSnapshots(db: Db, cutoff: string): Promise<number> {
  return repo.deleteSnapshotsBefore(db, cutoff);
}
