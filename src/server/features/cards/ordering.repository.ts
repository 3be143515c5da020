import { sql, type CompiledQuery } from 'kysely';
import type { Db } from '../../db/database.js';
import { hotQuery } from '../../db/hot-query.js';
import type { CardRow } from '../../db/schema.js';
import { after, between, keyFor, MAX_SORT, SORT_STEP } from './ordering.js';

/**
 * What placing a card needs to know about its target area, as columns of one
 * query (the moved card left out everywhere): the key of the visible card a
 * viewer sees at `newIndex` (null past the last one), the key of whatever card
 * stands right before that one (archived ones count: the new key must fall
 * between two stored neighbours), the last key of the area, and how many
 * visible cards the area has.
 */
export const placementColumns = (toAreaId: number, cardId: number, newIndex: number) => sql`
  (select v.sort from cards v
    where v."areaId" = ${toAreaId} and v."archivedAt" is null and v.id <> ${cardId}
    order by v.sort limit 1 offset ${newIndex}) as "targetSort",
  (select max(p.sort) from cards p
    where p."areaId" = ${toAreaId} and p.id <> ${cardId} and p.sort < (
      select v.sort from cards v
        where v."areaId" = ${toAreaId} and v."archivedAt" is null and v.id <> ${cardId}
        order by v.sort limit 1 offset ${newIndex})) as "beforeSort",
  (select max(l.sort) from cards l where l."areaId" = ${toAreaId} and l.id <> ${cardId}) as "lastSort",
  (select count(*) from cards v
    where v."areaId" = ${toAreaId} and v."archivedAt" is null and v.id <> ${cardId}) as "visibleCount"`;

export interface Placement {
  targetSort: number | string | null;
  beforeSort: number | string | null;
  lastSort: number | string | null;
  visibleCount: number | string;
}

const readPlacement = (db: Db, toAreaId: number, cardId: number, newIndex: number) =>
  sql<Placement>`select ${placementColumns(toAreaId, cardId, newIndex)}`.execute(db).then((r) => r.rows[0]!);

/**
 * Puts `card` at visible position `newIndex` of `toAreaId` with the facts
 * already read (by a query that read more at once). The caller holds the
 * board's write lock. Answers where the card now stands among the visible ones.
 */
export async function placeWith(
  db: Db,
  card: Pick<CardRow, 'id' | 'areaId' | 'sort'>,
  toAreaId: number,
  newIndex: number,
  facts: Placement,
): Promise<number> {
  // Before the visible card at newIndex, it is at newIndex; past the last one, right after all the others.
  const position = facts.targetSort !== null ? newIndex : Number(facts.visibleCount);
  let key = keyFor(facts);
  if (key === null) {
    // No room left between the neighbours: spread the area's keys out again, then there is.
    await renumberArea(db, toAreaId);
    key = keyFor(await readPlacement(db, toAreaId, card.id, newIndex))!;
  }
  if (toAreaId !== card.areaId || key !== card.sort) await place(db, toAreaId, key, card.id);
  return position;
}

/** What a move that went through in one statement answers. */
export interface QuickMove {
  name: string;
  fromName: string;
  toName: string;
  /** Where the card now stands among the visible cards of its new area (RETURNING may only read the updated table, so counted from its key). */
  position: number;
  /**
   * The new area's work-in-progress limit and its visible cards now, the
   * moved one included (read only when it has a limit): what the answer's
   * `overLimit` needs, without a statement of its own. Absent after the long way.
   */
  wip?: { limit: number | null; cards: number };
}

/**
 * The whole of a move in one statement, for the common case: the card where
 * the client saw it, nothing archived, both areas on the board, room between
 * the new neighbours. It computes the key as `placeWith` does and places the
 * card only if all of that holds; otherwise it changes nothing and answers
 * undefined, and the caller takes the long way (which finds the refusal, or
 * makes room). Keys stay in 32 bits: the arithmetic is done wide and checked.
 */
export async function quickMove(
  db: Db,
  boardId: number,
  move: { cardId: number; fromAreaId: number; toAreaId: number; newIndex: number },
): Promise<QuickMove | undefined> {
  return quickMoveAnswer(await moveInOne(db, move.cardId, move.fromAreaId, move.toAreaId, move.newIndex, boardId));
}

/** `quickMove`'s statement, built and not run (to be sent with others: board-write.ts, `QuickWork`). */
export function quickMoveStatement(
  db: Db,
  boardId: number,
  move: { cardId: number; fromAreaId: number; toAreaId: number; newIndex: number },
): CompiledQuery<unknown> {
  return moveInOne.compiled(db, move.cardId, move.fromAreaId, move.toAreaId, move.newIndex, boardId);
}

/** What `quickMove`'s statement answered: the move it made, or undefined when it changed nothing. */
export function quickMoveAnswer(rows: readonly unknown[]): QuickMove | undefined {
  const row = rows[0] as MoveRow | undefined;
  if (!row) return undefined;
  const position = Number(row.position);
  const limit = row.wipLimit === null ? null : Number(row.wipLimit);
  // The moved card is visible (the statement moves no archived card) and was left out of the count.
  const wip = { limit, cards: Number(row.wipOthers ?? 0) + 1 };
  return { name: row.name, fromName: row.fromName, toName: row.toName, position, wip };
}

