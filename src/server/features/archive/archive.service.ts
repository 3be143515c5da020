import type { Actor } from '../../auth/actor.js';
import { boardIdOf, missing, requireBoard } from '../../access/index.js';
import type { Db } from '../../db/database.js';
import { nowIso, toIso } from '../../db/dialect.js';
import type { AreaRow } from '../../db/schema.js';
import type { ServiceDeps } from '../../deps.js';
import { writeBoard, type WriteScope } from '../../events/board-write.js';
import { overWipLimit, presentOne } from '../areas/areas.service.js';
import { presentBoard } from '../../events/present-board.js';
import { recordActivity } from '../activity/activity.service.js';
import { findArea } from '../areas/areas.repository.js';
import { updateBoard } from '../boards/boards.repository.js';
import { findCard } from '../cards/cards.repository.js';
import { loadCard, visibleCards } from '../cards/cards.service.js';
import * as repo from './archive.repository.js';

/** What was archived on one board: areas with the cards that went with them, and cards archived on their own. */
export async function boardArchive(deps: ServiceDeps, actor: Actor, boardId: number) {
  const { db } = deps.database;
  await requireBoard(db, actor, boardId, 'edit');
  const areas = await repo.archivedAreas(db, boardId);
  const cards = await repo.archivedCards(db, boardId);
  return {
    areas: areas.map((a) => ({ ...a, archivedAt: toIso(a.archivedAt), cardCount: Number(a.cardCount ?? 0) })),
    cards: cards.map((c) => ({ ...c, archivedAt: toIso(c.archivedAt) })),
  };
}

/** The archived boards the caller owns, most recently archived first. */
export async function archivedBoards(deps: ServiceDeps, actor: Actor) {
  const rows = await repo.archivedBoardsOf(deps.database.db, actor.id);
  return { boards: rows.map((b) => ({ ...b, archivedAt: toIso(b.archivedAt) })) };
}

export async function restore(deps: ServiceDeps, actor: Actor, type: 'card' | 'area' | 'board', id: number) {
  if (type === 'board') {
    await writeBoard(
      deps,
      actor,
      id,
      'owner',
      async ({ trx, board, emit }) => {
        if (board.archivedAt === null) return;
        const row = await updateBoard(trx, id, { archivedAt: null, updatedAt: nowIso() });
        emit('board.restored', { board: presentBoard(row) });
      },
      { allowArchived: true },
    );
    return { success: true };
  }

  const subject = type === 'card' ? 'Card' : 'Area';
  const boardId = await boardIdOf(deps.database.db, type === 'card' ? 'cards' : 'areas', id);
  const over = await writeBoard(deps, actor, { boardId, subject }, 'edit', async ({ trx, emit }) => {
    const card = type === 'card' ? await findCard(trx, id) : undefined;
    const area = await findArea(trx, card?.areaId ?? id);
    if (!area || (type === 'card' && !card)) throw missing(subject);
    // A card whose area is archived comes back with its area, and the area with all its cards.
    const areaBack = area.archivedAt !== null;
    if (areaBack) await restoreArea(trx, area, emit);
    const cardBack = card?.archivedAt != null;
    if (cardBack) {
      const row = await repo.unarchiveCard(trx, id, nowIso());
      await recordActivity(trx, row.id, actor.id, 'restored', null);
      emit('card.restored', { card: await loadCard(trx, row) });
    }
    // Cards that came back into sight may pass the area's work-in-progress limit (soft: the restore is kept).
    return (areaBack || cardBack) && (await overWipLimit(trx, area.id));
  });
  return over ? { success: true, boardId, overLimit: true as const } : { success: true, boardId };
}

async function restoreArea(trx: Db, area: AreaRow, emit: WriteScope['emit']) {
  const row = await repo.unarchiveArea(trx, area.id, nowIso());
  emit('area.restored', { area: await presentOne(trx, row), cards: await visibleCards(trx, area.id) });
}
