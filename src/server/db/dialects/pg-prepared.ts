import { createHash } from 'node:crypto';
import pg from 'pg';
import { AHEAD, LATER, SETTLE } from '../ahead.js';

/** Statements one connection keeps prepared at most; past that, new texts go unprepared (bounded server memory). */
const MAX_PER_CONNECTION = 300;
/** Only plain data statements with parameters: utility statements (savepoints, SET, DECLARE) gain nothing. */
const PREPARABLE = /^\s*(select|insert|update|delete|with)\b/i;

/** Kysely's own BEGIN rides ahead too (see `AHEAD`): the transaction's first statement follows it. */
const BEGIN = /^begin$/i;

const names = new Map<string, string>();

/** A name per statement text, the same on every connection (PostgreSQL cuts names at 63 bytes, so a hash). */
function nameOf(text: string): string {
  let name = names.get(text);
  if (name === undefined) {
    if (names.size >= 5_000) names.clear();
    name = `t_${createHash('sha1').update(text).digest('base64url')}`;
    names.set(text, name);
  }
  return name;
}

/**
 * The pool's client, in pg's pipeline mode: a statement is sent without
 * waiting for the answer to the one before.
 *
 * - Each statement is prepared once per connection and then only bound and
 *   run. Kysely sends every query unnamed, so PostgreSQL parsed and planned
 *   each one anew: for a move's facts query, planning took three times as
 *   long as running it. The text decides the name, so a statement is the
 *   same prepared one for every request on that connection.
 * - BEGIN and statements ending in `AHEAD` (db/ahead.ts) answer at once.
 *   Each cost a round trip: a batch of writes locks its board, opens a
 *   savepoint per write, and announces and stores its events, and nobody
 *   reads the answers. Should one fail after all, the statement behind it
 *   fails with that error; in a transaction one always follows.
 * - Statements ending in `LATER` are held as those sent ahead are, but
 *   answer with their own answer (their caller reads it later).
 * - `SETTLE` is answered here, never sent: it waits for what went ahead.
 */
export class PreparingClient extends pg.Client {
  private readonly prepared = new Set<string>();
  /** The error of the statement sent ahead, or undefined once it succeeded, until the next statement takes it. */
  private ahead: Promise<Error | undefined> | null = null;
  #held = false;

  constructor(config?: pg.ClientConfig) {
    super({ ...config, pipeline: true });
  }

  // The overloads of pg.Client#query are many; this forwards whatever it is given.
  override query(...args: unknown[]): never {
    const [text] = args;
    if (typeof text === 'string' && args.length <= 2 && (text.endsWith(AHEAD) || BEGIN.test(text))) {
      this.#hold();
      const sent = this.#send(args).then(
        () => undefined,
        (error: unknown) => error as Error,
      );
      const before = this.ahead;
      this.ahead = before ? Promise.all([before, sent]).then(([a, b]) => a ?? b) : sent;
      return Promise.resolve(answered('AHEAD')) as never;
    }
    // `SETTLE` (db/ahead.ts) is answered here, never sent: like any statement, once what went ahead has answered.
    const answer = text === SETTLE ? Promise.resolve(answered('SETTLE')) : this.#send(args);
    // `LATER` (db/ahead.ts): its caller does not wait for it now, so it leaves with the next statement that waits.
    if (typeof text === 'string' && text.endsWith(LATER)) this.#hold();
    else this.#release();
    const ahead = this.ahead;
    if (!ahead || !(answer instanceof Promise)) return answer as never;
    this.ahead = null;
    // The statement sent ahead failed first: its error is the one that explains this one's.
    return answer.then(
      async (result) => {
        const error = await ahead;
        if (error !== undefined) throw error;
        return result;
      },
      async (error: unknown) => {
        throw (await ahead) ?? error;
      },
    ) as never;
  }

  /**
   * Keeps what goes ahead in the socket's buffer until the statement behind
   * it is written: they leave in one write. Each write to the socket is a
   * system call that wakes the server, and it cost more than the statement's
   * own JavaScript. A statement that waits for its answer is never held: it
   * leaves at once, and takes what was held with it.
   */
  #hold(): void {
    if (this.#held) return;
    this.#held = true;
    this.connection.stream.cork();
    // What nothing follows still leaves at the end of this turn of the event loop.
    setImmediate(() => this.#release());
  }

  #release(): void {
    if (!this.#held) return;
    this.#held = false;
    this.connection.stream.uncork();
  }

  /** Sends a data statement with parameters prepared under its name (once per connection, up to the limit), anything else as it is. */
  #send(args: unknown[]): Promise<unknown> {
    const [text, values, ...rest] = args;
    if (typeof text === 'string' && Array.isArray(values) && values.length > 0 && PREPARABLE.test(text)) {
      const name = nameOf(text);
      if (this.prepared.has(name) || this.prepared.size < MAX_PER_CONNECTION) {
        this.prepared.add(name);
        return super.query({ name, text, values }, ...(rest as [])) as Promise<unknown>;
      }
    }
    return super.query(...(args as [string])) as Promise<unknown>;
  }
}

/** The answer of a statement answered without the server's: no rows. */
function answered(command: string): pg.QueryResult {
  return { command, rowCount: null, rows: [], fields: [], oid: 0 };
}
