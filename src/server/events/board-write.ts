import type { Actor } from '../auth/actor.js';
import { boardAudience, requireBoardWithAudience, type Level, type RequiredLevel, type Subject } from '../access/index.js';
import type { Db, Statement } from '../db/database.js';
import { nowIso } from '../db/dialect.js';
import { dialectOf, type Dialect } from '../db/dialects/index.js';
import type { BoardRow } from '../db/schema.js';
import type { Deps } from '../deps.js';
import { unarchivedBoard } from '../access/archived.js';
import type { BoardEvent, BoardEventMap, BoardEventName } from '../../shared/events.js';
import { announce as notifyAll, BOARD_VERSIONS, type BoardVersion } from '../db/channels.js';
import { boardLock, eventRowsJson, insertEventRows, storedBoard, versionBump } from './board-write.repository.js';
import { GroupCommit, heardCommit, type Queued, type QuickSend } from './group-commit.js';
import {
  changeIsQuiet,
  changeWritten,
  storedHandler,
  type BoardFact,
  type BoardFactMap,
  type BoardFactName,
} from './subscribers.js';
import { writeStep } from './write-record.js';
import { afterBatch, snapshotPresent } from './snapshots.js';

export interface WriteScope {
  trx: Db;
  dialect: Dialect;
  board: BoardRow;
  level: Level;
  actor: Actor;
  /** Records a change to the board: it takes the next version and reaches viewers after commit. */
  emit: <K extends BoardEventName>(name: K, data: BoardEventMap[K]) => void;
  /** Tells the change's side effects (notifications) what its events do not say; nothing of it leaves the server. */
  tell: <K extends BoardFactName>(name: K, data: BoardFactMap[K]) => void;
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
export type SystemScope = Pick<
  WriteScope,
  'trx' | 'dialect' | 'board' | 'emit' | 'tell' | 'afterCommit' | 'remember' | 'audience'
>;

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
  /** Those of `memo` already answered (a write sent back to back with others may use only these: it reads nothing). */
  known: Map<string, unknown>;
  /** The batch's board lock, with the events-stored hook's column read under it (awaited at the end of the batch). */
  locked: { boardId: number; answer: Promise<Array<{ hooked?: string }>> };
}

/** Events that leave the board row and its members as they were: after others, `remember` reads again. */
const CONTENT_EVENT = /^(card|comment|attachment|area|areas|labels|field)\./;

type Deps3 = Pick<Deps, 'database' | 'bus' | 'log' | 'config'>;

const batchers = new WeakMap<object, Map<number, GroupCommit<BatchState>>>();

/** Forgets what the batch's writes remembered (`WriteScope.remember`). */
function forget(state: BatchState): void {
  state.memo.clear();
  state.known.clear();
}

/** Queues a write for the next batch of its board's queue; settles once that batch committed (or failed). */
function enqueue<T>(deps: Deps3, boardId: number, write: Pick<Queued<BatchState>, 'run' | 'kept' | 'quick'>): Promise<T> {
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
          return Promise.resolve({
            boards: new Map(),
            writes: [],
            memo: new Map(),
            known: new Map(),
            locked: { boardId, answer },
          });
        },
        checkpoint: (state) => {
          const boards = [...state.boards].map(([id, entry]) => [id, entry.version, entry.events.length] as const);
          const writes = state.writes.length;
          return () => {
            forget(state);
            for (const [id, entry] of state.boards) {
              const was = boards.find(([b]) => b === id);
              if (!was) state.boards.delete(id);
              else {
                entry.version = was[1];
                entry.events.length = was[2];
              }
            }
            state.writes.length = writes;
          };
        },
        finish: async (trx, state) => {
          for (const [id, { events }] of state.boards) if (events.length > 0) await storeEvents(trx, id, events, state.locked);
        },
        committed: (state) => {
          for (const [id, { version, events }] of state.boards) {
            if (events.length > 0) afterBatch(deps.database, id, events[0]!.version - 1, version, snapshotFailed(deps));
          }
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
  if (events.length === 0 || !events.every((e) => CONTENT_EVENT.test(e.name))) forget(state);
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
    if (value === undefined) {
      state.memo.set(key, (value = read()));
      const asked = value;
      // Known once answered, unless forgotten meanwhile (a failed read stays unknown: its writer fails with it).
      asked.then(
        (answer) => void (state.memo.get(key) === asked && state.known.set(key, answer)),
        () => undefined,
      );
    }
    return value;
  };
  const key = audienceKey(boardId);
  return {
    remember,
    audience: () => remember(key, () => boardAudience(trx, boardId)),
    knownAudience: (audience) => {
      state.memo.set(key, Promise.resolve(audience));
      state.known.set(key, audience);
    },
    failed: () => forget(state),
  };
}

