import { setImmediate as nextTurn } from 'node:timers/promises';

/**
 * About how long an import works before the event loop gets its turn: what
 * a request arriving meanwhile waits at most (on a loaded machine a
 * millisecond of work takes several on the clock, so the pace is timed,
 * not counted).
 */
const SLICE_MS = 8;

/** Paces a long piece of work: `due()` tells when its slice is used up, `turn()` gives the event loop its turn. */
export function pacer(sliceMs = SLICE_MS): { due(): boolean; turn(): Promise<void>; pause(): Promise<void> } {
  let since = performance.now();
  const turn = async () => {
    await nextTurn();
    since = performance.now();
  };
  const due = () => performance.now() - since >= sliceMs;
  return { due, turn, pause: () => (due() ? turn() : Promise.resolve()) };
}

/** Runs a conversion written as a generator (it yields between pieces of work) to its end, pausing as `pacer` does. */
export async function runPaced<T>(steps: Generator<unknown, T>): Promise<T> {
  const pace = pacer();
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
    await pace.pause();
  }
}
