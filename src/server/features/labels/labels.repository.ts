import type { Db } from '../../db/database.js';

export type Label = { id: number; name: string };

/** The board's labels in the order they were made. */
export function boardLabels(db: Db, boardId: number): Promise<Label[]> {
  return db.selectFrom('labels').select(['id', 'name']).where('boardId', '=', boardId).orderBy('id').execute();
}

/** The board's label for a name, told apart by `nameKey` (the name in lower case), not by the case it was written in. */
export function findLabelByKey(db: Db, boardId: number, nameKey: string): Promise<Label | undefined> {
  return db
    .selectFrom('labels')
    .select(['id', 'name'])
    .where('boardId', '=', boardId)
    .where('nameKey', '=', nameKey)
    .executeTakeFirst();
}

export async function countLabels(db: Db, boardId: number): Promise<number> {
  const row = await db
    .selectFrom('labels')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('boardId', '=', boardId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export function insertLabel(db: Db, boardId: number, name: string, nameKey: string, now: string): Promise<Label> {
  return db
    .insertInto('labels')
    .values({ boardId, name, nameKey, createdAt: now })
    .returning(['id', 'name'])
    .executeTakeFirstOrThrow();
}

export async function labelIdsOfCard(db: Db, cardId: number): Promise<number[]> {
  return (await db.selectFrom('card_labels').select('labelId').where('cardId', '=', cardId).execute()).map((r) => r.labelId);
}

export async function removeCardLabels(db: Db, cardId: number, labelIds: number[]): Promise<void> {
  await db.deleteFrom('card_labels').where('cardId', '=', cardId).where('labelId', 'in', labelIds).execute();
}

export async function addCardLabels(db: Db, cardId: number, labelIds: number[]): Promise<void> {
  await db
    .insertInto('card_labels')
    .values(labelIds.map((labelId) => ({ cardId, labelId })))
    .execute();
}

/** Of these labels, those no card wears any more (archived cards count) are removed; answers whether any was. */
export async function pruneUnusedLabels(db: Db, boardId: number, labelIds: number[]): Promise<boolean> {
  if (labelIds.length === 0) return false;
  const result = await db
    .deleteFrom('labels')
    .where('boardId', '=', boardId)
    .where('id', 'in', labelIds)
    .where((eb) =>
      eb.not(eb.exists(eb.selectFrom('card_labels').select('cardId').whereRef('card_labels.labelId', '=', 'labels.id'))),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
