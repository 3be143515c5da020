import { sql } from 'kysely';
import type { Db } from '../../db/database.js';
import { hotQuery } from '../../db/hot-query.js';
import type { AreaRow } from '../../db/schema.js';

const areaById = hotQuery((db: Db, id: number) => db.selectFrom('areas').selectAll().where('id', '=', id));

export async function findArea(db: Db, id: number): Promise<AreaRow | undefined> {
  return (await areaById(db, id))[0];
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
