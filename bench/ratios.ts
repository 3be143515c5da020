/**
 * npm run bench:ratios -- [--runs N] [--seconds N] [--skip scenario,…]
 *
 * Issue 27's budgets are ratios measured in one run on one machine (its
 * speed swings 2.5× between sittings): the bare Node `http` ceiling, and
 * SQLite beside PostgreSQL. This runs, one after the other, `ceiling`, then
 * `read`, `move`, `create`, `mixed` and `idle` on both databases (each
 * through bench/run.ts, as `npm run bench` does), computes every ratio of
 * the issue with PASS / MISS, and repeats that `--runs` times (default 3),
 * judging on the medians. The load average is printed with every round.
 * `idle` measures the built server (`--built`, what `npm start` runs),
 * built once from this checkout before the first round: run from its
 * sources, the server also holds tsx's compiler and every module's
 * TypeScript text (~60 MiB more), which no deployment carries.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { LoadResult } from './lib/load.js';
import { PROJECT_ROOT } from './lib/server.js';

interface Figures {
  scenario: string;
  db: string;
  result: LoadResult;
  peakRssKb: number | null;
  verified: boolean;
  load: number[];
}

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    seconds: { type: 'string', default: '10' },
    skip: { type: 'string', default: '' },
  },
});
const runs = Number(values.runs);
const seconds = Number(values.seconds);
const skip = new Set(values.skip.split(',').filter(Boolean));

const PLAN: Array<[string, 'sqlite' | 'postgres' | null]> = [
  ['ceiling', null],
  ['read', 'sqlite'],
  ['read', 'postgres'],
  ['move', 'sqlite'],
  ['move', 'postgres'],
  ['create', 'sqlite'],
  ['create', 'postgres'],
  ['mixed', 'sqlite'],
  ['mixed', 'postgres'],
  ['idle', 'sqlite'],
  ['idle', 'postgres'],
];

const load = () =>
  os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');

function bench(scenario: string, db: string | null, dir: string): Figures | null {
  const file = path.join(dir, `${scenario}-${db ?? 'none'}.json`);
  const args = ['--import', 'tsx', 'bench/run.ts', scenario, '--json', file];
  if (db) args.push('--db', db);
  if (scenario !== 'create' && scenario !== 'idle') args.push('--seconds', String(seconds));
  if (scenario === 'idle') args.push('--built');
  const run = spawnSync(process.execPath, args, { cwd: PROJECT_ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (run.status !== 0) {
    console.error(
      `[ratios] ${scenario} ${db ?? ''} exited ${run.status}:\n${run.stdout.slice(-3000)}\n${run.stderr.slice(-3000)}`,
    );
  }
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Figures;
  } catch {
    return null;
  }
}

interface Ratio {
  name: string;
  value: number;
  rule: string;
  ok: boolean;
}

function ratios(f: Map<string, Figures>): Ratio[] {
  const get = (key: string) => f.get(key)?.result;
  const ceiling = get('ceiling')?.requestsPerSecond ?? NaN;
  const out: Ratio[] = [];
  const add = (name: string, value: number, rule: string, ok: (v: number) => boolean) =>
    out.push({ name, value, rule, ok: Number.isFinite(value) && ok(value) });
  add('ceiling req/s', ceiling, 'measured', () => true);
  const moveS = get('move-sqlite');
  const moveP = get('move-postgres');
  add('move SQLite / ceiling', (moveS?.requestsPerSecond ?? NaN) / ceiling, '≥ 0.07', (v) => v >= 0.07);
  add('move SQLite p99 ms', moveS?.latency.p99 ?? NaN, '< 25', (v) => v < 25);
  add('move PG / SQLite', (moveP?.requestsPerSecond ?? NaN) / (moveS?.requestsPerSecond ?? NaN), '≥ 0.6', (v) => v >= 0.6);
  add('move PG p99 ms', moveP?.latency.p99 ?? NaN, '< 50', (v) => v < 50);
  const createS = get('create-sqlite')?.seconds ?? NaN;
  const createP = get('create-postgres')?.seconds ?? NaN;
  add('create SQLite s', createS, 'reported', () => true);
  add('create SQLite s × ceiling / 45,000', (createS * ceiling) / 45_000, '≤ 1', (v) => v <= 1);
  add('create PG / SQLite', createP / createS, '≤ 1.5', (v) => v <= 1.5);
  for (const db of ['sqlite', 'postgres']) {
    const label = db === 'sqlite' ? 'SQLite' : 'PG';
    add(`read ${label} / ceiling`, (get(`read-${db}`)?.requestsPerSecond ?? NaN) / ceiling, '≥ 0.22', (v) => v >= 0.22);
    const mixed = get(`mixed-${db}`)?.extra;
    add(`mixed ${label} read p99 / read-only p99`, mixed?.['read p99 ratio'] ?? NaN, '≤ 2', (v) => v <= 2);
    add(`mixed ${label} move p99 ms`, mixed?.['move p99 ms'] ?? NaN, 'reported', () => true);
    add(`idle ${label} MiB`, get(`idle-${db}`)?.extra?.['idle RSS MiB'] ?? NaN, '< 100', (v) => v < 100);
  }
  return out;
}

const fmt = (r: Ratio) => (Math.abs(r.value) >= 100 ? Math.round(r.value).toLocaleString('en-US') : r.value.toFixed(3));

if (!skip.has('idle')) {
  console.error(`[ratios] building the server and the web app for idle (npm run build; load ${load()})`);
  const built = spawnSync('npm', ['run', 'build'], { cwd: PROJECT_ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (built.status !== 0) {
    console.error(`[ratios] npm run build exited ${built.status}:\n${built.stdout.slice(-3000)}\n${built.stderr.slice(-3000)}`);
    process.exit(2);
  }
}

const rounds: Ratio[][] = [];
for (let round = 1; round <= runs; round++) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tavla-ratios-'));
  const figures = new Map<string, Figures>();
  try {
    for (const [scenario, db] of PLAN) {
      if (skip.has(scenario)) continue;
      console.error(`[ratios] round ${round}: ${scenario}${db ? ` on ${db}` : ''} (load ${load()})`);
      const f = bench(scenario, db, dir);
      if (f) figures.set(db ? `${scenario}-${db}` : scenario, f);
      if (f && !f.verified) console.error(`[ratios] ${scenario} ${db}: VERIFICATION FAILED`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const r = ratios(figures);
  rounds.push(r);
  console.log(`\n== round ${round} of ${runs} (load average ${load()})`);
  for (const x of r) console.log(`  ${x.name.padEnd(38)} ${fmt(x).padStart(10)}  ${x.rule.padEnd(28)} ${x.ok ? 'PASS' : 'MISS'}`);
}

if (rounds.length > 1) {
  console.log(`\n== medians of ${rounds.length} rounds`);
  for (const [i, first] of rounds[0]!.entries()) {
    const values = rounds
      .map((r) => r[i]!.value)
      .filter(Number.isFinite)
      .sort((a, b) => a - b);
    const median = values.length ? values[Math.floor((values.length - 1) / 2)]! : NaN;
    const ok = Number.isFinite(median) && judgeLike(first, median);
    console.log(
      `  ${first.name.padEnd(38)} ${fmt({ ...first, value: median }).padStart(10)}  ${first.rule.padEnd(28)} ${ok ? 'PASS' : 'MISS'}   (${values.map((v) => fmt({ ...first, value: v })).join(' / ')})`,
    );
  }
}

/** Judges a median by the ratio's rule (`≥ x`, `≤ x`, `< x`). */
function judgeLike(r: Ratio, v: number): boolean {
  if (r.rule === 'measured' || r.rule === 'reported') return true;
  const limit = Number(/([\d.]+)\s*$/.exec(r.rule)?.[1] ?? NaN);
  if (r.rule.startsWith('≥')) return v >= limit;
  if (r.rule.startsWith('<')) return v < limit;
  return v <= limit;
}
