import type { Actor } from '../../auth/actor.js';
import type { SearchHit } from '../../../shared/api/search.js';
import type { Deps } from '../../deps.js';

const MAX_TERMS = 8;
const LIMIT = 50;

/** The words of a query: letters and digits only, so nothing reaches the index's own query syntax. */
export function searchTerms(q: string): string[] {
  return (q.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).slice(0, MAX_TERMS);
}

/**
 * Cards whose name or description holds every word of `q` (each as a word
 * prefix; a name hit weighs more), on boards the caller owns or is a member
 * of, best matches first (the database's full-text index finds and ranks them).
 * Archived cards, cards of archived areas and of archived boards never appear.
 */
export async function searchCards(deps: Pick<Deps, 'database'>, actor: Actor, q: string): Promise<SearchHit[]> {
  const terms = searchTerms(q);
  if (terms.length === 0) return [];
  const { db, dialect } = deps.database;
  return db
    .selectFrom(dialect.cardHits(db, terms).as('hits'))
    .innerJoin('cards', 'cards.id', 'hits.id')
    .innerJoin('areas', 'areas.id', 'cards.areaId')
    .innerJoin('boards', 'boards.id', 'cards.boardId')
    .select(['cards.id', 'cards.name', 'cards.boardId', 'boards.name as boardName', 'areas.name as areaName'])
    .where('cards.archivedAt', 'is', null)
    .where('areas.archivedAt', 'is', null)
    .where('boards.archivedAt', 'is', null)
    .where((eb) =>
      eb.or([
        eb('boards.ownerId', '=', actor.id),
        eb.exists(
          eb
            .selectFrom('board_members')
            .select('board_members.id')
            .whereRef('board_members.boardId', '=', 'boards.id')
            .where('board_members.userId', '=', actor.id),
        ),
      ]),
    )
    .orderBy('hits.rank')
    .orderBy('cards.id', 'desc')
    .limit(LIMIT)
    .execute();
}
