import type { Kysely } from 'kysely';
import type { ColumnTypes } from '../dialect.js';

/**
 * A board's visible state (board, areas, cards) as it stood at a version:
 * where a rewind starts replaying the event log from, so that no answer
 * replays more than a snapshot interval of events. Boards from before this
 * step get their first snapshot with their next change (nothing older can be
 * rebuilt: the events before it do not say what the board held).
 */
export async function up(db: Kysely<unknown>, t: ColumnTypes): Promise<void> {
  await db.schema
    .createTable('board_snapshots')
    .addColumn('id', t.serial, t.autoKey)
    .addColumn('boardId', 'integer', (c) => c.notNull().references('boards.id').onDelete('cascade'))
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('createdAt', t.timestamp, (c) => c.notNull())
    .addUniqueConstraint('board_snapshots_board_version', ['boardId', 'version'])
    .execute();
}