interface MoveRow {
  name: string;
  fromName: string;
  toName: string;
  position: number | string;
  wipLimit: number | string | null;
  wipOthers: number | string | null;
}

const moveInOne = hotQuery(
  (db: Db, card: number, from: number, to: number, newIndex: number, boardId: number) => sql<MoveRow>`
    with f as materialized (
      select
        (select v.sort from cards v where v."areaId" = ${to} and v."archivedAt" is null and v.id <> ${card}
          order by v.sort limit 1 offset ${newIndex}) as target,
        (select cast(max(l.sort) as bigint) from cards l where l."areaId" = ${to} and l.id <> ${card}) as last
    ), k as materialized (
      select f.*, (select cast(max(p.sort) as bigint) from cards p
        where p."areaId" = ${to} and p.id <> ${card} and p.sort < f.target) as before from f
    ), n as (
      select k.*, case
        when k.target is null then coalesce(k.last + ${SORT_STEP}, 0)
        when k.before is null then k.target - ${SORT_STEP}
        else k.before + (k.target - k.before) / 2 end as key
      from k
    )
    update cards set "areaId" = ${to}, sort = n.key
    from n
    where cards.id = ${card} and cards."areaId" = ${from} and cards."boardId" = ${boardId} and cards."archivedAt" is null
      and n.key between ${-MAX_SORT} and ${MAX_SORT}
      and (n.target is null or n.before is null or n.target - n.before >= 2)
      and exists (select 1 from areas a where a.id = ${from} and a."boardId" = ${boardId} and a."archivedAt" is null)
      and exists (select 1 from areas a where a.id = ${to} and a."boardId" = ${boardId} and a."archivedAt" is null)
    returning cards.name,
      (select a.name from areas a where a.id = ${from}) as "fromName",
      (select a.name from areas a where a.id = ${to}) as "toName",
      (select count(*) from cards v
        where v."areaId" = ${to} and v."archivedAt" is null and v.id <> ${card} and v.sort < cards.sort) as position,
      (select w."wipLimit" from areas w where w.id = ${to}) as "wipLimit",
      (select case when w."wipLimit" is null then null else (select count(*) from cards v
        where v."areaId" = ${to} and v."archivedAt" is null and v.id <> ${card}) end
        from areas w where w.id = ${to}) as "wipOthers"`,
);

const place = hotQuery((db: Db, areaId: number, sort: number, id: number) =>
  db.updateTable('cards').set({ areaId, sort }).where('id', '=', id),
);

/**
 * Gives an area's cards keys 0, SORT_STEP, 2·SORT_STEP… in their order. Rare:
 * only when a gap has been halved down to nothing or the keys reach the top.
 */
export async function renumberArea(db: Db, areaId: number): Promise<void> {
  await sql`
    update cards set sort = r.n * ${SORT_STEP}
    from (select id, row_number() over (order by sort, id) - 1 as n from cards where "areaId" = ${areaId}) r
    where cards.id = r.id`.execute(db);
}

/**
 * `after` the last key of the area, in SQL: a column over `cards k` limited to
 * one area, null when there is no room left below (the area is then renumbered).
 */
export const keyAfterLast = sql<number | null>`case when max(k.sort) is null then 0
  when max(k.sort) <= ${sql.lit(MAX_SORT - SORT_STEP)} then max(k.sort) + ${sql.lit(SORT_STEP)} end`;

/** The key of a new card at the bottom of an area (`last`: the area's last key, if the caller read it already). */
export async function bottomKey(db: Db, areaId: number, last?: number | string | null): Promise<number> {
  const key = after(last === undefined ? await lastKey(db, areaId) : last);
  if (key !== null) return key;
  await renumberArea(db, areaId);
  return after(await lastKey(db, areaId))!;
}

/** The key of a new card right after `card` in its area, renumbering the area if there is no room. */
export async function keyAfter(db: Db, card: Pick<CardRow, 'id' | 'areaId' | 'sort'>): Promise<number> {
  const key = await roomAfter(db, card.areaId, card.sort);
  if (key !== null) return key;
  await renumberArea(db, card.areaId);
  const row = await db.selectFrom('cards').select('sort').where('id', '=', card.id).executeTakeFirstOrThrow();
  return (await roomAfter(db, card.areaId, row.sort))!;
}

async function roomAfter(db: Db, areaId: number, sort: number): Promise<number | null> {
  const row = await db
    .selectFrom('cards')
    .select((eb) => eb.fn.min('sort').as('next'))
    .where('areaId', '=', areaId)
    .where('sort', '>', sort)
    .executeTakeFirst();
  return row?.next == null ? after(sort) : between(sort, Number(row.next));
}

async function lastKey(db: Db, areaId: number): Promise<number | null> {
  const row = await db
    .selectFrom('cards')
    .select((eb) => eb.fn.max('sort').as('last'))
    .where('areaId', '=', areaId)
    .executeTakeFirst();
  return row?.last == null ? null : Number(row.last);
}
