import type { Kysely } from 'kysely';
import type { ColumnTypes } from '../dialect.js';

/**
 * A board's custom fields (at most 20, one name per board whatever its case)
 * and the values cards hold for them. A value is stored as JSON text, the
 * one column every type fits; the field's type says what it may be.
 */
export async function up(db: Kysely<unknown>, t: ColumnTypes): Promise<void> {
  await db.schema
    .createTable('custom_fields')
    .addColumn('id', t.serial, t.autoKey)
    .addColumn('boardId', 'integer', (c) => c.notNull().references('boards.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    // Unicode lower case of the trimmed name: one field per name per board, whatever its case.
    .addColumn('nameKey', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    // A JSON array of option names for a select field, null for the others.
    .addColumn('options', 'text')
    // 0 or 1 on both databases: SQLite binds no booleans.
    .addColumn('showOnCard', 'integer', (c) => c.notNull())
    .addColumn('sort', 'integer', (c) => c.notNull())
    .addColumn('createdAt', t.timestamp, (c) => c.notNull())
    .addUniqueConstraint('custom_fields_board_name', ['boardId', 'nameKey'])
    .execute();

  await db.schema
    .createTable('card_field_values')
    .addColumn('cardId', 'integer', (c) => c.notNull().references('cards.id').onDelete('cascade'))
    .addColumn('fieldId', 'integer', (c) => c.notNull().references('custom_fields.id').onDelete('cascade'))
    .addColumn('value', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('card_field_values_pk', ['cardId', 'fieldId'])
    .execute();
  await db.schema.createIndex('card_field_values_field').on('card_field_values').column('fieldId').execute();
}
