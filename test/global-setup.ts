import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { openDatabase } from '../src/server/db/database.js';
import { migrate } from '../src/server/db/migrations/index.js';
import { projectRoot } from '../src/server/version.js';
import { DONE_MARK, runPrefix } from './databases.js';

/**
 * Runs once per `vitest run`, in the main process, before the test files
 * (which inherit the variables it sets):
 *
 * - migrates one SQLite file and one PostgreSQL database as templates, which
 *   test/databases.ts copies for every suite instead of migrating each anew
 *   (`CREATE DATABASE … TEMPLATE` takes a fraction of the migrations' time);
 * - drops the run's PostgreSQL databases as their suites mark them done
 *   (a DROP DATABASE waits for a checkpoint, which no test should wait for),
 *   and the rest at the end.
 */
const LEFTOVERS_AFTER_HOURS = 6;

export default async function setUpTestDatabases(): Promise<() => Promise<void>> {
  const started = Math.floor(Date.now() / 1000);
  const run = `r${started.toString(36)}${randomBytes(2).toString('hex')}`;
  process.env.TAVLA_TEST_RUN = run;

  const templateDir = mkdtempSync(path.join(os.tmpdir(), 'tavla-template-'));
  const sqliteFile = path.join(templateDir, 'tavla.db');
  const server = process.env.TEST_DATABASE_URL;
  const pgTemplate = `${runPrefix(run)}template`;

  const admin = server ? new pg.Pool({ connectionString: server, max: 4 }) : null;
  const names = async (where: string, ...values: unknown[]) =>
    (await admin!.query<{ datname: string }>(`SELECT datname FROM pg_database d ${where}`, values)).rows.map((r) => r.datname);
  const drop = (name: string) => admin!.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);

  await Promise.all([
    migrated(`sqlite://${sqliteFile}`),
    (async () => {
      if (!admin) return;
      await dropLeftovers(names, drop, started);
      await admin.query(`CREATE DATABASE ${pgTemplate}`);
      const url = new URL(server!);
      url.pathname = `/${pgTemplate}`;
      await migrated(url.toString());
    })(),
  ]);
  // Private, as the service's umask makes its own database: every copy keeps the mode.
  chmodSync(sqliteFile, 0o600);
  process.env.TAVLA_TEST_SQLITE_TEMPLATE = sqliteFile;
  if (admin) process.env.TAVLA_TEST_PG_TEMPLATE = pgTemplate;

  // One at a time, in the background, the databases whose suites have finished.
  let sweeping: Promise<void> = Promise.resolve();
  const sweep = async () => {
    const done = await names(
      `JOIN pg_shdescription s ON s.objoid = d.oid AND s.classoid = 'pg_database'::regclass
       WHERE d.datname LIKE $1 AND s.description = $2`,
      `${runPrefix(run)}%`,
      DONE_MARK,
    );
    for (const name of done) await drop(name);
  };
  let busy = false;
  const timer = admin
    ? setInterval(() => {
        if (busy) return;
        busy = true;
        sweeping = sweep()
          .catch((error: Error) => console.warn(`dropping finished test databases: ${error.message}`))
          .finally(() => (busy = false));
      }, 1000)
    : null;

  return async () => {
    if (timer) clearInterval(timer);
    await sweeping;
    if (admin) {
      const rest = await names('WHERE d.datname LIKE $1', `${runPrefix(run)}%`);
      await admin.end();
      // Dropped by a process of their own, so that the run ends now rather than after their checkpoints.
      if (rest.length > 0) dropInBackground(server!, rest);
    }
    rmSync(templateDir, { recursive: true, force: true });
  };
}

function dropInBackground(server: string, databases: string[]): void {
  const script = `
    const pg = require('pg');
    const pool = new pg.Pool({ connectionString: process.env.SERVER, max: 4 });
    Promise.all(JSON.parse(process.env.DATABASES).map((name) => pool.query('DROP DATABASE IF EXISTS ' + name + ' WITH (FORCE)')))
      .catch((error) => console.warn('dropping test databases: ' + error.message))
      .finally(() => pool.end());`;
  spawn(process.execPath, ['-e', script], {
    cwd: projectRoot,
    detached: true,
    stdio: 'ignore',
    env: { ...process.env, SERVER: server, DATABASES: JSON.stringify(databases) },
  }).unref();
}

async function migrated(url: string): Promise<void> {
  const database = openDatabase(url, {});
  try {
    await migrate(database.db, database.dialect);
  } finally {
    await database.close();
  }
}

/** Databases of runs that started hours ago and never finished (killed): their names say when. */
async function dropLeftovers(
  names: (where: string, ...values: unknown[]) => Promise<string[]>,
  drop: (name: string) => Promise<unknown>,
  now: number,
): Promise<void> {
  const all = await names(`WHERE d.datname LIKE 'tavla\\_test\\_r%'`);
  for (const name of all) {
    const stamp = /^tavla_test_r([0-9a-z]+?)[0-9a-f]{4}_/.exec(name)?.[1];
    if (stamp && now - parseInt(stamp, 36) > LEFTOVERS_AFTER_HOURS * 3600) await drop(name);
  }
}
