import { sql } from 'kysely';
import type { Db } from '../../db/database.js';
import { ahead } from '../../db/ahead.js';
import { dialectOf } from '../../db/dialects/index.js';
import { hotQuery } from '../../db/hot-query.js';

// On the path of nearly every card change, so built once per dialect. Nobody reads
// the answer, so it goes ahead of the write's next statement (db/ahead.ts).
const insertEntry = hotQuery(
  (db: Db, cardId: number, actorId: string | null, type: string, data: string | null, createdAt: string) =>
    db.insertInto('card_activity').values({ cardId, actorId, type, data, createdAt }).modifyEnd(ahead),
);

/**
 * A `moved` entry whose area names the statement reads itself (`{"from", "to"}`,
 * as `JSON.stringify` writes them), so it can be written before the move, ahead
 * of it: the move's statement then answers for both. Nothing is written when
 * the card or an area is missing (the move is then refused, 404 or 400, and
 * no error of this statement's may stand in for that answer).
 */
export const insertMovedActivity = hotQuery(
  (db: Db, cardId: number, actorId: string, fromAreaId: number, toAreaId: number, createdAt: string) => {
    const { json } = dialectOf(db);
    return sql`insert into card_activity ("cardId", "actorId", "type", "data", "createdAt")
      select c.id, ${actorId}, 'moved', '{"from":' || ${sql.raw(json.quote('f.name'))} || ',"to":' || ${sql.raw(json.quote('t.name'))} || '}', ${createdAt}
      from cards c, areas f, areas t where c.id = ${cardId} and f.id = ${fromAreaId} and t.id = ${toAreaId}${ahead}`;
  },
);

/** `data` is the entry's detail already as JSON text. */
export async function insertActivity(
  db: Db,
  cardId: number,
  actorId: string | null,
  type: string,
  data: string | null,
  createdAt: string,
): Promise<void> {
  await insertEntry(db, cardId, actorId, type, data, createdAt);
}

/** A card's history, oldest first, with who wrote each entry while that account exists. */
export function activityOfCard(db: Db, cardId: number) {
  return db
    .selectFrom('card_activity')
    .leftJoin('user', 'user.id', 'card_activity.actorId')
    .select([
      'card_activity.type',
      'card_activity.data',
      'card_activity.createdAt',
      'card_activity.actorId',
      'user.name',
      'user.image',
      'user.type as actorType',
    ])
    .where('card_activity.cardId', '=', cardId)
    .orderBy('card_activity.id')
    .execute();
}

/** The names of those of these accounts that still exist, by id (`ids` must not be empty). */
export async function accountNames(db: Db, ids: string[]): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  for (const u of await db.selectFrom('user').select(['id', 'name']).where('id', 'in', ids).execute()) names.set(u.id, u.name);
  return names;
}
