import type { RawBuilder } from 'kysely';
import type { Actor } from '../auth/actor.js';
import { boardAudience, requireBoardWithAudience, type Level, type RequiredLevel, type Subject } from '../access/index.js';
import type { Db } from '../db/database.js';
import { nowIso } from '../db/dialect.js';
import { dialectOf, type Dialect } from '../db/dialects/index.js';
import type { BoardRow } from '../db/schema.js';
import type { Deps } from '../deps.js';
import { unarchivedBoard } from '../access/archived.js';
import type { BoardEvent, BoardEventMap, BoardEventName } from '../../shared/events.js';
import { announce as notifyAll, BOARD_VERSIONS, type BoardVersion } from '../db/channels.js';
import { boardLock, eventRowsJson, insertEventRows, storedBoard, versionBump } from './board-write.repository.js';
import { GroupCommit, type Queued } from './group-commit.js';
import { currentWriteRecord, type WriteRecord } from './write-record.js';

/**
 * A feature's part in storing a batch's events, inside their transaction
 * (webhook deliveries, set by app.ts): `read` is one more column of the
 * version bump, so it is read under the board's lock without a statement of
 * its own; `store` gets its value with the stored events.
 */
export interface EventsStoredHook {
  read: (dialect: Dialect) => RawBuilder<string>;
  store: (trx: Db, boardId: number, events: readonly BoardEvent[], read: string) => Promise<void>;
}

let eventsStored: EventsStoredHook | undefined;

/** Set once, before the first write: the version bump's SQL is built once per database with the hook's column. */
export function onEventsStored(hook: EventsStoredHook): void {
  eventsStored = hook;
}

export interface WriteScope {
  trx: Db;
  dialect: Dialect;
  board: BoardRow;
  level: Level;
  actor: Actor;
  /** Records a change to the board: it takes the next version and reaches viewers after commit. */
  emit: <K extends BoardEventName>(name: K, data: BoardEventMap[K]) => void;
  /** Work that must wait for the commit and must not undo it (removing files): run after, failures logged. */
  afterCommit: (work: () => Promise<void>) => void;
  /**
   * Reads once per batch what only a change to the board or its members can
   * change (the board's audience, the caller's access): the writes of a
   * batch mostly touch cards, and each would read the same rows again.
   */
  remember: <T>(key: string, read: () => Promise<T>) => Promise<T>;
  /** Everyone who joined the board (owner and members), read once per batch, as `remember` does. */
  audience: () => Promise<string[]>;
}

/** What a change needs that no caller's rights decide (removals by the retention job). */
export type SystemScope = Pick<WriteScope, 'trx' | 'dialect' | 'board' | 'emit' | 'afterCommit' | 'remember' | 'audience'>;

interface Draft {
  name: BoardEventName;
  data: BoardEventMap[BoardEventName];
}

/** Per board touched by a batch: the version its last kept write left, and the batch's events for it. */
interface BatchState {
  boards: Map<number, { version: number; events: BoardEvent[] }>;
  /** The events of each kept write, in the order they ran (each write's own go on the bus together). */
  writes: BoardEvent[][];
  /** `WriteScope.remember`'s answers, forgotten when a write may have changed them. */
  memo: Map<string, Promise<unknown>>;
  /** The batch's board lock, with the events-stored hook's column read under it (awaited at the end of the batch). */
  locked: { boardId: number; answer: Promise<Array<{ hooked?: string }>> };
}

/** Events that leave the board row and its members as they were: after others, `remember` reads again. */
const CONTENT_EVENT = /^(card|comment|attachment|area|areas|labels)\./;

type Deps3 = Pick<Deps, 'database' | 'bus' | 'log'>;

const batchers = new WeakMap<object, Map<number, GroupCommit<BatchState>>>();

