import type { Actor } from '../../auth/actor.js';
import { boardIdOf, missing, requireBoard } from '../../access/policy.js';
import type { Db } from '../../db/database.js';
import { nowIso, toIso } from '../../db/dialect.js';
import type { AreaRow } from '../../db/schema.js';
import type { ServiceDeps } from '../../deps.js';
import { writeBoard, type WriteScope } from '../../events/board-write.js';
import { presentOne } from '../areas/areas.service.js';
import { presentBoard } from '../boards/boards.presenter.js';
import { recordActivity } from '../activity/activity.service.js';
import { loadCard, visibleCards } from '../cards/cards.service.js';

/** What was archived on one board: areas with the cards that went with them, and cards archived on their own. */
export async function boardArchive(deps: ServiceDeps, actor: Actor, boardId: number) {
  const { db } = deps.database;
  await requireBoard(db, actor, boardId, 'edit');
  const areas = await db
    .selectFrom('areas')
    .select(['id', 'name', 'archivedAt'])
    .select((eb) =>
      eb
        .selectFrom('cards')
        .select(eb.fn.countAll<number>().as('n'))
        .whereRef('cards.areaId', '=', 'areas.id')
        .where('cards.archivedAt', 'is', null)
        .as('cardCount'),
    )
    .where('boardId', '=', boardId)
    .where('archivedAt', 'is not', null)
    .orderBy('archivedAt', 'desc')
    .orderBy('id', 'desc')
    .execute();
  const cards = await db
    .selectFrom('cards')
    .innerJoin('areas', 'areas.id', 'cards.areaId')
    .select(['cards.id', 'cards.name', 'cards.archivedAt', 'areas.name as areaName'])
    .where('cards.boardId', '=', boardId)
    .where('cards.archivedAt', 'is not', null)
    .where('areas.archivedAt', 'is', null)
    .orderBy('cards.archivedAt', 'desc')
    .orderBy('cards.id', 'desc')
    .execute();
  return {
    areas: areas.map((a) => ({ ...a, archivedAt: toIso(a.archivedAt), cardCount: Number(a.cardCount ?? 0) })),
    cards: cards.map((c) => ({ ...c, archivedAt: toIso(c.archivedAt) })),
  };
}

/** The archived boards the caller owns, most recently archived first. */
export async function archivedBoards(deps: ServiceDeps, actor: Actor) {
  const rows = await deps.database.db
    .selectFrom('boards')
    .select(['id', 'name', 'archivedAt'])
    .where('ownerId', '=', actor.id)
    .where('archivedAt', 'is not', null)
    .orderBy('archivedAt', 'desc')
    .orderBy('id', 'desc')
    .execute();
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
        const row = await trx
          .updateTable('boards')
          .set({ archivedAt: null, updatedAt: nowIso() })
          .where('id', '=', id)
          .returningAll()
          .executeTakeFirstOrThrow();
        emit('board.restored', { board: presentBoard(row) });
      },
      { allowArchived: true },
    );
    return { success: true };
  }

  const subject = type === 'card' ? 'Card' : 'Area';
  const boardId = await boardIdOf(deps.database.db, type === 'card' ? 'cards' : 'areas', id);
  await writeBoard(deps, actor, { boardId, subject }, 'edit', async ({ trx, emit }) => {
    const card = type === 'card' ? await trx.selectFrom('cards').selectAll().where('id', '=', id).executeTakeFirst() : undefined;
    const area = await trx
      .selectFrom('areas')
      .selectAll()
      .where('id', '=', card?.areaId ?? id)
      .executeTakeFirst();
    if (!area || (type === 'card' && !card)) throw missing(subject);
    // A card whose area is archived comes back with its area, and the area with all its cards.
    if (area.archivedAt !== null) await restoreArea(trx, area, emit);
    if (card?.archivedAt) {
      const row = await trx
        .updateTable('cards')
        .set({ archivedAt: null, updatedAt: nowIso() })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow();
      await recordActivity(trx, row.id, actor.id, 'restored', null);
      emit('card.restored', { card: await loadCard(trx, row) });
    }
  });
  return { success: true, boardId };
}

async function restoreArea(trx: Db, area: AreaRow, emit: WriteScope['emit']) {
  const row = await trx
    .updateTable('areas')
    .set({ archivedAt: null, updatedAt: nowIso() })
    .where('id', '=', area.id)
    .returningAll()
    .executeTakeFirstOrThrow();
  emit('area.restored', { area: await presentOne(trx, row), cards: await visibleCards(trx, area.id) });
}
