import type { Db } from '../../db/database.js';
import type { AreaRow, BoardRow } from '../../db/schema.js';

/** Rows read per query: memory holds one batch, however large the instance. */
export const BATCH = 500;

/** The board as the export's own snapshot sees it: it may have gone since the access check. */
export function findBoard(db: Db, boardId: number): Promise<BoardRow | undefined> {
  return db.selectFrom('boards').selectAll().where('id', '=', boardId).executeTakeFirst();
}

/** Every attachment on the board's cards (archived ones too), by id, `BATCH` at a time. */
export async function* boardAttachments(db: Db, boardId: number) {
  let after = 0;
  for (;;) {
    const rows = await db
      .selectFrom('attachments')
      .innerJoin('cards', 'cards.id', 'attachments.cardId')
      .select(['attachments.id', 'attachments.filename', 'attachments.storedName', 'attachments.createdAt'])
      .where('cards.boardId', '=', boardId)
      .where('attachments.id', '>', after)
      .orderBy('attachments.id')
      .limit(BATCH)
      .execute();
    yield* rows;
    if (rows.length < BATCH) return;
    after = rows[rows.length - 1]!.id;
  }
}

/** An account's name, as the board file names the owner. */
export function findAccount(db: Db, id: string): Promise<{ id: string; name: string } | undefined> {
  return db.selectFrom('user').select(['id', 'name']).where('id', '=', id).executeTakeFirst();
}

/** Every area of the board, archived ones too, in board order (equal sorts by id, so every export lists them alike). */
export function areasInOrder(db: Db, boardId: number): Promise<AreaRow[]> {
  return db.selectFrom('areas').selectAll().where('boardId', '=', boardId).orderBy('sort').orderBy('id').execute();
}

/** The areas a reader sees (none archived), in board order as `areasInOrder` has them. */
export function visibleAreasInOrder(db: Db, boardId: number): Promise<Array<{ id: number; name: string }>> {
  return db
    .selectFrom('areas')
    .select(['id', 'name'])
    .where('boardId', '=', boardId)
    .where('archivedAt', 'is', null)
    .orderBy('sort')
    .orderBy('id')
    .execute();
}

/** Which of these stored names are pictures of this board: a picture of another board never goes into its zip. */
export function boardImagesNamed(db: Db, boardId: number, storedNames: string[]): Promise<Array<{ storedName: string }>> {
  return db
    .selectFrom('images')
    .select('storedName')
    .where('boardId', '=', boardId)
    .where('storedName', 'in', storedNames)
    .execute();
}
