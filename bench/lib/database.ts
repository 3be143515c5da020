import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { SQLite } from '../../src/server/db/dialects/sqlite-driver.js';
import pg from 'pg';
import { processCpuSeconds } from './machine.js';

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
  /**
   * CPU seconds used so far by the database server's processes serving this
   * database (PostgreSQL backends, read from /proc when the server is local);
   * 0 for SQLite (it runs inside the server process); null when not readable.
   */
  cpuSeconds(): Promise<Map<number, number> | null>;
  /**
   * PostgreSQL only (null for SQLite): samples what this database's backends
   * wait on every `everyMs` until `until` settles, then reads the table
   * churn (updates, HOT updates, dead rows). The Node profile cannot show
   * time spent waiting on the database; this does.
   */
  observe(until: Promise<unknown>, everyMs?: number): Promise<DatabaseObservation | null>;
  /** Drops the PostgreSQL database (with its connections); nothing to do for SQLite. */
  drop(): Promise<void>;
}

export interface DatabaseObservation {
  samples: number;
  /** `wait_event_type:wait_event (state)` → backends seen so, summed over samples; largest first. */
  waits: { what: string; count: number }[];
  tables: { table: string; live: number; dead: number; updated: number; hotUpdated: number }[];
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
      cpuSeconds: () => Promise.resolve(new Map()),
      observe: () => Promise.resolve(null),
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
    cpuSeconds: async () => {
      const client = new pg.Client({ connectionString: server, connectionTimeoutMillis: 10_000 });
      await client.connect();
      try {
        const { rows } = await client.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = $1', [name]);
        const cpu = new Map<number, number>();
        for (const { pid } of rows) {
          const seconds = processCpuSeconds(pid);
          if (seconds === null) return null; // not on this machine (or not ours to read)
          cpu.set(pid, seconds);
        }
        return cpu;
      } finally {
        await client.end();
      }
    },
    observe: async (until, everyMs = 100) => {
      const admin = new pg.Client({ connectionString: server, connectionTimeoutMillis: 10_000 });
      await admin.connect();
      const waits = new Map<string, number>();
      let samples = 0;
      let done = false;
      const stop = () => {
        done = true;
      };
      until.then(stop, stop);
      try {
        while (!done) {
          const { rows } = await admin.query<{ what: string }>(
            `SELECT coalesce(wait_event_type || ':' || wait_event, 'running') || ' (' || state || ')' AS what
               FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()`,
            [name],
          );
          samples++;
          for (const { what } of rows) waits.set(what, (waits.get(what) ?? 0) + 1);
          await new Promise((resolve) => setTimeout(resolve, everyMs));
        }
      } finally {
        await admin.end();
      }
      const tables = (
        await (async () => {
          const client = new pg.Client({ connectionString: url.toString(), connectionTimeoutMillis: 10_000 });
          await client.connect();
          try {
            return (
              await client.query<{ table: string; live: string; dead: string; updated: string; hot: string }>(
                `SELECT relname AS table, n_live_tup AS live, n_dead_tup AS dead, n_tup_upd AS updated, n_tup_hot_upd AS hot
                   FROM pg_stat_user_tables ORDER BY n_tup_upd + n_tup_ins DESC LIMIT 5`,
              )
            ).rows;
          } finally {
            await client.end();
          }
        })()
      ).map((r) => ({
        table: r.table,
        live: Number(r.live),
        dead: Number(r.dead),
        updated: Number(r.updated),
        hotUpdated: Number(r.hot),
      }));
      return {
        samples,
        waits: [...waits].map(([what, count]) => ({ what, count })).sort((a, b) => b.count - a.count),
        tables,
      };
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
