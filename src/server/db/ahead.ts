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
 * Ends a statement whose answer its caller reads later: on PostgreSQL it
 * waits in the socket's buffer, as one sent ahead does, and leaves with the
 * next statement that waits (one write to the socket, no round trip of its
 * own), but its promise is its answer (and takes the error of what went
 * ahead of it). Elsewhere only a comment.
 */
export const LATER = ' /* later */';

/** `LATER` for a query builder's `modifyEnd` or a `sql` template. */
export const later = sql.raw(LATER);

/**
 * Not a statement: on PostgreSQL the pool's client answers it itself, at
 * once when nothing was sent ahead since the last answer, else once those
 * statements have answered, with the first one's error. Never sent to the
 * server. `Dialect.settle` uses it.
 */
export const SETTLE = '/* settle */';
