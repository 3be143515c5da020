import type { Db } from '../../db/database.js';
import { hotQuery } from '../../db/hot-query.js';
import type { CardRow } from '../../db/schema.js';
import { countInArea, shiftCards } from './cards.repository.js';

/** Past the last possible sort (the largest 32-bit integer both databases compare with). */
const END = 2_147_483_647;

/**
 * The sort of the visible card a viewer sees at `newIndex` (the moved card
 * left out), or null when `newIndex` is past the last one: the card goes
 * right before that card, archived cards keeping their places around it.
 */
async function sortOfVisibleAt(db: Db, areaId: number, newIndex: number, movedId: number): Promise<number | null> {
  const [row] = await visibleAt(db, areaId, movedId, 1, newIndex);
  return row?.sort ?? null;
}

const visibleAt = hotQuery((db: Db, areaId: number, movedId: number, one: number, offset: number) =>
  db
    .selectFrom('cards')
    .select('sort')
    .where('areaId', '=', areaId)
    .where('archivedAt', 'is', null)
    .where('id', '!=', movedId)
    .orderBy('sort')
    .limit(one)
    .offset(offset),
);
const visibleCount = hotQuery((db: Db, areaId: number, movedId: number) =>
  db
    .selectFrom('cards')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('areaId', '=', areaId)
    .where('archivedAt', 'is', null)
    .where('id', '!=', movedId),
);
const putCard = hotQuery((db: Db, areaId: number, sort: number, id: number) =>
  db.updateTable('cards').set({ areaId, sort }).where('id', '=', id),
);

/**
 * Puts `card` at visible position `newIndex` of `toAreaId`. Every card of an
 * area holds a distinct sort 0..n-1 (archived ones included), so a move is
 * three range updates whatever the size of the areas. The caller holds the
 * board's write lock. Answers where the card now stands among the visible ones.
 */
export async function placeCard(db: Db, card: CardRow, toAreaId: number, newIndex: number): Promise<number> {
  const target = await sortOfVisibleAt(db, toAreaId, newIndex, card.id);
  // Before the visible card at newIndex, it is at newIndex; past the last one, right after all the others.
  const position = target !== null ? newIndex : Number((await visibleCount(db, toAreaId, card.id))[0]!.n);
  if (toAreaId === card.areaId) {
    const last = (await countInArea(db, card.areaId)) - 1;
    // Where the card ends up once it has left its own slot.
    const dest = target === null ? last : target > card.sort ? target - 1 : target;
    if (dest === card.sort) return position;
    if (dest > card.sort) await shiftCards(db, card.areaId, card.sort + 1, dest, -1);
    else await shiftCards(db, card.areaId, dest, card.sort - 1, 1);
    await putCard(db, card.areaId, dest, card.id);
    return position;
  }
  const dest = target ?? (await countInArea(db, toAreaId));
  await shiftCards(db, card.areaId, card.sort + 1, END, -1);
  await shiftCards(db, toAreaId, dest, END, 1);
  await putCard(db, toAreaId, dest, card.id);
  return position;
}

/** Closes the gap a card leaves when it is removed from its area. */
export async function closeGap(db: Db, card: Pick<CardRow, 'areaId' | 'sort'>): Promise<void> {
  await shiftCards(db, card.areaId, card.sort + 1, END, -1);
}
