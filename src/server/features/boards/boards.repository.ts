import { ownedBy, sharedWith } from '../../access/index.js';
import type { Db } from '../../db/database.js';
import type { Updateable } from 'kysely';
import type { BoardRow, BoardTable, NewBoard } from '../../db/schema.js';

export function listOwned(db: Db, userId: string): Promise<BoardRow[]> {
  return db
    .selectFrom('boards')
    .selectAll()
    .where((eb) => ownedBy(eb, userId))
    .where('archivedAt', 'is', null)
    .orderBy('id')
    .execute();
}

export function listShared(db: Db, userId: string): Promise<BoardRow[]> {
  return db
    .selectFrom('boards')
    .selectAll()
    .where((eb) => sharedWith(eb, userId))
    .where('archivedAt', 'is', null)
    .orderBy('id')
    .execute();
}

export function insertBoard(db: Db, board: NewBoard): Promise<BoardRow> {
  return db.insertInto('boards').values(board).returningAll().executeTakeFirstOrThrow();
}

export function updateBoard(db: Db, id: number, changes: Omit<Updateable<BoardTable>, 'id' | 'version'>): Promise<BoardRow> {
  return db.updateTable('boards').set(changes).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

export async function deleteBoard(db: Db, id: number): Promise<void> {
  // Everything on the board goes with it through ON DELETE CASCADE.
  await db.deleteFrom('boards').where('id', '=', id).execute();
}

/** The current version of each board still there: the sockets' sweeps catch up on notifications lost while disconnected. */
export function boardVersions(db: Db, boardIds: number[]): Promise<Array<{ id: number; version: number }>> {
  return db.selectFrom('boards').select(['id', 'version']).where('id', 'in', boardIds).execute();
}

/** The stored files of a board: its cards' attachments and its pictures. */
export async function storedNamesOfBoard(db: Db, boardId: number): Promise<Array<string | null>> {
  const files = await db
    .selectFrom('attachments')
    .innerJoin('cards', 'cards.id', 'attachments.cardId')
    .select('attachments.storedName')
    .where('cards.boardId', '=', boardId)
    .union(db.selectFrom('images').select('storedName').where('boardId', '=', boardId))
    .execute();
  return files.map((f) => f.storedName);
}

export async function ownedBoardIds(db: Db, userId: string): Promise<number[]> {
  const owned = await db.selectFrom('boards').select('id').where('ownerId', '=', userId).execute();
  return owned.map((b) => b.id);
}
