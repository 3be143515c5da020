import { readFileSync } from 'node:fs';
import pg from 'pg';
import type { Kind, TraceFile } from './pg-trace.js';

export interface TraceSummary {
  writes: number;
  batches: number;
  statements: Record<Kind, number>;
  socketWrites: number;
  /** Writes sent back to back (`GroupCommit`): exchanges, writes in them, writes undone after they were sent. */
  pipes: { windows: number; sent: number; undone: number };
  /** Per statement text: calls in the window, how it went, mean µs to its answer when waited for. */
  texts: Array<{ id: number; text: string; calls: number; kind: Kind; meanUs: number | null }>;
}

/** What the server's pool sent during the load window (`window` in monotonic µs), from the file pg-trace.ts wrote. */
export function summariseTrace(file: string, window: { startUs: number; endUs: number }): TraceSummary & { trace: TraceFile } {
  const trace = JSON.parse(readFileSync(file, 'utf8')) as TraceFile;
  const inside = (t: number) => t >= window.startUs && t <= window.endUs;
  const commits = trace.commits.filter(([t]) => inside(t));
  const statements: Record<Kind, number> = { wait: 0, ahead: 0, later: 0, settle: 0, free: 0 };
  const perText = new Map<number, { calls: number; kind: Kind; waitedUs: number; waited: number }>();
  for (const [t, id, kind, us] of trace.statements) {
    if (!inside(t)) continue;
    statements[kind]++;
    const entry = perText.get(id) ?? { calls: 0, kind, waitedUs: 0, waited: 0 };
    entry.calls++;
    if (us >= 0) {
      entry.waitedUs += us;
      entry.waited++;
    }
    perText.set(id, entry);
  }
  return {
    trace,
    writes: commits.reduce((sum, [, size]) => sum + size, 0),
    batches: commits.length,
    statements,
    pipes: (trace.pipes ?? [])
      .filter(([t]) => inside(t))
      .reduce(
        (sum, [, windows, sent, undone]) => ({
          windows: sum.windows + windows,
          sent: sum.sent + sent,
          undone: sum.undone + undone,
        }),
        {
          windows: 0,
          sent: 0,
          undone: 0,
        },
      ),
    socketWrites: trace.writes.filter(([t]) => inside(t)).reduce((sum, [, n]) => sum + n, 0),
    texts: [...perText.entries()]
      .map(([id, e]) => ({
        id,
        text: trace.texts[id]!.text,
        calls: e.calls,
        kind: e.kind,
        meanUs: e.waited > 0 ? e.waitedUs / e.waited : null,
      }))
      .sort((a, b) => b.calls - a.calls),
  };
}

export function formatTrace(s: TraceSummary): string {
  const per = (n: number, d: number) => (d > 0 ? (n / d).toFixed(2) : '-');
  const trips = s.statements.wait + s.statements.settle;
  const sent = s.statements.wait + s.statements.ahead + s.statements.later;
  const lines = [
    `PostgreSQL round trips (bench/lib/pg-trace.ts, load window): ${s.writes} writes in ${s.batches} batches (${per(s.writes, s.batches)} writes a batch)`,
    `  statements sent        ${sent}: ${per(sent, s.writes)} per write, ${per(sent, s.batches)} per batch (${s.statements.ahead} went ahead, ${s.statements.later} answered later)`,
    `  round trips waited for ${trips}: ${per(trips, s.writes)} per write, ${per(trips, s.batches)} per batch (${s.statements.settle} of them settles)`,
    `  writes to the socket   ${s.socketWrites}: ${per(s.socketWrites, s.writes)} per write, ${per(s.socketWrites, s.batches)} per batch`,
    `  back to back           ${s.pipes.sent} writes sent in ${s.pipes.windows} exchanges (${per(s.pipes.sent, s.pipes.windows)} an exchange), ${s.pipes.undone} of them undone after they were sent`,
    '  calls  per write  kind    answer (mean)  statement',
  ];
  for (const t of s.texts.slice(0, 20)) {
    lines.push(
      `  ${String(t.calls).padStart(6)}  ${per(t.calls, s.writes).padStart(9)}  ${t.kind.padEnd(6)}  ${(t.meanUs === null ? '' : `${(t.meanUs / 1000).toFixed(2)} ms`).padStart(13)}  ${t.text.slice(0, 110)}`,
    );
  }
  return lines.join('\n');
}

/**
 * `EXPLAIN (ANALYZE, BUFFERS)` of every data statement the load sent, with
 * the parameters of its last call, each in a transaction rolled back.
 */
export async function explainTrace(url: string, s: TraceSummary & { trace: TraceFile }): Promise<string> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  await client.connect();
  const out: string[] = ["EXPLAIN (ANALYZE, BUFFERS) of each data statement of the load (last call's parameters, rolled back):"];
  try {
    for (const t of s.texts) {
      const { text, values } = s.trace.texts[t.id]!;
      if (!/^(select|insert|update|delete|with)\b/i.test(text)) continue;
      await client.query('BEGIN');
      try {
        const plan = await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS) ${text}`, values ?? []);
        out.push(`\n-- ${t.calls} calls: ${text.slice(0, 160)}`);
        for (const row of plan.rows) out.push(`   ${row['QUERY PLAN']}`);
      } catch (error) {
        out.push(`\n-- ${text.slice(0, 160)}\n   (not explained: ${error instanceof Error ? error.message : String(error)})`);
      } finally {
        await client.query('ROLLBACK');
      }
    }
  } finally {
    await client.end();
  }
  return out.join('\n');
}
