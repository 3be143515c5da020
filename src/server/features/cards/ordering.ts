import type { Db } from '../../db/database.js';
import { hotQuery } from '../../db/hot-query.js';
import type { CardRow } from '../../db/schema.js';
import { sql } from 'kysely';
import { shiftCards } from './cards.repository.js';

/** Past the last possible sort (the largest 32-bit integer both databases compare with). */
const END = 2_147_483_647;

/**
 * What placing a card needs to know about its target area, as columns of
 * one query: the sort of the visible card a viewer sees at `newIndex` (the
 * moved card left out; null past the last one), how many visible cards the
 * area has besides the moved one, and how many cards it holds in all.
 */
export const placementColumns = (toAreaId: number, cardId: number, newIndex: number) => sql`
  (select v.sort from cards v
    where v."areaId" = ${toAreaId} and v."archivedAt" is null and v.id <> ${cardId}
    order by v.sort limit 1 offset ${newIndex}) as "targetSort",
  (select count(*) from cards v
    where v."areaId" = ${toAreaId} and v."archivedAt" is null and v.id <> ${cardId}) as "visibleCount",
  (select count(*) from cards v where v."areaId" = ${toAreaId}) as "toCount"`;

export interface Placement {
  targetSort: number | string | null;
  visibleCount: number | string;
  toCount: number | string;
}

/**
 * Puts `card` at visible position `newIndex` of `toAreaId`. Every card of an
 * area holds a distinct sort 0..n-1 (archived ones included), so a move is
 * one query for the facts and one UPDATE whatever the size of the areas. The
 * caller holds the board's write lock. Answers where the card now stands
 * among the visible ones.
 */
export async function placeCard(
  db: Db,
  card: Pick<CardRow, 'id' | 'areaId' | 'sort'>,
  toAreaId: number,
  newIndex: number,
): Promise<number> {
  const { rows } = await sql<Placement>`select ${placementColumns(toAreaId, card.id, newIndex)}`.execute(db);
  return placeWith(db, card, toAreaId, newIndex, rows[0]!);
}

/** `placeCard` with the facts already read (by a query that read more at once). */
export async function placeWith(
  db: Db,
  card: Pick<CardRow, 'id' | 'areaId' | 'sort'>,
  toAreaId: number,
  newIndex: number,
  facts: Placement,
): Promise<number> {
  const target = facts.targetSort === null ? null : Number(facts.targetSort);
  const toCount = Number(facts.toCount);
  // Before the visible card at newIndex, it is at newIndex; past the last one, right after all the others.
  const position = target !== null ? newIndex : Number(facts.visibleCount);
  if (toAreaId === card.areaId) {
    // Where the card ends up once it has left its own slot.
    const dest = target === null ? toCount - 1 : target > card.sort ? target - 1 : target;
    if (dest === card.sort) return position;
    await moveWithin(db, card.id, dest, card.sort, card.areaId, Math.min(dest, card.sort), Math.max(dest, card.sort));
    return position;
  }
  const dest = target ?? toCount;
  await moveAcross(db, card.id, dest, card.areaId, card.id, toAreaId, card.id, card.areaId, card.sort, toAreaId, dest);
  return position;
}

/**
 * The card to `dest`, the cards between its old and new place one step
 * toward the gap it leaves (down when it moves down, up when it moves up).
 */
const moveWithin = hotQuery((db: Db, id: number, dest: number, sort: number, areaId: number, low: number, high: number) =>
  db
    .updateTable('cards')
    .set({
      sort: sql<number>`case when id = ${id} then cast(${dest} as integer) when sort > ${sort} then sort - 1 else sort + 1 end`,
    })
    .where('areaId', '=', areaId)
    .where('sort', '>=', low)
    .where('sort', '<=', high),
);

/** The card to `dest` of the other area; the cards below it in its old area up one, those from `dest` on in the new one down one. */
const moveAcross = hotQuery(
  (
    db: Db,
    id: number,
    dest: number,
    fromAreaId: number,
    sameId: number,
    toAreaId: number,
    whereId: number,
    whereFrom: number,
    sort: number,
    whereTo: number,
    whereDest: number,
  ) =>
    db
      .updateTable('cards')
      .set({
        sort: sql<number>`case when id = ${id} then cast(${dest} as integer) when "areaId" = ${fromAreaId} then sort - 1 else sort + 1 end`,
        areaId: sql<number>`case when id = ${sameId} then cast(${toAreaId} as integer) else "areaId" end`,
      })
      .where((eb) =>
        eb.or([
          eb('id', '=', whereId),
          eb.and([eb('areaId', '=', whereFrom), eb('sort', '>', sort)]),
          eb.and([eb('areaId', '=', whereTo), eb('sort', '>=', whereDest)]),
        ]),
      ),
);

/** Closes the gap a card leaves when it is removed from its area. */
export async function closeGap(db: Db, card: Pick<CardRow, 'areaId' | 'sort'>): Promise<void> {
  await shiftCards(db, card.areaId, card.sort + 1, END, -1);
}
