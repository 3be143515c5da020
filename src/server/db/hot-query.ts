import { CompiledQuery, type Compilable } from 'kysely';
import type { Db } from './database.js';

/**
 * A query on a hot path, built by Kysely once per dialect and then run as
 * the same SQL with new parameters: building a query costs as much as running
 * a small one. The builder must use each argument exactly once, in order, as a
 * parameter and nothing else (checked on the first build), so the SQL text is
 * the same whatever the arguments.
 */
export function hotQuery<A extends unknown[], R>(
  build: (db: Db, ...args: A) => Compilable<R>,
): (db: Db, ...args: A) => Promise<R[]> {
  // Keyed by the dialect's adapter, which a database and its transactions share: the SQL depends on the dialect only.
  const compiled = new WeakMap<object, string>();
  return async (db, ...args) => {
    const dialect = db.getExecutor().adapter;
    let sql = compiled.get(dialect);
    if (sql === undefined) {
      const query = build(db, ...args).compile();
      const same = query.parameters.length === args.length && query.parameters.every((p, i) => p === args[i]);
      if (!same) throw new Error(`hotQuery: the parameters of ${query.sql} are not exactly its arguments`);
      compiled.set(dialect, (sql = query.sql));
    }
    const result = await db.executeQuery<R>(CompiledQuery.raw(sql, args));
    return result.rows;
  };
}
