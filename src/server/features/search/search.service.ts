import type { Actor } from '../../auth/actor.js';
import type { SearchHit } from '../../../shared/api/search.js';
import type { Deps } from '../../deps.js';
import { findCards } from './search.repository.js';

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
  return findCards(deps.database, actor.id, terms, LIMIT);
}
