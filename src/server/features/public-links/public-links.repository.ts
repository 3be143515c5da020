import type { Db } from '../../db/database.js';

/** When the board's public link was made, if it has one (a board has one link at most). */
export function findLink(db: Db, boardId: number): Promise<{ createdAt: Date | string } | undefined> {
  return db.selectFrom('public_links').select('createdAt').where('boardId', '=', boardId).executeTakeFirst();
}

/** Only the token's hash is stored: the address is shown once, when the link is made. */
export async function insertLink(
  db: Db,
  boardId: number,
  tokenHash: string,
  createdBy: string,
  createdAt: string,
): Promise<void> {
  await db.insertInto('public_links').values({ boardId, tokenHash, createdBy, createdAt }).execute();
}

export async function deleteLinks(db: Db, boardId: number): Promise<void> {
  await db.deleteFrom('public_links').where('boardId', '=', boardId).execute();
}

/** The board a link's hash opens, archived ones too: the service answers those as it answers an unknown link. */
export function boardOfLink(db: Db, tokenHash: string) {
  return db
    .selectFrom('public_links')
    .innerJoin('boards', 'boards.id', 'public_links.boardId')
    .select(['boards.id', 'boards.name', 'boards.style', 'boards.color', 'boards.image', 'boards.version', 'boards.archivedAt'])
    .where('public_links.tokenHash', '=', tokenHash)
    .executeTakeFirst();
}

/** A picture pasted into this board's text; one of another board is not found, so a link opens its own board's files only. */
export function findBoardImage(
  db: Db,
  boardId: number,
  storedName: string,
): Promise<{ storedName: string; filetype: string } | undefined> {
  return db
    .selectFrom('images')
    .select(['storedName', 'filetype'])
    .where('storedName', '=', storedName)
    .where('boardId', '=', boardId)
    .executeTakeFirst();
}

/** Each link's hash with the board's version; an archived board's links open nothing, so none come. */
export function openLinks(db: Db, boardId: number): Promise<Array<{ tokenHash: string; version: number }>> {
  return db
    .selectFrom('public_links')
    .innerJoin('boards', 'boards.id', 'public_links.boardId')
    .select(['public_links.tokenHash', 'boards.version'])
    .where('public_links.boardId', '=', boardId)
    .where('boards.archivedAt', 'is', null)
    .execute();
}
