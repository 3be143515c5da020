import type { Insertable } from 'kysely';
import type { Db } from '../../db/database.js';
import type { Schema } from '../../db/schema.js';
import { openCardsReadableBy } from '../my-work/my-work.repository.js';

export function listFeeds(db: Db, userId: string) {
  return db
    .selectFrom('ical_feeds')
    .selectAll()
    .where('userId', '=', userId)
    .orderBy('createdAt', 'desc')
    .orderBy('id')
    .execute();
}

export async function countFeeds(db: Db, userId: string): Promise<number> {
  const { count } = await db
    .selectFrom('ical_feeds')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('userId', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(count);
}

export async function insertFeed(db: Db, row: Insertable<Schema['ical_feeds']>): Promise<void> {
  await db.insertInto('ical_feeds').values(row).execute();
}

/** Deletes one of the account's feeds; answers whether there was one. */
export async function deleteFeed(db: Db, userId: string, id: string): Promise<boolean> {
  const result = await db.deleteFrom('ical_feeds').where('id', '=', id).where('userId', '=', userId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** A feed by its token's hash, with whether its account is banned. */
export function findFeedByHash(db: Db, tokenHash: string) {
  return db
    .selectFrom('ical_feeds')
    .innerJoin('user', 'user.id', 'ical_feeds.userId')
    .select(['ical_feeds.id', 'ical_feeds.name', 'ical_feeds.boardIds', 'ical_feeds.userId', 'user.banned'])
    .where('ical_feeds.tokenHash', '=', tokenHash)
    .executeTakeFirst();
}

export async function touchFeed(db: Db, id: string, usedAt: string): Promise<void> {
  await db.updateTable('ical_feeds').set({ lastUsedAt: usedAt }).where('id', '=', id).execute();
}

/**
 * Open dated cards on boards the account can read, assigned to it or on one
 * of `boardIds`: the latest due first, at most `limit`.
 */
export function feedCards(db: Db, userId: string, boardIds: number[], limit: number) {
  return openCardsReadableBy(db, userId)
    .where('cards.dueDate', 'is not', null)
    .where((eb) =>
      eb.or([
        eb.exists(
          eb
            .selectFrom('card_assignees')
            .select('card_assignees.cardId')
            .whereRef('card_assignees.cardId', '=', 'cards.id')
            .where('card_assignees.userId', '=', userId),
        ),
        ...(boardIds.length > 0 ? [eb('cards.boardId', 'in', boardIds)] : []),
      ]),
    )
    .select([
      'cards.id',
      'cards.name',
      'cards.boardId',
      'cards.dueDate',
      'cards.updatedAt',
      'boards.name as boardName',
      'areas.name as areaName',
    ])
    .orderBy('cards.dueDate', 'desc')
    .orderBy('cards.id')
    .limit(limit)
    .execute();
}
