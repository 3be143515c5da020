import type { Api } from './api.js';
import type { BenchDatabase, DbKind } from './database.js';
import type { LoadResult } from './load.js';

/** A performance target. Missing one is reported, never fatal: a benchmark measures, it does not test. */
export interface Budget {
  /** e.g. `requests/s`, `p99` */
  label: string;
  /** `min`: the measure must be at least `limit`; `max`: strictly below it. */
  kind: 'min' | 'max';
  limit: number;
  unit: 'req/s' | 'ms' | 'MiB' | '×';
  measure(result: LoadResult): number;
}

export const minRequestsPerSecond = (limit: number): Budget => ({
  label: 'requests/s',
  kind: 'min',
  limit,
  unit: 'req/s',
  measure: (r) => r.requestsPerSecond,
});

export const maxP99 = (limitMs: number): Budget => ({
  label: 'latency p99',
  kind: 'max',
  limit: limitMs,
  unit: 'ms',
  measure: (r) => r.latency.p99,
});

/** A correctness check. A failed one makes the run exit non-zero. */
export interface Check {
  name: string;
  ok: boolean;
  /** What was found (always printed; the evidence when `ok` is false). */
  detail: string;
}

export interface ScenarioContext {
  api: Api;
  /** The run's database, for scenarios that seed more than the API would in reasonable time. */
  database: BenchDatabase;
  baseUrl: string;
  /** The server's DATA_DIR (scenarios that start more processes share it). */
  dataDir: string;
  /** The server process (for scenarios that read its figures from /proc). */
  serverPid: number;
  db: DbKind;
  connections: number;
  seconds: number;
  log: (message: string) => void;
}

/**
 * One benchmark scenario. The runner starts a fresh server on a fresh
 * database, then calls `seed` → `run` → `verify` (server still up) → stops the
 * server → `verifyStored` (straight on the database), and prints the load
 * figures against `budgets` and the checks.
 */
export interface Scenario<Seed> {
  name: string;
  /** One line for `--help` and the report. */
  summary: string;
  /** `seedSeconds`: how much longer than the others its seeding may take before the watchdog stops the run. */
  defaults: { connections: number; seconds: number; seedSeconds?: number };
  /** The same for both databases, or each its own (the issue sets PostgreSQL's apart for some). */
  budgets: Budget[] | Record<DbKind, Budget[]>;
  /** Creates the data through the HTTP API. */
  seed(ctx: ScenarioContext): Promise<Seed>;
  /** Puts the load on the server (a fixed duration), usually one `runLoad`. */
  run(ctx: ScenarioContext, seed: Seed): Promise<LoadResult>;
  /** Checks through the API after the load, while the server still runs. */
  verify?(ctx: ScenarioContext, seed: Seed, result: LoadResult): Promise<Check[]>;
  /** Checks straight on the database, once the server has stopped. */
  verifyStored?(database: BenchDatabase, seed: Seed): Promise<Check[]>;
}

/** The budgets a run on `db` is judged by. */
export function budgetsFor(scenario: Pick<Scenario<unknown>, 'budgets'>, db: DbKind): Budget[] {
  return Array.isArray(scenario.budgets) ? scenario.budgets : scenario.budgets[db];
}

export function check(name: string, ok: boolean, detail: string): Check {
  return { name, ok, detail };
}

/** Whether these sorts, in list order, are exactly 0..n-1; if not, where it first goes wrong. */
export function sortsProblem(sorts: readonly number[]): string | null {
  for (let i = 0; i < sorts.length; i++) {
    if (sorts[i] !== i) return `position ${i} has sort ${sorts[i]} (sorts ${preview(sorts)})`;
  }
  return null;
}

/**
 * Stored card sorts are keys with gaps (a move writes one row), so what must
 * hold in storage is that an area's keys are distinct: `keys` sorted ascending.
 */
export function keysProblem(keys: readonly number[]): string | null {
  for (let i = 1; i < keys.length; i++) {
    if (keys[i] === keys[i - 1]) return `two cards share the key ${keys[i]} (keys ${preview(keys)})`;
  }
  return null;
}

/** The first few and last few values, for messages. */
export function preview(values: readonly unknown[], edge = 6): string {
  if (values.length <= edge * 2) return `[${values.join(', ')}]`;
  return `[${values.slice(0, edge).join(', ')}, …, ${values.slice(-edge).join(', ')}] (${values.length})`;
}