const audienceKey = (boardId: number) => `audience:${boardId}`;

/** The board as this write sees it: its stored row with the version the earlier writes of the batch raised it to. */
function current<B extends Pick<BoardRow, 'id' | 'version'>>(state: BatchState, board: B): B {
  const version = state.boards.get(board.id)?.version;
  return version === undefined ? board : { ...board, version };
}

/** A write's events and facts as its work emits and tells them, and how they reach the subscribers. */
function changeOf(deps: Deps3, after: Array<() => Promise<void>>) {
  const drafts: Draft[] = [];
  const facts: BoardFact[] = [];
  return {
    emit: <K extends BoardEventName>(name: K, data: BoardEventMap[K]) => void drafts.push({ name, data }),
    /** The facts told so far, by name. */
    told: () => facts.map((fact) => fact.name),
    tell: <K extends BoardFactName>(name: K, data: BoardFactMap[K]) => void facts.push({ name, data } as BoardFact),
    afterCommit: (fn: () => Promise<void>) => void after.push(fn),
    /** Numbers the events and runs the `written` subscribers, in the write's transaction: answers the events. */
    written: async (
      scope: { trx: Db; dialect: Dialect; board: BoardRow; actor: Actor | null; audience: () => Promise<string[]> },
      numberedFrom: Pick<BoardRow, 'id' | 'version'> = scope.board,
    ): Promise<BoardEvent[]> => {
      const events = numbered(numberedFrom, scope.actor, drafts);
      await changeWritten({ ...scope, afterCommit: (fn) => void after.push(fn), deps }, { events, facts });
      return events;
    },
  };
}

const snapshotFailed = (deps: Deps3) => (error: unknown) => deps.log.error({ err: error }, 'a board snapshot failed');

async function runAfter(deps: Deps3, after: ReadonlyArray<() => Promise<void>>): Promise<void> {
  for (const fn of after) await fn().catch((error: unknown) => deps.log.error({ err: error }, 'after-commit work failed'));
}

/**
 * The write path every board change takes: the board's row locked, the
 * caller's level checked, `work` changing the rows, the change's
 * subscribers (subscribers.ts) writing what must commit with it, the board's
 * version raised once per event and the events stored; after the commit the
 * events go onto the bus. Anything thrown undoes this change alone and is the
 * caller's answer. Writes arriving together commit together (group commit,
 * see `GroupCommit`), each in a savepoint of its own.
 * `target` is the board's id, or the board's id with the kind of thing the
 * caller named, which a refusal to read then names (as a missing one would).
 */
