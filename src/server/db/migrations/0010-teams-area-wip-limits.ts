import type { Kysely } from 'kysely';
import type { ColumnTypes } from '../dialect.js';

/** An area may have a work-in-progress limit: a soft cap on its visible cards (1–999), none by default. */
export async function up(db: Kysely<unknown>, _t: ColumnTypes): Promise<void> {
  await db.schema.alterTable('areas').addColumn('wipLimit', 'integer').execute();
}