/** Queues a write for the next batch of its board's queue; settles once that batch committed (or failed). */
function enqueue<T>(deps: Deps3, boardId: number, write: Pick<Queued<BatchState>, 'run' | 'kept'>): Promise<T> {
  const { db, dialect } = deps.database;
  const key = dialect.writeQueue(boardId);
  let queues = batchers.get(deps.database);
  if (!queues) batchers.set(deps.database, (queues = new Map<number, GroupCommit<BatchState>>()));
  let batcher = queues.get(key);
  if (!batcher) {
    const created: GroupCommit<BatchState> = new GroupCommit<BatchState>(
      db,
      {
        begin: (trx) => {
          // Not waited for: the first write's statements follow it at once (its answer is read by `finish`).
          const answer = lockWithHook(trx, boardId);
          answer.catch(() => undefined); // a failed lock fails what follows it, and `finish` throws its error
          return Promise.resolve({ boards: new Map(), writes: [], memo: new Map(), locked: { boardId, answer } });
        },
        finish: async (trx, state) => {
          for (const [id, { events }] of state.boards) if (events.length > 0) await storeEvents(trx, id, events, state.locked);
        },
        committed: (state) => {
          for (const events of state.writes) {
            try {
              deps.bus.publish(events);
            } catch (error) {
              deps.log.error({ err: error }, 'an event listener failed');
            }
          }
        },
      },
      () => {
        if (queues.get(key) === created) queues.delete(key);
      },
    );
    queues.set(key, (batcher = created));
  }
  return new Promise<T>((resolve, reject) => batcher.submit({ ...write, resolve: resolve as (value: unknown) => void, reject }));
}

/** The events a write emitted, numbered on from the version the batch has brought its board to. */
function numbered(board: Pick<BoardRow, 'id' | 'version'>, actor: Actor | null, drafts: readonly Draft[]): BoardEvent[] {
  const createdAt = nowIso();
  return drafts.map((draft, i) => ({
    boardId: board.id,
    version: board.version + 1 + i,
    name: draft.name,
    actor: actor && { id: actor.id, name: actor.name },
    data: draft.data,
    createdAt,
  }));
}

/** Adds a kept write's events to its batch. */
function keep(state: BatchState, boardId: number, events: BoardEvent[]): void {
  if (events.length === 0 || !events.every((e) => CONTENT_EVENT.test(e.name))) state.memo.clear();
  if (events.length === 0) return;
  const entry = state.boards.get(boardId) ?? { version: 0, events: [] };
  entry.events.push(...events);
  entry.version = events[events.length - 1]!.version;
  state.boards.set(boardId, entry);
  state.writes.push(events);
}

/**
 * `WriteScope.remember` and `audience` for one write of a batch on `boardId`;
 * a write that fails may have read its own undone changes, so it clears.
 */
function rememberer(
  state: BatchState,
  trx: Db,
  boardId: number,
): Pick<WriteScope, 'remember' | 'audience'> & { knownAudience: (audience: string[]) => void; failed: () => void } {
  const remember = <T>(key: string, read: () => Promise<T>) => {
    let value = state.memo.get(key) as Promise<T> | undefined;
    if (value === undefined) state.memo.set(key, (value = read()));
    return value;
  };
  const key = `audience:${boardId}`;
  return {
    remember,
    audience: () => remember(key, () => boardAudience(trx, boardId)),
    knownAudience: (audience) => void state.memo.set(key, Promise.resolve(audience)),
    failed: () => state.memo.clear(),
  };
}

/** The board as this write sees it: its stored row with the version the earlier writes of the batch raised it to. */
function current<B extends Pick<BoardRow, 'id' | 'version'>>(state: BatchState, board: B): B {
  const version = state.boards.get(board.id)?.version;
  return version === undefined ? board : { ...board, version };
}

/**
 * The write path every board change takes: the board's row locked, the
 * caller's level checked, `work` changing the rows, the board's version
 * raised once per event and the events stored; after the commit the events
 * go onto the bus. Anything thrown undoes this change alone and is the
 * caller's answer. Writes arriving together commit together (group commit,
 * see `GroupCommit`), each in a savepoint of its own.
 * `target` is the board's id, or the board's id with the kind of thing the
 * caller named, which a refusal to read then names (as a missing one would).
 */