export async function writeBoard<T, Q = never>(
  deps: Deps3,
  actor: Actor,
  target: number | { boardId: number; subject: Subject },
  needed: RequiredLevel,
  work: (scope: WriteScope) => Promise<T>,
  options: { allowArchived?: boolean; quick?: QuickWork<T, Q> } = {},
): Promise<T> {
  const record = writeStep();
  if (record?.done) return record.result as T;
  const { dialect } = deps.database;
  const { boardId, subject } = typeof target === 'number' ? { boardId: target, subject: undefined } : target;
  const after: Array<() => Promise<void>> = [];
  let events: BoardEvent[] = [];
  const accessKey = `access:${boardId}:${actor.id}:${needed}:${subject}`;
  /** The caller's access, read once per batch (with the board's audience). */
  const accessIn = (state: BatchState, trx: Db) => {
    const { remember, knownAudience } = rememberer(state, trx, boardId);
    return remember(accessKey, async () => {
      const access = await requireBoardWithAudience(trx, actor, boardId, needed, subject);
      knownAudience(access.audience);
      return access;
    });
  };
  const quick = options.quick;
  const result = await enqueue<T>(deps, boardId, {
    run: async (trx, state) => {
      after.length = 0;
      const { remember, audience, failed } = rememberer(state, trx, boardId);
      try {
        // The batch holds the board's lock already; a board removed by an earlier write of it is missing here.
        const access = await accessIn(state, trx);
        const board = current(state, access.board);
        if (!options.allowArchived) unarchivedBoard(board);
        const change = changeOf(deps, after);
        const result = await work({
          trx,
          dialect,
          board,
          level: access.level,
          actor,
          emit: change.emit,
          tell: change.tell,
          afterCommit: change.afterCommit,
          remember,
          audience,
        });
        const written = await change.written({ trx, dialect, board, actor, audience });
        await record?.store(trx, result);
        events = written;
        return result;
      } catch (error) {
        failed();
        throw error;
      }
    },
    // With an `Idempotency-Key` the result is stored by a statement after the work's: one by one.
    quick:
      quick && !record
        ? async (trx, state, mayRead): Promise<QuickSend | null> => {
            if (!mayRead && !(state.known.has(accessKey) && state.known.has(audienceKey(boardId)))) return null;
            const access = await accessIn(state, trx);
            const { remember, audience } = rememberer(state, trx, boardId);
            // What `written` runs must run no statement: the writes sent behind this one have theirs on the wire.
            if (!changeIsQuiet(quick.tells, { actor, audience: await audience() })) return null;
            if (!options.allowArchived) unarchivedBoard(access.board);
            return {
              statements: quick.statements({ trx, boardId, actor }),
              answered: (rows) => {
                const done = quick.answered(rows);
                if (done === undefined) return null;
                return async () => {
                  after.length = 0;
                  // Numbered after the writes kept before it, whatever was on the wire when it was sent.
                  const board = current(state, access.board);
                  const change = changeOf(deps, after);
                  const scope = { trx, dialect, board, level: access.level, actor, remember, audience };
                  const result = quick.finish(
                    { ...scope, emit: change.emit, tell: change.tell, afterCommit: change.afterCommit },
                    done,
                  );
                  const told = change.told().find((name) => !quick.tells.includes(name));
                  if (told) throw new Error(`a quick write told ${told}, which it did not name in \`tells\``);
                  events = await change.written({ trx, dialect, board, actor, audience });
                  return result;
                };
              },
            };
          }
        : undefined,
    kept: (state) => keep(state, boardId, events),
  });
  record?.committed();
  await runAfter(deps, after);
  return result;
}

/**
 * A board write that is, in the common case, statements that need no
 * answer before they are sent (a move): the group commit then sends it back
 * to back with the writes beside it (`GroupCommit`, `Dialect.pipeline`),
 * one round trip for all of them. `work` stays the whole write: it runs
 * when the statements changed nothing (the long way), where writes run one
 * by one, and when the quick form cannot be used (below).
 *
 * Used only when the caller's access and the board's audience are known in
 * the batch already (the first write of an exchange reads them), no
 * `Idempotency-Key` record is kept, and every `written` subscriber says it
 * writes nothing for the facts named in `tells` (`ChangeSubscriber.quiet`).
 */
export interface QuickWork<T, Q> {
  /** Every fact `finish` may tell. */
  tells: readonly BoardFactName[];
  /** The write's statements, built and not run: the last one's rows say what it did. They may use only the board's id. */
  statements: (scope: { trx: Db; boardId: number; actor: Actor }) => ReadonlyArray<Statement>;
  /** From the last statement's rows: what the write did, or undefined when it changed nothing (then `work` runs). */
  answered: (rows: unknown[]) => Q | undefined;
  /** Emits and tells what the write did and answers its result; runs no statement. */
  finish: (scope: WriteScope, done: Q) => T;
}

