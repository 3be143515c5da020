import { randomBytes } from 'node:crypto';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { DialectName } from '../src/server/db/dialect.js';

/**
 * SQLite always; PostgreSQL too when TEST_DATABASE_URL names a server (any
 * database on it: each test suite makes its own, dropped once it is done).
 */
export const dialects: DialectName[] = process.env.TEST_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];

if (process.env.CI && !process.env.TEST_DATABASE_URL) {
  throw new Error('CI must test PostgreSQL too: set TEST_DATABASE_URL');
}

export interface TestDatabase {
  url: string;
  dataDir: string;
  drop: () => Promise<void>;
}

/**
 * Set by test/global-setup.ts for one `vitest run`: the run's name (in its
 * PostgreSQL databases' names) and its migrated templates. Without them (a
 * script outside Vitest) every database is made empty and dropped at once.
 */
const runSettings = () => ({
  run: process.env.TAVLA_TEST_RUN,
  pgTemplate: process.env.TAVLA_TEST_PG_TEMPLATE,
  sqliteTemplate: process.env.TAVLA_TEST_SQLITE_TEMPLATE,
});

/** What a finished database of a run is marked with; the run's global set-up drops it (test/global-setup.ts). */
export const DONE_MARK = 'tavla test: done';

/** `tavla_test_<run>_` for a run's databases (its templates included), so that its set-up drops only its own. */
export function runPrefix(name: string): string {
  return `tavla_test_${name}_`;
}

/**
 * A fresh database and data folder. `migrated`: with the schema already in
 * place, cloned from the run's template (which the global set-up migrated
 * through the same `migrate`); the caller still runs `migrate`, which then
 * finds nothing to do. Without it (or outside a run) the database is empty.
 */
export async function createTestDatabase(dialect: DialectName, { migrated = false } = {}): Promise<TestDatabase> {
  const { run, pgTemplate, sqliteTemplate } = runSettings();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tavla-test-'));
  const removeDir = () => rmSync(dataDir, { recursive: true, force: true });
  if (dialect === 'sqlite') {
    const file = path.join(dataDir, 'tavla.db');
    if (migrated && sqliteTemplate) copyFileSync(sqliteTemplate, file);
    return { url: `sqlite://${file}`, dataDir, drop: () => Promise.resolve(removeDir()) };
  }
  const server = process.env.TEST_DATABASE_URL!;
  const name = `${run ? runPrefix(run) : 'tavla_test_'}${randomBytes(6).toString('hex')}`;
  await adminQuery(server, `CREATE DATABASE ${name}${migrated && pgTemplate ? ` TEMPLATE ${pgTemplate}` : ''}`);
  const url = new URL(server);
  url.pathname = `/${name}`;
  let dropped = false;
  return {
    url: url.toString(),
    dataDir,
    drop: async () => {
      if (dropped) return;
      dropped = true;
      // Dropping waits for a checkpoint (a second or two): within a run the
      // database is only marked, and the run's set-up drops it meanwhile.
      if (run) await adminQuery(server, `COMMENT ON DATABASE ${name} IS '${DONE_MARK}'`);
      else await adminQuery(server, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      removeDir();
    },
  };
}

export async function adminQuery(server: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: server });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}
