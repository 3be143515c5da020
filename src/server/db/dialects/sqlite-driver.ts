import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';

/**
 * better-sqlite3 in the line that runs on this Node. Its 13 line (Node-API,
 * one prebuilt binary) is the only one that survives Node 24 — the 12 line
 * aborts there when a statement is collected — but it crashes on Node 20, which
 * the project still supports, so Node 20 loads the 12 line installed under an
 * alias (an optional dependency, compiled by `npm ci`).
 */
export const SQLITE_PACKAGE = Number(process.versions.node.split('.')[0]) >= 22 ? 'better-sqlite3' : 'better-sqlite3-node20';

const require = createRequire(import.meta.url);

function load(): typeof BetterSqlite3 {
  try {
    return require(SQLITE_PACKAGE) as typeof BetterSqlite3;
  } catch (error) {
    throw new Error(
      `SQLite driver ${SQLITE_PACKAGE} could not be loaded on Node ${process.versions.node} (run \`npm ci\` with this Node): ${(error as Error).message}`,
    );
  }
}

export const SQLite: typeof BetterSqlite3 = load();
export type SQLiteDatabase = BetterSqlite3.Database;
