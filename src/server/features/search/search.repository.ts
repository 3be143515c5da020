import { sql } from 'kysely';
import { joinedBy } from '../../access/index.js';
import type { Database, Db } from '../../db/database.js';
import type { SearchHit } from '../../../shared/api/search.js';

/**
 * Cards holding every term (each as a word prefix) on boards the account
 * has joined, none archived (nor its area or board), best matches first.
 */
export async function findCards(
  database: Database,
  actorId: string,
  terms: string[],
  limit: number,
): Promise<Array<Omit<SearchHit, 'fields'>>> {
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

/**
 * Cards (as `findCards` limits them) with text custom field values that hold
 * every term, each at the start of a word of a value (values are stored as
 * JSON strings, so a value's first word follows its opening quote), newest first.
 */
export async function findCardsByTextFields(
  db: Db,
  actorId: string,
  terms: string[],
  limit: number,
): Promise<Array<Omit<SearchHit, 'fields'>>> {
  return db
    .selectFrom('cards')
    .innerJoin('areas', 'areas.id', 'cards.areaId')
    .innerJoin('boards', 'boards.id', 'cards.boardId')
    .select(['cards.id', 'cards.name', 'cards.boardId', 'boards.name as boardName', 'areas.name as areaName'])
    .where('cards.archivedAt', 'is', null)
    .where('areas.archivedAt', 'is', null)
    .where('boards.archivedAt', 'is', null)
    .where((eb) => joinedBy(eb, actorId))
    .where((eb) =>
      eb.and(
        terms.map((term) =>
          eb.exists(
            eb
              .selectFrom('card_field_values as v')
              .innerJoin('custom_fields as f', 'f.id', 'v.fieldId')
              .select('v.cardId')
              .whereRef('v.cardId', '=', 'cards.id')
              .where('f.type', '=', 'text')
              // The terms are letters and digits only (`searchTerms`): nothing in them is a LIKE wildcard.
              .where((w) =>
                w.or([w(sql<string>`lower(v.value)`, 'like', `"${term}%`), w(sql<string>`lower(v.value)`, 'like', `% ${term}%`)]),
              ),
          ),
        ),
      ),
    )
    .orderBy('cards.id', 'desc')
    .limit(limit)
    .execute();
}
