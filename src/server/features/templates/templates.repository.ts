import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../../db/database.js';
import type { TemplateTable } from '../../db/schema.js';

export type TemplateRow = Selectable<TemplateTable>;

/**
 * The board's cards that are not archived, area by area in board order; at
 * most `limit`, so a board too large for a template is told without reading it all.
 */
export function visibleCardTexts(
  db: Db,
  boardId: number,
  limit: number,
): Promise<Array<{ id: number; areaId: number; name: string; content: string }>> {
  return db
    .selectFrom('cards')
    .select(['id', 'areaId', 'name', 'content'])
    .where('boardId', '=', boardId)
    .where('archivedAt', 'is', null)
    .orderBy('areaId')
    .orderBy('sort')
    .limit(limit)
    .execute();
}

/** Which card wears which of the board's labels, labels in the order they were made. */
export function labelsWorn(db: Db, boardId: number): Promise<Array<{ cardId: number; name: string }>> {
  return db
    .selectFrom('card_labels')
    .innerJoin('labels', 'labels.id', 'card_labels.labelId')
    .select(['card_labels.cardId', 'labels.name'])
    .where('labels.boardId', '=', boardId)
    .orderBy('labels.id')
    .execute();
}

export async function countTemplates(db: Db, ownerId: string): Promise<number> {
  const row = await db
    .selectFrom('templates')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('ownerId', '=', ownerId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export function insertTemplate(db: Db, template: Insertable<TemplateTable>): Promise<TemplateRow> {
  return db.insertInto('templates').values(template).returningAll().executeTakeFirstOrThrow();
}

/** The account's own templates, newest first. */
export function listTemplates(db: Db, ownerId: string) {
  return db
    .selectFrom('templates')
    .select(['id', 'name', 'snapshot', 'areaCount', 'cardCount', 'createdAt'])
    .where('ownerId', '=', ownerId)
    .orderBy('id', 'desc')
    .execute();
}

/** Deletes a template of the account's own; answers whether there was one (anyone else's is as missing as none). */
export async function deleteTemplate(db: Db, ownerId: string, id: number): Promise<boolean> {
  const result = await db.deleteFrom('templates').where('id', '=', id).where('ownerId', '=', ownerId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** The snapshot of a template of the account's own, as stored (JSON). */
export async function findSnapshot(db: Db, ownerId: string, id: number): Promise<string | undefined> {
  const row = await db
    .selectFrom('templates')
    .select('snapshot')
    .where('id', '=', id)
    .where('ownerId', '=', ownerId)
    .executeTakeFirst();
  return row?.snapshot;
}
