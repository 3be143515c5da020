import { randomBytes } from 'node:crypto';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';

export type DbKind = 'sqlite' | 'postgres';

/** The database one benchmark run uses: fresh, and removed again at the end. */
export interface BenchDatabase {
  kind: DbKind;
  /** `DATABASE_URL` for the server; undefined = the default SQLite file in `DATA_DIR`. */
  url: string | undefined;
  /** What to print: the file or the database name (never a password). */
  label: string;
  /**
   * Runs a read-only query straight on the database (not through the server).
   * For SQLite call it only after the server stopped.
   */
  query<T extends object>(statement: string): Promise<T[]>;
  /** Drops the PostgreSQL database (with its connections); nothing to do for SQLite. */
  drop(): Promise<void>;
}

const DEFAULT_POSTGRES = 'postgres://postgres@127.0.0.1:5432/postgres';

/** The PostgreSQL server the bench creates its database on. */
export function postgresServerUrl(): string {
  return process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL || DEFAULT_POSTGRES;
}

export async function createBenchDatabase(kind: DbKind, dataDir: string): Promise<BenchDatabase> {
  if (kind === 'sqlite') {
    const file = path.join(dataDir, 'tavla.db');
    return {
      kind,
      url: undefined,
      label: file,
      query: <T extends object>(statement: string) => {
        // Read-write open so that SQLite can replay a WAL left behind; we only read.
        const sqlite = new SQLite(file, { fileMustExist: true });
        try {
          return Promise.resolve(sqlite.prepare(statement).all() as T[]);
        } finally {
          sqlite.close();
        }
      },
      drop: () => Promise.resolve(),
    };
  }

  const server = postgresServerUrl();
  const name = `tavla_bench_${randomBytes(6).toString('hex')}`;
  await adminQuery(server, `CREATE DATABASE ${name}`);
  const url = new URL(server);
  url.pathname = `/${name}`;
  const label = `${name} on ${url.host}`;
  let dropped = false;
  return {
    kind,
    url: url.toString(),
    label,
    query: async <T extends object>(statement: string) => {
      const client = new pg.Client({ connectionString: url.toString(), connectionTimeoutMillis: 10_000 });
      await client.connect();
      try {
        return (await client.query(statement)).rows as T[];
      } finally {
        await client.end();
      }
    },
    drop: async () => {
      if (dropped) return;
      dropped = true;
      await adminQuery(server, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}

async function adminQuery(server: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: server, connectionTimeoutMillis: 10_000 });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}
