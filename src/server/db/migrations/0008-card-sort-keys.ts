import type { Kysely } from 'kysely';
import type { ColumnTypes } from '../dialect.js';

/**
 * Card sorts became keys with gaps: a move writes one row, so keeping `sort`
 * out of every index (which let PostgreSQL rewrite a hundred shifted rows in
 * place) buys nothing any more, while a move's neighbours and an area's list
 * are found along (areaId, sort) instead of by sorting every card of the area.
 * SQLite has had that index from the start.
 */
export async function up(db: Kysely<unknown>, t: ColumnTypes): Promise<void> {
  if (t.dialect !== 'postgres') return;
  await db.schema.createIndex('cards_area_sort').on('cards').columns(['areaId', 'sort']).execute();
  await db.schema.dropIndex('cards_area').execute();
}
