import type { Db } from '../../db/database.js';
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
  const row = await db
    .selectFrom('cards')
    .select('sort')
    .where('areaId', '=', areaId)
    .where('archivedAt', 'is', null)
    .where('id', '!=', movedId)
    .orderBy('sort')
    .limit(1)
    .offset(newIndex)
    .executeTakeFirst();
  return row?.sort ?? null;
}

/**
 * Puts `card` at visible position `newIndex` of `toAreaId`. Every card of an
 * area holds a distinct sort 0..n-1 (archived ones included), so a move is
 * three range updates whatever the size of the areas. The caller holds the
 * board's write lock.
 */
export async function placeCard(db: Db, card: CardRow, toAreaId: number, newIndex: number): Promise<void> {
  const target = await sortOfVisibleAt(db, toAreaId, newIndex, card.id);
  if (toAreaId === card.areaId) {
    const last = (await countInArea(db, card.areaId)) - 1;
    // Where the card ends up once it has left its own slot.
    const dest = target === null ? last : target > card.sort ? target - 1 : target;
    if (dest === card.sort) return;
    if (dest > card.sort) await shiftCards(db, card.areaId, card.sort + 1, dest, -1);
    else await shiftCards(db, card.areaId, dest, card.sort - 1, 1);
    await db.updateTable('cards').set({ sort: dest }).where('id', '=', card.id).execute();
    return;
  }
  const dest = target ?? (await countInArea(db, toAreaId));
  await shiftCards(db, card.areaId, card.sort + 1, END, -1);
  await shiftCards(db, toAreaId, dest, END, 1);
  await db.updateTable('cards').set({ areaId: toAreaId, sort: dest }).where('id', '=', card.id).execute();
}

/** Closes the gap a card leaves when it is removed from its area. */
export async function closeGap(db: Db, card: Pick<CardRow, 'areaId' | 'sort'>): Promise<void> {
  await shiftCards(db, card.areaId, card.sort + 1, END, -1);
}
