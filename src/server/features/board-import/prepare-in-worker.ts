import { Worker } from 'node:worker_threads';
import type { ImportReport } from '../../../shared/api/board-import.js';
import { BadZip } from '../../zip/reader.js';
import type { BoardPlan, PlacedCard, PlanHead } from './board-plan.js';
import type { PrepareInput } from './prepare.js';

/** What the worker sends for request `id`: the plan's head, then each run of cards as JSON bytes, then the end. */
export type Piece = { id: number } & (
  | { kind: 'head'; head: PlanHead; report?: ImportReport }
  | { kind: 'run'; bytes: Uint8Array }
  | { kind: 'done' }
  | { kind: 'refused'; message: string }
  | { kind: 'failed'; message: string }
);

/** What the worker is asked: prepare `input`, answering as `id`. */
export interface Request {
  id: number;
  input: PrepareInput;
}

/**
 * How the worker is started. In the built service (dist/server) it is the
 * bundle's `import-worker.js` beside this code (scripts/build-server.mjs);
 * from the sources (tsx, the tests) it is prepare-worker.ts, loaded through tsx.
 */
function startWorker(): Worker {
  const here = import.meta.url;
  if (!/\.ts$/.test(new URL(here).pathname)) return new Worker(new URL('./import-worker.js', here));
  const entry = new URL('./prepare-worker.ts', here).href;
  // Resolved from the working directory: the project's, wherever the sources run from.
  const boot = `import('tsx/esm/api').then(({ tsImport }) => tsImport(${JSON.stringify(entry)}, ${JSON.stringify(here)}))`;
  return new Worker(boot, { eval: true });
}

/** A prepared import: its plan, and for a Trello export the conversion's report. */
export interface PreparedPlan {
  plan: BoardPlan;
  report?: ImportReport;
}

interface Pending {
  head?: PlanHead;
  report?: ImportReport;
  runs: Uint8Array[];
  resolve(prepared: PreparedPlan): void;
  reject(error: Error): void;
}

/** The one worker of the process, started with the first import and kept (it holds nothing between imports). */
let worker: Worker | undefined;
const pending = new Map<number, Pending>();
let lastId = 0;
const decoder = new TextDecoder();

function theWorker(): Worker {
  if (worker) return worker;
  const started = startWorker();
  // An idle worker does not keep the process alive.
  started.unref();
  const fail = (error: Error) => {
    if (worker === started) worker = undefined;
    for (const [id, p] of pending) {
      pending.delete(id);
      p.reject(error);
    }
  };
  started.on('message', (piece: Piece) => {
    const p = pending.get(piece.id);
    if (!p) return;
    switch (piece.kind) {
      case 'head':
        p.head = piece.head;
        if (piece.report) p.report = piece.report;
        return;
      case 'run':
        p.runs.push(piece.bytes);
        return;
      case 'done': {
        pending.delete(piece.id);
        const { runs } = p;
        // A run is parsed when it is written (twice when there is history): until then it is bytes, off the heap.
        const plan: BoardPlan = { head: p.head!, run: (i) => JSON.parse(decoder.decode(runs[i])) as PlacedCard[] };
        return p.resolve({ plan, ...(p.report ? { report: p.report } : {}) });
      }
      case 'refused':
        pending.delete(piece.id);
        return p.reject(new BadZip(piece.message));
      case 'failed':
        pending.delete(piece.id);
        return p.reject(new Error(`import worker failed: ${piece.message}`));
    }
  });
  started.on('error', fail);
  started.on('exit', (code) => fail(new Error(`import worker exited (${code})`)));
  worker = started;
  return started;
}

/**
 * Prepares an upload's board file (see prepareBoardFile) in the process's
 * import worker thread: the parse, the checks, the conversion and the split
 * into runs of cards (see planBoard) hold that thread, not the event loop
 * that answers requests. That loop never holds the whole file: a run's cards
 * become objects only while the run is written. (Taking the whole file in
 * as objects cost the loop 60–120 ms turns: the port hands over every
 * waiting message in one turn, and the garbage collector then copied the
 * growing file through the young generation, 30–150 ms a pause.) Refuses
 * (`BadZip`) as prepareBoardFile does.
 */
export function prepareInWorker(input: PrepareInput): Promise<PreparedPlan> {
  return new Promise((resolve, reject) => {
    const id = ++lastId;
    pending.set(id, { runs: [], resolve, reject });
    const request: Request = { id, input };
    theWorker().postMessage(request);
  });
}
