import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../../db/database.js';
import type { CustomFieldTable } from '../../db/schema.js';

export type FieldRow = Selectable<CustomFieldTable>;

/** The board's fields in their order. */
export function boardFieldRows(db: Db, boardId: number): Promise<FieldRow[]> {
  return db.selectFrom('custom_fields').selectAll().where('boardId', '=', boardId).orderBy('sort').orderBy('id').execute();
}

export function findFieldRow(db: Db, id: number): Promise<FieldRow | undefined> {
  return db.selectFrom('custom_fields').selectAll().where('id', '=', id).executeTakeFirst();
}

export function insertFieldRow(db: Db, row: Insertable<CustomFieldTable>): Promise<FieldRow> {
  return db.insertInto('custom_fields').values(row).returningAll().executeTakeFirstOrThrow();
}

export function updateFieldRow(
  db: Db,
  id: number,
  changes: Partial<Pick<FieldRow, 'name' | 'nameKey' | 'options' | 'showOnCard' | 'sort'>>,
): Promise<FieldRow> {
  return db.updateTable('custom_fields').set(changes).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

/** Removes a field; its values go with it (the foreign key cascades). */
export async function deleteFieldRow(db: Db, id: number): Promise<void> {
  await db.deleteFrom('custom_fields').where('id', '=', id).execute();
}

/** The stored values (JSON) of these cards, by card. */
export async function valueRowsOf(
  db: Db,
  cardIds: readonly number[],
): Promise<Array<{ cardId: number; fieldId: number; value: string }>> {
  if (cardIds.length === 0) return [];
  return db
    .selectFrom('card_field_values')
    .select(['cardId', 'fieldId', 'value'])
    .where('cardId', 'in', cardIds)
    .orderBy('fieldId')
    .execute();
}

/** Every value of a field, with its card (for option changes). */
export function valuesOfField(db: Db, fieldId: number): Promise<Array<{ cardId: number; value: string }>> {
  return db.selectFrom('card_field_values').select(['cardId', 'value']).where('fieldId', '=', fieldId).execute();
}

/** The cards of the board holding a value for this field (archived ones too). */
export async function cardsWithField(db: Db, fieldId: number): Promise<number[]> {
  return (await db.selectFrom('card_field_values').select('cardId').where('fieldId', '=', fieldId).execute()).map(
    (r) => r.cardId,
  );
}

export async function putValue(db: Db, cardId: number, fieldId: number, value: string): Promise<void> {
  await db
    .insertInto('card_field_values')
    .values({ cardId, fieldId, value })
    .onConflict((oc) => oc.columns(['cardId', 'fieldId']).doUpdateSet({ value }))
    .execute();
}

export async function removeValue(db: Db, cardId: number, fieldId: number): Promise<void> {
  await db.deleteFrom('card_field_values').where('cardId', '=', cardId).where('fieldId', '=', fieldId).execute();
}
