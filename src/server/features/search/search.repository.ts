import { joinedBy } from '../../access/index.js';
import type { Database } from '../../db/database.js';
import type { SearchHit } from '../../../shared/api/search.js';

/**
 * Cards holding every term (each as a word prefix) on boards the account
 * has joined, none archived (nor its area or board), best matches first.
 */
export async function findCards(database: Database, actorId: string, terms: string[], limit: number): Promise<SearchHit[]> {
  const { db, dialect } = database;
  return db
    .selectFrom(dialect.cardHits(db, terms).as('hits'))
    .innerJoin('cards', 'cards.id', 'hits.id')
    .innerJoin('areas', 'areas.id', 'cards.areaId')
    .innerJoin('boards', 'boards.id', 'cards.boardId')
    .select(['cards.id', 'cards.name', 'cards.boardId', 'boards.name as boardName', 'areas.name as areaName'])
    .where('cards.archivedAt', 'is', null)
    .where('areas.archivedAt', 'is', null)
    .where('boards.archivedAt', 'is', null)
    .where((eb) => joinedBy(eb, actorId))
    .orderBy('hits.rank')
    .orderBy('cards.id', 'desc')
    .limit(limit)
    .execute();
}