export async function writeBoard<T>(
  deps: Deps3,
  actor: Actor,
  target: number | { boardId: number; subject: Subject },
  needed: RequiredLevel,
  work: (scope: WriteScope) => Promise<T>,
  options: { allowArchived?: boolean } = {},
): Promise<T> {
  const record = recordFor();
  if (record?.done) return record.result as T;
  const { dialect } = deps.database;
  const { boardId, subject } = typeof target === 'number' ? { boardId: target, subject: undefined } : target;
  const after: Array<() => Promise<void>> = [];
  let events: BoardEvent[] = [];
  const result = await enqueue<T>(deps, boardId, {
    run: async (trx, state) => {
      const { remember, audience, knownAudience, failed } = rememberer(state, trx, boardId);
      try {
        // The batch holds the board's lock already; a board removed by an earlier write of it is missing here.
        const access = await remember(`access:${boardId}:${actor.id}:${needed}:${subject}`, async () => {
          const access = await requireBoardWithAudience(trx, actor, boardId, needed, subject);
          knownAudience(access.audience);
          return access;
        });
        const board = current(state, access.board);
        if (!options.allowArchived) unarchivedBoard(board);
        const drafts: Draft[] = [];
        const result = await work({
          trx,
          dialect,
          board,
          level: access.level,
          actor,
          emit: (name, data) => drafts.push({ name, data }),
          afterCommit: (fn) => after.push(fn),
          remember,
          audience,
        });
        await record?.store(trx, result);
        events = numbered(board, actor, drafts);
        return result;
      } catch (error) {
        failed();
        throw error;
      }
    },
    kept: (state) => keep(state, boardId, events),
  });
  record?.committed();
  for (const fn of after) await fn().catch((error: unknown) => deps.log.error({ err: error }, 'after-commit work failed'));
  return result;
}

/**
 * The write path for the service's own work (retention): the same lock,
 * batches, events and after-commit steps as `writeBoard`, without a caller
 * whose access is checked; the events carry no actor.
 */
export async function systemWrite<T>(
  deps: Deps3,
  boardId: number,
  work: (scope: SystemScope) => Promise<T>,
): Promise<T | undefined> {
  const record = recordFor();
  if (record?.done) return (record.result as { result: T } | undefined)?.result;
  const { dialect } = deps.database;
  const after: Array<() => Promise<void>> = [];
  let events: BoardEvent[] = [];
  const outcome = await enqueue<{ result: T } | undefined>(deps, boardId, {
    run: async (trx, state) => {
      const { remember, audience, failed } = rememberer(state, trx, boardId);
      try {
        const stored = await storedBoard(trx, boardId);
        if (!stored) {
          await record?.store(trx, undefined);
          return undefined;
        }
        const board = current(state, stored);
        const drafts: Draft[] = [];
        const result = await work({
          trx,
          dialect,
          board,
          emit: (name, data) => drafts.push({ name, data }),
          afterCommit: (fn) => after.push(fn),
          remember,
          audience,
        });
        await record?.store(trx, { result });
        events = numbered(board, null, drafts);
        return { result };
      } catch (error) {
        failed();
        throw error;
      }
    },
    kept: (state) => keep(state, boardId, events),
  });
  record?.committed();
  if (!outcome) return undefined;
  for (const fn of after) await fn().catch((error: unknown) => deps.log.error({ err: error }, 'after-commit work failed'));
  return outcome.result;
}

/**
 * This write's part in the caller's `WriteRecord` (an `Idempotency-Key`
 * request): the result an earlier attempt committed, or how to store this
 * one's in its own savepoint, so that the write and the proof of it commit
 * or vanish together.
 */
function recordFor():
  | { done: true; result: unknown }
  | { done: false; store: (trx: Db, result: unknown) => Promise<void>; committed: () => void }
  | undefined {
  const record: WriteRecord | undefined = currentWriteRecord();
  if (!record) return undefined;
  const step = record.next();
  if (step.done) return step;
  return {
    done: false,
    store: (trx, result) => record.record(trx, step.ordinal, result),
    committed: () => record.committed(step.ordinal),
  };
}

