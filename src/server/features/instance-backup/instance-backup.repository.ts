import type { Db } from '../../db/database.js';
import type { BoardRow } from '../../db/schema.js';
import { BATCH } from '../board-export/board-export.repository.js';

/** Every board by id, `BATCH` at a time. */
export async function* allBoards(db: Db): AsyncGenerator<BoardRow> {
  let after = 0;
  for (;;) {
    const rows = await db.selectFrom('boards').selectAll().where('id', '>', after).orderBy('id').limit(BATCH).execute();
    yield* rows;
    if (rows.length < BATCH) return;
    after = rows[rows.length - 1]!.id;
  }
}

/** Every picture uploaded to the board, by id, `BATCH` at a time. */
export async function* boardImages(db: Db, boardId: number) {
  let after = 0;
  for (;;) {
    const rows = await db
      .selectFrom('images')
      .select(['id', 'storedName', 'createdAt'])
      .where('boardId', '=', boardId)
      .where('id', '>', after)
      .orderBy('id')
      .limit(BATCH)
      .execute();
    yield* rows;
    if (rows.length < BATCH) return;
    after = rows[rows.length - 1]!.id;
  }
}
