import { sql } from 'kysely';
import { joinedBy, joinedBySql } from '../../access/audience.js';
import type { Database } from '../../db/database.js';
import type { SearchHit } from '../../../shared/api/search.js';

/**
 * Cards holding every term (each as a word prefix) on boards the account
 * has joined, none archived (nor its area or board), best matches first.
 */
export async function findCards(database: Database, actorId: string, terms: string[], limit: number): Promise<SearchHit[]> {
  const { db, dialect } = database;

  const visible = db
    .selectFrom('cards')
    .innerJoin('areas', 'areas.id', 'cards.areaId')
    .innerJoin('boards', 'boards.id', 'cards.boardId')
    .select(['cards.id', 'cards.name', 'cards.boardId', 'boards.name as boardName', 'areas.name as areaName'])
    .where('cards.archivedAt', 'is', null)
    .where('areas.archivedAt', 'is', null)
    .where('boards.archivedAt', 'is', null)
    .where((eb) => joinedBy(eb, actorId))
    .limit(limit);

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
      AND ${joinedBySql(actorId)}
    ORDER BY bm25(cards_fts, 10.0, 1.0), cards.id DESC
    LIMIT ${limit}`.execute(db);
  return rows;
}
