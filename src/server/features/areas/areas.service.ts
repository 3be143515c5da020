import { redactEvents } from '../../realtime/event-log.js';
import type { Area } from '../../../shared/api/areas.js';
import type { Actor } from '../../auth/actor.js';
import { boardIdForWrite, requireBoard, missing } from '../../access/index.js';
import type { Db } from '../../db/database.js';
import { nowIso } from '../../db/dialect.js';
import type { AreaRow } from '../../db/schema.js';
import { writableArea } from '../cards/guards.js';
import type { Deps, ServiceDeps } from '../../deps.js';
import { writeBoard, type SystemScope } from '../../events/board-write.js';
import { boardLabels, pruneUnusedLabels } from '../labels/labels.service.js';
import { discardAfterCommit } from '../../files/store.js';
import { badRequest } from '../../http/errors.js';
import { presentArea } from './areas.presenter.js';
import * as repo from './areas.repository.js';

export async function listAreas(deps: ServiceDeps, actor: Actor, boardId: number): Promise<Area[]> {
  const { db } = deps.database;
  await requireBoard(db, actor, boardId, 'read');
  return visibleAreas(db, boardId);
}

/** The visible areas of a board, in order, without an access check (the caller has made its own). */
export async function visibleAreas(db: Db, boardId: number): Promise<Area[]> {
  const rows = await repo.visibleAreas(db, boardId);
  return rows.map((row, i) => presentArea(row, i));
}

export async function presentOne(db: Db, row: AreaRow): Promise<Area> {
  return presentArea(row, await repo.positionOf(db, row));
}

/** Creates an area at the end of the board, or renames one (`id` given). */
export async function saveArea(
  deps: ServiceDeps,
  actor: Actor,
  input: { id?: number; boardId: number; name: string },
): Promise<Area> {
  const name = input.name.trim();
  if (name === '') throw badRequest('body: name must not be blank');
  return writeBoard(deps, actor, input.boardId, 'edit', async ({ trx, board, emit }) => {
    const now = nowIso();
    if (input.id === undefined) {
      const sort = await repo.countAreas(trx, board.id);
      const row = await repo.insertArea(trx, { boardId: board.id, name, sort, createdAt: now, updatedAt: now });
      const area = await presentOne(trx, row);
      emit('area.created', { area });
      return area;
    }
    const existing = await writableArea(trx, board.id, input.id);
    const row = await repo.updateArea(trx, existing.id, { name, updatedAt: now });
    const area = await presentOne(trx, row);
    emit('area.updated', { area });
    return area;
  });
}

/** Sets or removes (null) an area's work-in-progress limit. */
export async function setWipLimit(
  deps: ServiceDeps,
  actor: Actor,
  input: { id: number; wipLimit: number | null },
): Promise<Area> {
  const boardId = await boardIdForWrite(deps.database.db, 'areas', input.id);
  return writeBoard(deps, actor, { boardId, subject: 'Area' }, 'edit', async ({ trx, board, emit }) => {
    const existing = await writableArea(trx, board.id, input.id);
    if ((existing.wipLimit ?? null) === input.wipLimit) return presentOne(trx, existing);
    const row = await repo.updateArea(trx, existing.id, { wipLimit: input.wipLimit, updatedAt: nowIso() });
    const area = await presentOne(trx, row);
    emit('area.updated', { area });
    return area;
  });
}

/**
 * Whether the area now holds more visible cards than its work-in-progress
 * limit allows (the limit is soft: the write that filled it is kept).
 */
export async function overWipLimit(db: Db, areaId: number): Promise<boolean> {
  const fill = await repo.wipFill(db, areaId);
  return fill !== undefined && overLimit({ limit: fill.wipLimit, cards: Number(fill.cards) });
}

/** `overWipLimit` from a limit and a count already read (by the statement that filled the area). */
export function overLimit(fill: { limit: number | null; cards: number }): boolean {
  return fill.limit !== null && fill.cards > fill.limit;
}

/** Archives an area (its cards go with it, unmarked) or removes it and every card in it for good. */
export async function deleteArea(
  deps: ServiceDeps,
  actor: Actor,
  id: number,
  boardId: number,
  permanent: boolean,
): Promise<string> {
  return writeBoard(deps, actor, boardId, 'edit', async ({ trx, board, emit, afterCommit }) => {
    const area = await repo.findArea(trx, id);
    if (!area || area.boardId !== board.id) throw missing('Area');
    if (permanent) {
      await removeArea({ trx, board, emit, afterCommit }, deps, area);
      return 'Area deleted permanently';
    }
    if (area.archivedAt === null) {
      await repo.updateArea(trx, area.id, { archivedAt: nowIso(), updatedAt: nowIso() });
      emit('area.archived', { areaId: area.id });
    }
    return 'Area archived';
  });
}

/**
 * Removes an area with every card in it; the labels only those cards wore go
 * too, and the files after the commit unless still used elsewhere.
 */
export async function removeArea(
  scope: Pick<SystemScope, 'trx' | 'board' | 'emit' | 'afterCommit'>,
  deps: Pick<Deps, 'config' | 'database'>,
  area: AreaRow,
): Promise<void> {
  const { trx, board, emit } = scope;
  const { storedNames, labelIds, cardIds } = await repo.contentsOfArea(trx, area.id);
  discardAfterCommit(scope.afterCommit, deps, storedNames);
  await repo.deleteAreaRow(trx, area.id);
  await redactEvents(trx, board.id, { cardIds });
  await repo.closeGap(trx, area);
  emit('area.deleted', { areaId: area.id });
  if (await pruneUnusedLabels(trx, board.id, labelIds)) {
    emit('labels.changed', { labels: await boardLabels(trx, board.id) });
  }
}

/**
 * The whole new order of the visible areas at once: the list must name each
 * of them exactly once. Archived areas keep their slots in between.
 */
export async function reorderAreas(deps: ServiceDeps, actor: Actor, boardId: number, ids: number[]): Promise<void> {
  await writeBoard(deps, actor, boardId, 'edit', async ({ trx, board, emit }) => {
    const all = await repo.allAreas(trx, board.id);
    const visible = all.filter((a) => a.archivedAt === null);
    const known = new Set(visible.map((a) => a.id));
    if (ids.length !== visible.length || new Set(ids).size !== ids.length || !ids.every((id) => known.has(id))) {
      throw badRequest('body: areas must list every visible area of the board exactly once');
    }
    const slots = all.flatMap((a, slot) => (a.archivedAt === null ? [slot] : []));
    const byId = new Map(visible.map((a) => [a.id, a]));
    for (const [i, id] of ids.entries()) {
      const slot = slots[i]!;
      if (byId.get(id)!.sort !== slot) await repo.updateArea(trx, id, { sort: slot });
    }
    emit('areas.reordered', { areas: ids.map((id, i) => presentArea({ ...byId.get(id)!, sort: slots[i]! }, i)) });
  });
}
