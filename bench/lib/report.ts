import os from 'node:os';
import type { DatabaseObservation } from './database.js';
import type { LoadResult } from './load.js';
import type { Budget, Check } from './scenario.js';

const cpu = (seconds: number | null, over: number) =>
  seconds === null ? 'n/a' : `${seconds.toFixed(1)} s (${Math.round((100 * seconds) / over)}% of a core)`;
const int = (n: number) => Math.round(n).toLocaleString('en-US');
const ms = (n: number) => `${n.toFixed(2)} ms`;
const value = (n: number, unit: Budget['unit']) =>
  unit === 'ms' ? ms(n) : unit === 'MiB' ? `${n.toFixed(1)} MiB` : unit === '×' ? `${n.toFixed(2)}×` : `${int(n)} ${unit}`;

export interface BudgetVerdict {
  budget: Budget;
  measured: number;
  met: boolean;
  /** `PASS` or `MISS: …` */
  text: string;
}

export function judge(budget: Budget, result: LoadResult): BudgetVerdict {
  const measured = budget.measure(result);
  const met = budget.kind === 'min' ? measured >= budget.limit : measured < budget.limit;
  const gap = Math.abs(measured - budget.limit);
  const text = met
    ? 'PASS'
    : budget.kind === 'min'
      ? `MISS: ${value(measured, budget.unit)} is ${value(gap, budget.unit)} below ${value(budget.limit, budget.unit)}`
      : `MISS: ${value(measured, budget.unit)} is ${value(gap, budget.unit)} above ${value(budget.limit, budget.unit)}`;
  return { budget, measured, met, text };
}

export interface Report {
  scenario: string;
  summary: string;
  db: string;
  server: string;
  result: LoadResult;
  verdicts: BudgetVerdict[];
  checks: Check[];
  peakRssKb: number | null;
  /** CPU seconds used during the load by the server and by this process (the load generator). */
  cpu: {
    server: number | null;
    generator: number;
    machine: number | null;
    database: number | null;
    /** The other processes that used the most CPU during the load. */
    topOthers: { pid: number; name: string; cpu: number }[];
  };
}

export function formatReport(r: Report): string {
  const { result } = r;
  const others =
    r.cpu.machine === null || r.cpu.server === null
      ? null
      : Math.max(0, r.cpu.machine - r.cpu.server - r.cpu.generator - (r.cpu.database ?? 0));
  const codes = Object.entries(result.statusCodes)
    .map(([code, n]) => `${code}×${int(n)}`)
    .join(' ');
  const lines = [
    '',
    `== ${r.scenario} on ${r.db}: ${r.summary}`,
    `   ${result.connections} connections, ${result.seconds.toFixed(1)} s, server: ${r.server}`,
    `requests/s (avg)   ${int(result.requestsPerSecond)}`,
    `latency p50        ${ms(result.latency.p50)}`,
    `latency p99        ${ms(result.latency.p99)}`,
    `latency max        ${ms(result.latency.max)}`,
    `total requests     ${int(result.total)}   (${codes || 'none'})`,
    `non-2xx            ${int(result.non2xx)}`,
    `errors / timeouts  ${int(result.errors)} / ${int(result.timeouts)}`,
    ...Object.entries(result.extra ?? {}).map(([name, n]) => `${name.padEnd(18)} ${Number.isInteger(n) ? int(n) : n.toFixed(2)}`),
    `server peak RSS    ${r.peakRssKb === null ? 'n/a' : `${(r.peakRssKb / 1024).toFixed(1)} MB`}`,
    `CPU during load    server ${cpu(r.cpu.server, result.seconds)}` +
      (r.db === 'postgres' ? `, PostgreSQL backends ${cpu(r.cpu.database, result.seconds)}` : '') +
      `, load generator ${cpu(r.cpu.generator, result.seconds)}, other processes ${cpu(others, result.seconds)}` +
      ` (${os.availableParallelism()} CPUs)`,
    ...(r.cpu.topOthers.length > 0
      ? [
          `                   busiest others: ${r.cpu.topOthers.map((p) => `${p.name} (${p.pid}) ${p.cpu.toFixed(1)} s`).join(', ')}`,
        ]
      : []),
    ...(others !== null && others > 0.2 * result.seconds
      ? [`WARNING            other processes used ${cpu(others, result.seconds)} during the load: the figures may be unreliable`]
      : []),
    'budgets:',
    ...r.verdicts.map((v) => {
      const rule = `${v.budget.label} ${v.budget.kind === 'min' ? '≥' : '<'} ${value(v.budget.limit, v.budget.unit)}`;
      return `  ${rule.padEnd(26)} ${value(v.measured, v.budget.unit).padStart(12)}  ${v.text}`;
    }),
    'verification:',
    ...r.checks.map((c) => `  ${c.ok ? 'ok  ' : 'FAIL'} ${c.name}: ${c.detail}`),
    `result: ${r.checks.every((c) => c.ok) ? 'verification passed' : 'VERIFICATION FAILED'}, ` +
      `${r.verdicts.filter((v) => v.met).length}/${r.verdicts.length} budgets met`,
  ];
  return lines.join('\n');
}

export function formatObservation(o: DatabaseObservation): string {
  const total = o.waits.reduce((sum, w) => sum + w.count, 0) || 1;
  return [
    `PostgreSQL backends of the bench database, sampled ${o.samples} times during the load (backend-samples by wait):`,
    ...o.waits
      .slice(0, 8)
      .map((w) => `  ${String(w.count).padStart(6)} ${((100 * w.count) / total).toFixed(0).padStart(3)}%  ${w.what}`),
    'table churn after the load (pg_stat_user_tables):',
    ...o.tables.map(
      (t) =>
        `  ${t.table.padEnd(16)} live ${int(t.live)}, dead ${int(t.dead)}, updated ${int(t.updated)} (HOT ${int(t.hotUpdated)})`,
    ),
  ].join('\n');
}
