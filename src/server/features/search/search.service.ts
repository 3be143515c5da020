import type { Actor } from '../../auth/actor.js';
import type { SearchHit } from '../../../shared/api/search.js';
import type { Deps } from '../../deps.js';
import { findCards, findCardsByTextFields } from './search.repository.js';
import { fieldValuesOf } from '../fields/fields.service.js';

const MAX_TERMS = 8;
const LIMIT = 50;

/** The words of a query: letters and digits only, so nothing reaches the index's own query syntax. */
export function searchTerms(q: string): string[] {
  return (q.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).slice(0, MAX_TERMS);
}

/**
 * Cards whose name or description holds every word of `q` (each as a word
 * prefix; a name hit weighs more), on boards the caller owns or is a member
 * of, best matches first (the database's full-text index finds and ranks them);
 * then cards whose text custom fields hold every word.
 * Archived cards, cards of archived areas and of archived boards never appear.
 */
export async function searchCards(deps: Pick<Deps, 'database'>, actor: Actor, q: string): Promise<SearchHit[]> {
  const terms = searchTerms(q);
  if (terms.length === 0) return [];
  const byText = await findCards(deps.database, actor.id, terms, LIMIT);
  const seen = new Set(byText.map((h) => h.id));
  const byFields =
    byText.length < LIMIT
      ? (await findCardsByTextFields(deps.database.db, actor.id, terms, LIMIT)).filter((h) => !seen.has(h.id))
      : [];
  const hits = [...byText, ...byFields].slice(0, LIMIT);
  const fields = await fieldValuesOf(
    deps.database.db,
    hits.map((h) => h.id),
  );
  return hits.map((h) => ({ ...h, fields: fields.get(h.id) ?? {} }));
}
