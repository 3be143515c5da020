import { sql } from 'kysely';
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
 * prefix), on boards the caller owns or is a member of, best matches first.
 * Archived cards, cards of archived areas and of archived boards never appear.
 */
export async function searchCards(deps: Pick<Deps, 'database'>, actor: Actor, q: string): Promise<SearchHit[]> {
  const terms = searchTerms(q);
  if (terms.length === 0) return [];
  const { db, dialect } = deps.database;

  const visible = db
    .selectFrom('cards')
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
    .limit(LIMIT);

  if (dialect === 'postgres') {
    const query = terms.map((t) => `${t}:*`).join(' & ');
    return visible
      .where(sql<boolean>`cards.search @@ to_tsquery('simple', ${query})`)
      .orderBy(sql`ts_rank(cards.search, to_tsquery('simple', ${query}))`, 'desc')
      .orderBy('cards.id', 'desc')
      .execute();
  }
  // FTS5: every term quoted (so it is a plain word) and prefix-matched; a name hit weighs ten times a description hit.
  // CROSS JOIN keeps the index first: SQLite then looks up only the matching cards instead of scanning them all.
  const match = terms.map((t) => `"${t}"*`).join(' ');
  const { rows } = await sql<SearchHit>`
    SELECT cards.id, cards.name, cards."boardId", boards.name AS "boardName", areas.name AS "areaName"
    FROM cards_fts
    CROSS JOIN cards ON cards.id = cards_fts.rowid
    JOIN areas ON areas.id = cards."areaId"
    JOIN boards ON boards.id = cards."boardId"
    WHERE cards_fts MATCH ${match}
      AND cards."archivedAt" IS NULL AND areas."archivedAt" IS NULL AND boards."archivedAt" IS NULL
      AND (boards."ownerId" = ${actor.id}
        OR EXISTS (SELECT 1 FROM board_members WHERE board_members."boardId" = boards.id AND board_members."userId" = ${actor.id}))
    ORDER BY bm25(cards_fts, 10.0, 1.0), cards.id DESC
    LIMIT ${LIMIT}`.execute(db);
  return rows;
}
