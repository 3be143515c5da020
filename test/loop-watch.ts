import diagnostics from 'node:diagnostics_channel';
import { readFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { monitorEventLoopDelay } from 'node:perf_hooks';

/**
 * Milliseconds the calling thread has so far waited for a CPU while it could
 * run (Linux's /proc/thread-self/schedstat); 0 where that cannot be read.
 * What the process does not decide: on a machine shared with other work, a
 * thread ready to run can wait on the run queue for hundreds of milliseconds.
 */
export function waitedForCpu(): number {
  try {
    return Number(readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[1]) / 1e6;
  } catch {
    return 0;
  }
}

export interface LoopFigures {
  /** The longest the event loop took to come back to a 5 ms timer, less the time its thread waited for a CPU meanwhile. */
  longestTurn: number;
  /** The same, as the clock saw it. */
  longestTurnOnClock: number;
  /** `monitorEventLoopDelay`'s largest delay (as the clock saw it). */
  delayMax: number;
  /** Each answer to the watched path, from the request's arrival in the server to its answer: as the clock saw it, and less the waits for a CPU. */
  answers: Array<{ onClock: number; own: number }>;
}

/**
 * Watches this process's event loop, and the server's answers to `path`,
 * from the server's side (the request's arrival to its answer), until
 * `stop()`. Must run on the thread of the server's event loop: the tests'.
 */
export function watchLoop(path: string): { stop(): LoopFigures } {
  const tick = 5;
  let longestTurn = 0;
  let longestTurnOnClock = 0;
  let last = performance.now();
  let lastWaited = waitedForCpu();
  const timer = setInterval(() => {
    const now = performance.now();
    const waited = waitedForCpu();
    longestTurnOnClock = Math.max(longestTurnOnClock, now - last - tick);
    longestTurn = Math.max(longestTurn, now - last - tick - (waited - lastWaited));
    last = now;
    lastWaited = waited;
  }, tick);
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  const arrived = new WeakMap<IncomingMessage, { at: number; waited: number }>();
  const answers: LoopFigures['answers'] = [];
  const onStart = (message: unknown) => {
    const { request } = message as { request: IncomingMessage };
    if (request.url === path) arrived.set(request, { at: performance.now(), waited: waitedForCpu() });
  };
  const onFinish = (message: unknown) => {
    const start = arrived.get((message as { request: IncomingMessage }).request);
    if (!start) return;
    const onClock = performance.now() - start.at;
    answers.push({ onClock, own: onClock - (waitedForCpu() - start.waited) });
  };
  diagnostics.subscribe('http.server.request.start', onStart);
  diagnostics.subscribe('http.server.response.finish', onFinish);
  return {
    stop() {
      clearInterval(timer);
      delay.disable();
      diagnostics.unsubscribe('http.server.request.start', onStart);
      diagnostics.unsubscribe('http.server.response.finish', onFinish);
      return { longestTurn, longestTurnOnClock, delayMax: delay.max / 1e6, answers };
    },
  };
}
