import { Worker } from 'node:worker_threads';
import type { BoardFileInput } from '../../../shared/api/board-file.schema.js';
import type { ImportReport } from '../../../shared/api/board-import.js';
import { BadZip } from '../../zip/reader.js';
import type { Prepared, PrepareInput } from './prepare.js';

type Area = BoardFileInput['areas'][number];

/** What the worker sends for request `id`: the file without its areas, then each area and its cards in runs, then the end. */
export type Piece = { id: number } & (
  | { kind: 'head'; file: BoardFileInput; report?: ImportReport }
  | { kind: 'area'; area: Area }
  | { kind: 'cards'; cards: Area['cards'] }
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

interface Pending {
  prepared?: Prepared;
  area?: Area;
  resolve(prepared: Prepared): void;
  reject(error: Error): void;
}

/** The one worker of the process, started with the first import and kept (it holds nothing between imports). */
let worker: Worker | undefined;
const pending = new Map<number, Pending>();
let lastId = 0;

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
        p.prepared = { file: piece.file, ...(piece.report ? { report: piece.report } : {}) };
        return;
      case 'area':
        p.area = piece.area;
        p.prepared!.file.areas.push(piece.area);
        return;
      case 'cards':
        p.area!.cards.push(...piece.cards);
        return;
      case 'done':
        pending.delete(piece.id);
        return p.resolve(p.prepared!);
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
 * import worker thread: the parse, the checks and the conversion hold that
 * thread, not the event loop that answers requests, which only puts the
 * pieces together as they arrive. Refuses (`BadZip`) as prepareBoardFile does.
 */
export function prepareInWorker(input: PrepareInput): Promise<Prepared> {
  return new Promise((resolve, reject) => {
    const id = ++lastId;
    pending.set(id, { resolve, reject });
    const request: Request = { id, input };
    theWorker().postMessage(request);
  });
}