/**
 * Stores a batch's events of one board: one notification to the other
 * processes, one version bump, the event rows, and the events-stored hook's
 * work (deliveries, only if a webhook wants them). On PostgreSQL the first
 * three are one statement sent ahead of the COMMIT, and the hook's column
 * (the board's webhooks) was read with the batch's lock: no round trip
 * unless deliveries are due. Elsewhere (SQLite, whose statements cost no
 * round trip) one statement each, the bump reading the hook's column.
 */
async function storeEvents(trx: Db, boardId: number, events: readonly BoardEvent[], locked: BatchState['locked']): Promise<void> {
  const last = events[events.length - 1]!.version;
  if (locked.boardId === boardId) {
    const [lock] = await locked.answer;
    const stored = await dialectOf(trx).storeBatch(trx, {
      boardId,
      count: events.length,
      last,
      events: eventRowsJson(events),
      channel: BOARD_VERSIONS.name,
      payload: versionPayload(boardId, last, events),
    });
    if (stored) {
      // The board was there under the lock; removed within the batch, it keeps no rows (nor deliveries).
      if (lock && eventsStored && lock.hooked !== undefined && !events.some((e) => e.name === 'board.deleted')) {
        await eventsStored.store(trx, boardId, events, lock.hooked);
      }
      return;
    }
  }
  // Goes ahead of the bump (it is delivered at the commit, or never): the bump's answer carries its error.
  await announce(trx, boardId, last, events);
  const bumped = await bumpVersion(trx, events.length, boardId);
  // The batch numbered the events from the version it read under the lock: anything else is a torn history.
  if (bumped[0] && Number(bumped[0].version) !== last) {
    throw new Error(`board ${boardId} is at version ${bumped[0].version}, its events end at ${last}`);
  }
  // A board removed within the batch keeps no event rows; viewers still hear of it.
  if (bumped[0]) await insertEvents(trx, boardId, events, bumped[0].hooked);
}

/** The batch's lock on its board, reading the events-stored hook's column under it. */
const lockWithHook = boardLock(() => eventsStored);

/** Raises the board's version; answers the new one and the events-stored hook's column (under the board's lock). */
const bumpVersion = versionBump(() => eventsStored);

/** Delivered to every process's listener when (and only if) the transaction commits. */
async function announce(trx: Db, boardId: number, version: number, events: readonly BoardEvent[]): Promise<void> {
  await notifyAll(dialectOf(trx), trx, BOARD_VERSIONS, versionPayload(boardId, version, events), true);
}

/** What `BOARD_VERSIONS` announces for a board's stored events. */
function versionPayload(boardId: number, version: number, events: readonly BoardEvent[]): BoardVersion {
  const deleted = events.find((e) => e.name === 'board.deleted');
  return { boardId, version, ...(deleted ? { deleted: { ...deleted } } : {}) };
}

async function insertEvents(trx: Db, boardId: number, events: readonly BoardEvent[], hooked: string | undefined): Promise<void> {
  await insertEventRows(trx, events);
  if (eventsStored && hooked !== undefined) await eventsStored.store(trx, boardId, events, hooked);
}

/** Raises the board's version by one per event and stores each event row (for a transaction of the caller's own). */
export async function recordEvents(
  trx: Db,
  board: Pick<BoardRow, 'id' | 'version'>,
  actor: Actor | null,
  drafts: readonly Draft[],
): Promise<BoardEvent[]> {
  if (drafts.length === 0) return [];
  const [bumped] = await bumpVersion(trx, drafts.length, board.id);
  // A board removed by this very change keeps no event rows; viewers still hear of it.
  const first = (bumped ? Number(bumped.version) : board.version + drafts.length) - drafts.length;
  const events = numbered({ id: board.id, version: first }, actor, drafts);
  await announce(trx, board.id, first + drafts.length, events);
  if (bumped) await insertEvents(trx, board.id, events, bumped.hooked);
  return events;
}
