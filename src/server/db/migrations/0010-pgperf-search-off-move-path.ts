import { sql, type Kysely } from 'kysely';
import type { ColumnTypes } from '../dialect.js';

/**
 * PostgreSQL's `cards.search` was a stored generated column, and PostgreSQL
 * computes every stored generated column again on every update of the row:
 * each move (which changes `areaId` and `sort` alone) parsed the card's name
 * and description into a tsvector. It becomes a plain column kept by a
 * trigger that fires only when a statement sets `name` or `content` (as
 * SQLite's `cards_fts_update` does): `DROP EXPRESSION` keeps every stored
 * value, so nothing is recomputed now. The dump carries the function and
 * the trigger (db/dump/dump-postgres.ts).
 */
export async function up(db: Kysely<unknown>, t: ColumnTypes): Promise<void> {
  if (t.dialect !== 'postgres') return;
  await sql`ALTER TABLE cards ALTER COLUMN search DROP EXPRESSION`.execute(db);
  // Name words weigh more than description words in the ranking (as the generated column did).
  await sql`CREATE FUNCTION cards_search_vector() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.search := setweight(to_tsvector('simple', coalesce(NEW.name, '')), 'A')
    || setweight(to_tsvector('simple', coalesce(NEW.content, '')), 'D');
  RETURN NEW;
END
$$`.execute(db);
  await sql`CREATE TRIGGER cards_search BEFORE INSERT OR UPDATE OF name, content ON cards
    FOR EACH ROW EXECUTE FUNCTION cards_search_vector()`.execute(db);
}
