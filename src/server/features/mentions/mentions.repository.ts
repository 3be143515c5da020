import type { Db } from '../../db/database.js';

export interface MentionablePerson {
  id: string;
  name: string;
  image: string | null;
}

/** The accounts of these ids (those that still exist), with what a mention list shows. */
export async function accountsByIds(db: Db, ids: readonly string[]): Promise<MentionablePerson[]> {
  if (ids.length === 0) return [];
  return db.selectFrom('user').select(['id', 'name', 'image']).where('id', 'in', ids).execute();
}
