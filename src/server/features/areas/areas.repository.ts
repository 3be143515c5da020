import { sql, type Insertable, type Updateable } from 'kysely';
import type { Db } from '../../db/database.js';
import { hotQuery } from '../../db/hot-query.js';
import type { AreaRow, AreaTable } from '../../db/schema.js';

const areaById = hotQuery((db: Db, id: number) => db.selectFrom('areas').selectAll().where('id', '=', id));

export async function findArea(db: Db, id: number): Promise<AreaRow | undefined> {
  return (await areaById(db, id))[0];
}

const wipFillById = hotQuery((db: Db, id: number) =>
  db
    .selectFrom('areas as a')
    .select((eb) => [
      'a.wipLimit',
      eb
        .case()
        .when('a.wipLimit', 'is', null)
        .then(0)
        .else(
          eb
            .selectFrom('cards as c')
            .select((c) => c.fn.countAll<number>().as('n'))
            .whereRef('c.areaId', '=', 'a.id')
            .where('c.archivedAt', 'is', null),
        )
        .end()
        .as('cards'),
    ])
    .where('a.id', '=', id),
);

/** An area's work-in-progress limit and, when it has one, how many visible cards it holds. */
export async function wipFill(db: Db, id: number): Promise<{ wipLimit: number | null; cards: number | string } | undefined> {
  return (await wipFillById(db, id))[0];
}

/** Every area of a board, archived ones included, in board order. */
export function allAreas(db: Db, boardId: number): Promise<AreaRow[]> {
  return db.selectFrom('areas').selectAll().where('boardId', '=', boardId).orderBy('sort').execute();
}

export function visibleAreas(db: Db, boardId: number): Promise<AreaRow[]> {
  return db
    .selectFrom('areas')
    .selectAll()
    .where('boardId', '=', boardId)
    .where('archivedAt', 'is', null)
    .orderBy('sort')
    .execute();
}

export async function positionOf(db: Db, area: Pick<AreaRow, 'boardId' | 'sort'>): Promise<number> {
  const row = await db
    .selectFrom('areas')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('boardId', '=', area.boardId)
    .where('archivedAt', 'is', null)
    .where('sort', '<', area.sort)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function countAreas(db: Db, boardId: number): Promise<number> {
  const row = await db
    .selectFrom('areas')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('boardId', '=', boardId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function closeGap(db: Db, area: Pick<AreaRow, 'boardId' | 'sort'>): Promise<void> {
  await db
    .updateTable('areas')
    .set({ sort: sql<number>`sort - 1` })
    .where('boardId', '=', area.boardId)
    .where('sort', '>', area.sort)
    .execute();
}

export function insertArea(db: Db, area: Insertable<AreaTable>): Promise<AreaRow> {
  return db.insertInto('areas').values(area).returningAll().executeTakeFirstOrThrow();
}

/** Changes an area's columns; answers the row as stored. */
export function updateArea(db: Db, id: number, changes: Updateable<AreaTable>): Promise<AreaRow> {
  return db.updateTable('areas').set(changes).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

/** What removing an area takes with it: its cards, the files of their attachments and the labels they wore. */
export async function contentsOfArea(db: Db, areaId: number) {
  const files = await db
    .selectFrom('attachments')
    .innerJoin('cards', 'cards.id', 'attachments.cardId')
    .select('attachments.storedName')
    .where('cards.areaId', '=', areaId)
    .execute();
  const labels = await db
    .selectFrom('card_labels')
    .innerJoin('cards', 'cards.id', 'card_labels.cardId')
    .select('card_labels.labelId')
    .distinct()
    .where('cards.areaId', '=', areaId)
    .execute();
  const cards = await db.selectFrom('cards').select('id').where('areaId', '=', areaId).execute();
  return {
    storedNames: files.map((f) => f.storedName),
    labelIds: labels.map((l) => l.labelId),
    cardIds: cards.map((c) => c.id),
  };
}

export async function deleteAreaRow(db: Db, id: number): Promise<void> {
  await db.deleteFrom('areas').where('id', '=', id).execute();
}