/**
 * The write path for changes no caller's rights decide: the service's own
 * work (retention), or an invitation link used by the one it was sent to.
 * The same lock, batches, subscribers, events and after-commit steps as
 * `writeBoard`, without an access check; the events carry `options.actor`
 * when given, else no actor. Answers undefined when the board is gone.
 */
export async function systemWrite<T>(
  deps: Deps3,
  boardId: number,
  work: (scope: SystemScope) => Promise<T>,
  options: { actor?: Actor } = {},
): Promise<T | undefined> {
  const record = writeStep();
  if (record?.done) return (record.result as { result: T } | undefined)?.result;
  const { dialect } = deps.database;
  const actor = options.actor ?? null;
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
        const change = changeOf(deps, after);
        const result = await work({
          trx,
          dialect,
          board,
          emit: change.emit,
          tell: change.tell,
          afterCommit: change.afterCommit,
          remember,
          audience,
        });
        const written = await change.written({ trx, dialect, board, actor, audience });
        await record?.store(trx, { result });
        events = written;
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
  await runAfter(deps, after);
  return outcome.result;
}

/** What the work of a new board gets: its transaction and how to tell of the board it makes. */
export type NewBoardScope = Pick<WriteScope, 'trx' | 'dialect' | 'actor' | 'emit' | 'tell' | 'afterCommit'>;

/**
 * The road a new board takes into the world (created, imported, made from a
 * template): `work` writes it in one transaction of its own and answers its
 * row with the caller's result; the events it emitted are numbered from the
 * row's version and stored with the version bump, the subscribers write what
 * must commit with them, the caller's `Idempotency-Key` record is stored in
 * the same transaction, and after the commit the events go onto the bus.
 * Nobody else can hold the new board's lock yet, so it takes no queue.
 * `onReplay`: an earlier attempt of the same keyed request made the board
 * already (its stored result is the answer); what this one prepared goes.
 */
export async function createBoardWrite<T>(
  deps: Deps3,
  actor: Actor,
  work: (scope: NewBoardScope) => Promise<{ board: BoardRow; result: T }>,
  options: { onReplay?: () => Promise<void> } = {},
): Promise<T> {
  const record = writeStep();
  if (record?.done) {
    await options.onReplay?.();
    return record.result as T;
  }
  const { db, dialect } = deps.database;
  const after: Array<() => Promise<void>> = [];
  const { result, events } = await db.transaction().execute(async (trx) => {
    const change = changeOf(deps, after);
    const { board, result } = await work({
      trx,
      dialect,
      actor,
      emit: change.emit,
      tell: change.tell,
      afterCommit: change.afterCommit,
    });
    // Read once, as `writeBoard`'s is per batch: each subscriber (each fact) would read the same rows again.
    let read: Promise<string[]> | undefined;
    const audience = () => (read ??= boardAudience(trx, board.id));
    const events = await change.written({ trx, dialect, board, actor, audience });
    if (events.length > 0) await storeEvents(trx, board.id, events);
    // Where the board's history starts: an imported board's cards came with no event of their own.
    await snapshotPresent(trx, board.id);
    await record?.store(trx, result);
    return { result, events };
  });
  heardCommit(1);
  try {
    deps.bus.publish(events);
  } catch (error) {
    deps.log.error({ err: error }, 'an event listener failed');
  }
  record?.committed();
  await runAfter(deps, after);
  return result;
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
async function storeEvents(
  trx: Db,
  boardId: number,
  events: readonly BoardEvent[],
  locked?: BatchState['locked'],
): Promise<void> {
  const last = events[events.length - 1]!.version;
  if (locked?.boardId === boardId) {
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
      const stored = storedHandler();
      if (lock && stored && lock.hooked !== undefined && !events.some((e) => e.name === 'board.deleted')) {
        await stored.store(trx, boardId, events, lock.hooked);
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

/** The batch's lock on its board, reading the `stored` subscriber's column under it. */
const lockWithHook = boardLock(storedHandler);

/** Raises the board's version; answers the new one and the `stored` subscriber's column (under the board's lock). */
const bumpVersion = versionBump(storedHandler);

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
  const stored = storedHandler();
  if (stored && hooked !== undefined) await stored.store(trx, boardId, events, hooked);
}
