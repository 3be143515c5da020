import type { Db } from '../db/database.js';

/** Which of these stored files an attachment or a picture still refers to. */
export async function referencedStoredNames(db: Db, storedNames: readonly string[]): Promise<Array<string | null>> {
  const rows = await db
    .selectFrom('attachments')
    .select('storedName')
    .where('storedName', 'in', storedNames)
    .union(db.selectFrom('images').select('storedName').where('storedName', 'in', storedNames))
    .execute();
  return rows.map((row) => row.storedName);
}
