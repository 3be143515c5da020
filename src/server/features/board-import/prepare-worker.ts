/**
 * The import worker thread (see prepare-in-worker.ts): prepares each board
 * file it is asked for and sends it back as its plan's head (small) and its
 * runs of cards, each as JSON bytes whose buffer is handed over, not copied:
 * the service's event loop takes in a run in microseconds and keeps it off
 * its heap until the run is written.
 */
import { parentPort } from 'node:worker_threads';
import { BadZip } from '../../zip/reader.js';
import { planBoard } from './board-plan.js';
import { prepareBoardFile } from './prepare.js';
import type { Piece, Request } from './prepare-in-worker.js';

const port = parentPort!;
const encoder = new TextEncoder();
type Unsent = Piece extends infer P ? (P extends { id: number } ? Omit<P, 'id'> : never) : never;

async function run({ id, input }: Request): Promise<void> {
  const send = (piece: Unsent, transfer: ArrayBuffer[] = []) => port.postMessage({ id, ...piece }, transfer);
  try {
    const { file, report } = await prepareBoardFile(input);
    const { head, runs } = planBoard(file);
    send({ kind: 'head', head, ...(report ? { report } : {}) });
    for (const cards of runs) {
      const bytes = encoder.encode(JSON.stringify(cards));
      send({ kind: 'run', bytes }, [bytes.buffer]);
    }
    send({ kind: 'done' });
  } catch (error) {
    if (error instanceof BadZip) send({ kind: 'refused', message: error.message });
    else send({ kind: 'failed', message: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  }
}

// Several imports may be prepared at once: each is paced, so they take turns.
port.on('message', (request: Request) => void run(request));
