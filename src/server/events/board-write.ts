import type { Actor } from '../auth/actor.js';
import { requireBoard, type Level, type RequiredLevel, type Subject } from '../access/policy.js';
import type { Db } from '../db/database.js';
import { nowIso } from '../db/dialect.js';
import { dialectOf, type Dialect } from '../db/dialects/index.js';
import type { BoardRow } from '../db/schema.js';
import type { Deps } from '../deps.js';
import { conflict } from '../http/errors.js';
import type { BoardEvent, BoardEventMap, BoardEventName } from '../../shared/events.js';
import { queueWebhookDeliveries } from '../features/webhooks/queue.js';

/** The PostgreSQL channel on which committed board versions are announced to every process. */
export const EVENTS_CHANNEL = 'tavla_events';

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
}

/** What a change needs that no caller's rights decide (removals by the retention job). */
export type SystemScope = Pick<WriteScope, 'trx' | 'dialect' | 'board' | 'emit' | 'afterCommit'>;

interface Draft {
  name: BoardEventName;
  data: BoardEventMap[BoardEventName];
}

/**
 * The write path every board change takes: one transaction that locks the
 * board, checks the caller's level, lets `work` change the rows, raises the
 * board's version once per event and stores the events; after the commit the
 * events go onto the bus. Anything thrown rolls the whole change back.
 * `target` is the board's id, or the board's id with the kind of thing the
 * caller named, which a refusal to read then names (as a missing one would).
 */
export async function writeBoard<T>(
  deps: Pick<Deps, 'database' | 'bus' | 'log'>,
  actor: Actor,
  target: number | { boardId: number; subject: Subject },
  needed: RequiredLevel,
  work: (scope: WriteScope) => Promise<T>,
  options: { allowArchived?: boolean } = {},
): Promise<T> {
  const { db, dialect } = deps.database;
  const { boardId, subject } = typeof target === 'number' ? { boardId: target, subject: undefined } : target;
  const after: Array<() => Promise<void>> = [];
  const { result, events } = await dialect.takeTurns(boardId, () =>
    db.transaction().execute(async (trx) => {
      const { board, level } = await requireBoard(trx, actor, boardId, needed, { lock: true, subject });
      if (board.archivedAt !== null && !options.allowArchived) throw conflict('The board is archived; restore it first');
      const drafts: Draft[] = [];
      const result = await work({
        trx,
        dialect,
        board,
        level,
        actor,
        emit: (name, data) => drafts.push({ name, data }),
        afterCommit: (fn) => after.push(fn),
      });
      const events = await recordEvents(trx, board, actor, drafts);
      return { result, events };
    }),
  );
  deps.bus.publish(events);
  for (const fn of after) await fn().catch((error: unknown) => deps.log.error({ err: error }, 'after-commit work failed'));
  return result;
}

/**
 * The write path for the service's own work (retention): the same lock,
 * events and after-commit steps as `writeBoard`, without a caller whose
 * access is checked; the events carry no actor.
 */
export async function systemWrite<T>(
  deps: Pick<Deps, 'database' | 'bus' | 'log'>,
  boardId: number,
  work: (scope: SystemScope) => Promise<T>,
): Promise<T | undefined> {
  const { db, dialect } = deps.database;
  const after: Array<() => Promise<void>> = [];
  const outcome = await db.transaction().execute(async (trx) => {
    const board = await trx
      .selectFrom('boards')
      .selectAll()
      .where('id', '=', boardId)
      .$call((q) => dialect.lockForUpdate(q))
      .executeTakeFirst();
    if (!board) return undefined;
    const drafts: Draft[] = [];
    const result = await work({
      trx,
      dialect,
      board,
      emit: (name, data) => drafts.push({ name, data }),
      afterCommit: (fn) => after.push(fn),
    });
    return { result, events: await recordEvents(trx, board, null, drafts) };
  });
  if (!outcome) return undefined;
  deps.bus.publish(outcome.events);
  for (const fn of after) await fn().catch((error: unknown) => deps.log.error({ err: error }, 'after-commit work failed'));
  return outcome.result;
}

/** Raises the board's version by one per event and stores each event row. */
export async function recordEvents(
  trx: Db,
  board: Pick<BoardRow, 'id' | 'version'>,
  actor: Actor | null,
  drafts: readonly Draft[],
): Promise<BoardEvent[]> {
  if (drafts.length === 0) return [];
  const bumped = await trx
    .updateTable('boards')
    .set((eb) => ({ version: eb('version', '+', drafts.length) }))
    .where('id', '=', board.id)
    .returning('version')
    .executeTakeFirst();
  const createdAt = nowIso();
  // A board removed by this very change keeps no event rows; viewers still hear of it.
  const first = (bumped?.version ?? board.version + drafts.length) - drafts.length + 1;
  const events = drafts.map((draft, i): BoardEvent => ({
    boardId: board.id,
    version: first + i,
    name: draft.name,
    actor: actor && { id: actor.id, name: actor.name },
    data: draft.data,
    createdAt,
  }));
  // Delivered to every process's listener when (and only if) the transaction commits.
  const deleted = events.find((e) => e.name === 'board.deleted');
  await dialectOf(trx).notify(trx, EVENTS_CHANNEL, { boardId: board.id, version: first + drafts.length - 1, deleted });
  if (bumped) {
    await trx
      .insertInto('board_events')
      .values(
        events.map((e) => ({
          boardId: e.boardId,
          version: e.version,
          name: e.name,
          data: JSON.stringify(e.data),
          actorId: actor?.id ?? null,
          createdAt,
        })),
      )
      .execute();
    await queueWebhookDeliveries(trx, board.id, events);
  }
  return events;
}
