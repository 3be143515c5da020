/**
 * The import worker thread (see prepare-in-worker.ts): prepares each board
 * file it is asked for and sends it back in pieces, each small enough that
 * the service's event loop takes it in well under a millisecond.
 */
import { parentPort } from 'node:worker_threads';
import { BadZip } from '../../zip/reader.js';
import { prepareBoardFile } from './prepare.js';
import type { Piece, Request } from './prepare-in-worker.js';

/** Cards per message. */
const CARDS_PER_PIECE = 100;

const port = parentPort!;
type Unsent = Piece extends infer P ? (P extends { id: number } ? Omit<P, 'id'> : never) : never;

async function run({ id, input }: Request): Promise<void> {
  const send = (piece: Unsent) => port.postMessage({ id, ...piece });
  try {
    const { file, report } = await prepareBoardFile(input);
    send({ kind: 'head', file: { ...file, areas: [] }, ...(report ? { report } : {}) });
    for (const area of file.areas) {
      send({ kind: 'area', area: { ...area, cards: [] } });
      for (let i = 0; i < area.cards.length; i += CARDS_PER_PIECE) {
        send({ kind: 'cards', cards: area.cards.slice(i, i + CARDS_PER_PIECE) });
      }
    }
    send({ kind: 'done' });
  } catch (error) {
    if (error instanceof BadZip) send({ kind: 'refused', message: error.message });
    else send({ kind: 'failed', message: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  }
}

// Several imports may be prepared at once: each is paced, so they take turns.
port.on('message', (request: Request) => void run(request));
