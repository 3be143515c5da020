/**
 * Bench only: preloaded into the server (`node --import tsx --import
 * ./bench/lib/pg-trace.ts …`) by `npm run bench -- <scenario> --db postgres
 * --trace-pg`. It counts what the pool's client (db/dialects/pg-prepared.ts)
 * sends and waits for, without changing it: every statement, whether the
 * caller waited for its answer (a round trip) or it went ahead, the time to
 * its answer, the writes to the socket, and every batch of the group commit
 * (events/group-commit.ts). On exit it writes them to `BENCH_PG_TRACE` (a
 * JSON file the runner summarises over the load window: `traceSummary`).
 * pg_stat_statements would need PostgreSQL restarted with it preloaded, which
 * a shared machine's server is not; this counts the same calls from our side.
 */
import { writeFileSync } from 'node:fs';
import { AHEAD, LATER, SETTLE } from '../../src/server/db/ahead.js';
import { PreparingClient } from '../../src/server/db/dialects/pg-prepared.js';
import { observeBatches, observeCommits, observePipes } from '../../src/server/events/group-commit.js';

export interface TraceFile {
  /** Statement texts (whitespace collapsed), indexed by the events; with the last call's parameters. */
  texts: Array<{ text: string; values: unknown[] | null }>;
  /** [time µs (monotonic), text index, kind, µs to the answer (-1 for what went ahead)] */
  statements: Array<[number, number, Kind, number]>;
  /** [time µs, writes to the socket since the last entry]: one entry per statement call */
  writes: Array<[number, number]>;
  /** [time µs, writes in the batch] at each batch's start */
  batches: Array<[number, number]>;
  /** [time µs, writes in the batch] at each commit */
  commits: Array<[number, number]>;
  /** [time µs, exchanges, writes sent back to back in them, writes undone after they were sent] after each batch */
  pipes: Array<[number, number, number, number]>;
}

/**
 * `wait`: a round trip; `ahead`: sent without waiting; `later`: sent without
 * waiting, its answer read later; `settle`: waited for what went ahead (a
 * round trip); `free`: answered at once.
 */
export type Kind = 'wait' | 'ahead' | 'later' | 'settle' | 'free';

const file = process.env.BENCH_PG_TRACE;
const nowUs = () => Number(process.hrtime.bigint() / 1000n);

if (file) {
  const trace: TraceFile = { texts: [], statements: [], writes: [], batches: [], commits: [], pipes: [] };
  const index = new Map<string, number>();
  let socketWrites = 0;
  const counted = new WeakSet<object>();

  const proto = PreparingClient.prototype as unknown as {
    query: (...args: unknown[]) => unknown;
  };
  const original = proto.query;
  proto.query = function (this: { ahead: unknown; connection: { stream: Record<string, unknown> } }, ...args: unknown[]) {
    const stream = this.connection.stream as {
      _write?: (...a: unknown[]) => unknown;
      _writev?: (...a: unknown[]) => unknown;
    };
    if (!counted.has(stream)) {
      counted.add(stream);
      for (const key of ['_write', '_writev'] as const) {
        const fn = stream[key];
        if (typeof fn === 'function')
          stream[key] = function (this: unknown, ...a: unknown[]) {
            socketWrites++;
            return fn.apply(this, a);
          };
      }
    }
    const first = args[0];
    const raw = typeof first === 'string' ? first : ((first as { text?: string } | undefined)?.text ?? '?');
    const text = raw.replace(/\s+/g, ' ').trim();
    let id = index.get(text);
    if (id === undefined) {
      id = trace.texts.length;
      index.set(text, id);
      trace.texts.push({ text, values: null });
    }
    if (Array.isArray(args[1])) trace.texts[id]!.values = args[1] as unknown[];
    const kind: Kind =
      raw === SETTLE
        ? this.ahead
          ? 'settle'
          : 'free'
        : raw.endsWith(AHEAD) || /^begin$/i.test(raw)
          ? 'ahead'
          : raw.endsWith(LATER)
            ? 'later'
            : 'wait';
    const started = nowUs();
    const result = original.apply(this, args);
    const entry: [number, number, Kind, number] = [started, id, kind, -1];
    trace.statements.push(entry);
    if (kind === 'wait' || kind === 'settle') {
      void (result as Promise<unknown>).then(
        () => void (entry[3] = nowUs() - started),
        () => void (entry[3] = nowUs() - started),
      );
    }
    // Written when this turn of the event loop ends (corked statements leave then at the latest).
    setImmediate(() => {
      trace.writes.push([started, socketWrites]);
      socketWrites = 0;
    });
    return result;
  };
  observeBatches((size) => void trace.batches.push([nowUs(), size]));
  observeCommits((size) => void trace.commits.push([nowUs(), size]));
  observePipes((p) => void trace.pipes.push([nowUs(), p.windows, p.sent, p.undone]));
  process.on('exit', () => writeFileSync(file, JSON.stringify(trace)));
}
