import { sql } from 'kysely';

/**
 * Ends a statement that may be sent ahead: one whose answer nobody reads,
 * inside a transaction (which always ends with another statement on the
 * same connection, if only the COMMIT). On PostgreSQL it goes on the wire at
 * once and its caller goes on without waiting; should it fail, the next
 * statement fails with its error (db/dialects/pg-prepared.ts). Elsewhere it
 * is only a comment, and the statement runs as any other.
 */
export const AHEAD = ' /* ahead */';

/** `AHEAD` for a query builder's `modifyEnd` or a `sql` template. */
export const ahead = sql.raw(AHEAD);

/**
 * Not a statement: on PostgreSQL the pool's client answers it itself, at
 * once when nothing was sent ahead since the last answer, else once those
 * statements have answered, with the first one's error. Never sent to the
 * server. `Dialect.settle` uses it.
 */
export const SETTLE = '/* settle */';
