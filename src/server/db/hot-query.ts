import { CompiledQuery, type Compilable, type RawBuilder } from 'kysely';
import type { Db } from './database.js';

/** Where each parameter of the compiled SQL comes from: an argument (by index), or a constant of the query. */
type Slot = { arg: number } | { value: unknown };

/**
 * A query on a hot path, built by Kysely once per dialect and then run as
 * the same SQL with new parameters: building a query costs as much as running
 * a small one, and on a write path it is paid while the batch holds the
 * board. The builder must use its arguments only as parameters (any number
 * of times each), so that the SQL text is the same whatever they are:
 * checked on the first build, which is done with markers in place of the
 * arguments and again with the arguments themselves.
 */
export function hotQuery<A extends unknown[], R>(build: (db: Db, ...args: A) => Compilable<R> | RawBuilder<R>): HotQuery<A, R> {
  // Keyed by the dialect's adapter, which a database and its transactions share: the SQL depends on the dialect only.
  const compiled = new WeakMap<object, { sql: string; slots: Slot[] }>();
  const compileFor = (db: Db, args: A): CompiledQuery<R> => {
    const dialect = db.getExecutor().adapter;
    let plan = compiled.get(dialect);
    if (plan === undefined) {
      compiled.set(dialect, (plan = planOf(db, build, args)));
    }
    const parameters = plan.slots.map((slot) => ('arg' in slot ? args[slot.arg] : slot.value));
    return CompiledQuery.raw(plan.sql, parameters);
  };
  const run = async (db: Db, ...args: A) => (await db.executeQuery<R>(compileFor(db, args))).rows;
  return Object.assign(run, { compiled: (db: Db, ...args: A) => compileFor(db, args) });
}

/** A hot query: run it, or take its compiled statement to send with others (`Dialect.pipeline`). */
export interface HotQuery<A extends unknown[], R> {
  (db: Db, ...args: A): Promise<R[]>;
  compiled(db: Db, ...args: A): CompiledQuery<R>;
}

function planOf<A extends unknown[], R>(
  db: Db,
  build: (db: Db, ...args: A) => Compilable<R> | RawBuilder<R>,
  args: A,
): { sql: string; slots: Slot[] } {
  const marks = args.map((_, i) => `\u0000hot-query-argument-${i}`);
  const probe = compile(build(db, ...(marks as unknown as A)), db);
  const slots: Slot[] = probe.parameters.map((p) => {
    const arg = typeof p === 'string' ? marks.indexOf(p) : -1;
    return arg >= 0 ? { arg } : { value: p };
  });
  const real = compile(build(db, ...args), db);
  const same =
    real.sql === probe.sql &&
    real.parameters.length === slots.length &&
    real.parameters.every((p, i) => {
      const slot = slots[i]!;
      return p === ('arg' in slot ? args[slot.arg] : slot.value);
    });
  if (!same) throw new Error(`hotQuery: ${real.sql} does not use its arguments only as parameters`);
  return { sql: probe.sql, slots };
}

/** A raw `sql` template compiles against a database; a query builder knows its own. */
function compile<R>(query: Compilable<R> | RawBuilder<R>, db: Db): CompiledQuery<R> {
  return (query as { compile(db: Db): CompiledQuery<R> }).compile(db);
}
