import { createHash } from 'node:crypto';
import pg from 'pg';

/** Statements one connection keeps prepared at most; past that, new texts go unprepared (bounded server memory). */
const MAX_PER_CONNECTION = 300;
/** Only plain data statements with parameters: utility statements (savepoints, SET, DECLARE) gain nothing. */
const PREPARABLE = /^\s*(select|insert|update|delete|with)\b/i;

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
 * A client that prepares each statement once per connection and then only
 * binds and runs it. Kysely sends every query unnamed, so PostgreSQL parsed
 * and planned each one anew: for a move's facts query, planning took three
 * times as long as running it. The text decides the name, so a statement is
 * the same prepared one for every request on that connection.
 */
export class PreparingClient extends pg.Client {
  private readonly prepared = new Set<string>();

  // The overloads of pg.Client#query are many; this forwards whatever it is given.
  override query(...args: unknown[]): never {
    const [text, values] = args;
    if (typeof text === 'string' && Array.isArray(values) && values.length > 0 && PREPARABLE.test(text)) {
      const name = nameOf(text);
      if (this.prepared.has(name) || this.prepared.size < MAX_PER_CONNECTION) {
        this.prepared.add(name);
        return (super.query as (...a: unknown[]) => never)({ name, text, values }, ...args.slice(2));
      }
    }
    return (super.query as (...a: unknown[]) => never)(...args);
  }
}
