import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../db/database.js';
import type { ApiKeyTable, Schema } from '../db/schema.js';

export type ApiKeyRow = Selectable<ApiKeyTable>;

export async function insertKey(db: Db, row: Insertable<Schema['apikey']>): Promise<void> {
  await db.insertInto('apikey').values(row).execute();
}

/** The account's keys, newest first. */
export function listKeys(db: Db, userId: string): Promise<ApiKeyRow[]> {
  return db.selectFrom('apikey').selectAll().where('userId', '=', userId).orderBy('createdAt', 'desc').orderBy('id').execute();
}

/** Deletes one of the account's keys; answers whether there was one. */
export async function deleteKey(db: Db, userId: string, keyId: string): Promise<boolean> {
  const result = await db.deleteFrom('apikey').where('id', '=', keyId).where('userId', '=', userId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
