import diagnostics from 'node:diagnostics_channel';
import { readdirSync, readFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';

/**
 * Where the process's time went so far, in ms: how long the calling thread
 * (the event loop's) ran on a CPU, and how long all the process's threads
 * together waited for one while they could run (Linux's schedstat; zeros
 * elsewhere). The waits are what the process does not decide: on a machine
 * shared with other work, a thread ready to run can wait hundreds of
 * milliseconds, and the loop waits with it when it is a thread the loop
 * needs (the garbage collector's helpers, which the loop waits for in a pause).
 */
export function cpuTimes(): { ran: number; waited: number } {
  try {
    const read = (file: string) =>
      readFileSync(file, 'utf8')
        .split(' ')
        .map((n) => Number(n) / 1e6);
    const [ran] = read('/proc/thread-self/schedstat');
    let waited = 0;
    for (const task of readdirSync('/proc/self/task')) {
      try {
        waited += read(`/proc/self/task/${task}/schedstat`)[1]!;
      } catch {
        // The thread ended meanwhile.
      }
    }
    return { ran: ran!, waited };
  } catch {
    return { ran: 0, waited: 0 };
  }
}

/** Time measured over a stretch: on the clock; less the waits for a CPU, but no less than `onCpu` (`own`); the loop's thread on a CPU. */
export interface Span {
  onClock: number;
  own: number;
  onCpu: number;
}

/** Starts measuring a span; call the answer at its end. */
export function span(): () => Span {
  const start = performance.now();
  const before = cpuTimes();
  return () => {
    const onClock = performance.now() - start;
    const after = cpuTimes();
    const onCpu = after.ran - before.ran;
    // Threads that wait side by side can add up to more than the clock: the loop's time on a CPU was its own anyway.
    return { onClock, own: Math.max(onClock - (after.waited - before.waited), onCpu), onCpu };
  };
}

export interface LoopFigures {
  /** The event loop's longest turn (its delay coming back to a 5 ms timer). */
  longestTurn: Span;
  /** The longest garbage collection pause (as the clock saw it). */
  longestGc: number;
  /** `monitorEventLoopDelay`'s largest delay (as the clock saw it). */
  delayMax: number;
  /** Each answer to the watched path, from the request's arrival in the server to its answer. */
  answers: Span[];
}

/**
 * Watches this process's event loop, and the server's answers to `path`,
 * from the server's side (the request's arrival to its answer), until
 * `stop()`. Must run on the thread of the server's event loop: the tests'.
 */
export function watchLoop(path: string): { stop(): LoopFigures } {
  const tick = 5;
  let longestTurn: Span = { onClock: 0, own: 0, onCpu: 0 };
  let turn = span();
  const timer = setInterval(() => {
    const { onClock, own, onCpu } = turn();
    turn = span();
    const late = { onClock: onClock - tick, own: Math.max(own - tick, onCpu), onCpu };
    if (late.own > longestTurn.own) longestTurn = late;
  }, tick);
  let longestGc = 0;
  const collections = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) longestGc = Math.max(longestGc, entry.duration);
  });
  collections.observe({ entryTypes: ['gc'] });
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  const arrived = new WeakMap<IncomingMessage, () => Span>();
  const answers: Span[] = [];
  const onStart = (message: unknown) => {
    const { request } = message as { request: IncomingMessage };
    if (request.url === path) arrived.set(request, span());
  };
  const onFinish = (message: unknown) => {
    const end = arrived.get((message as { request: IncomingMessage }).request);
    if (end) answers.push(end());
  };
  diagnostics.subscribe('http.server.request.start', onStart);
  diagnostics.subscribe('http.server.response.finish', onFinish);
  return {
    stop() {
      clearInterval(timer);
      collections.disconnect();
      delay.disable();
      diagnostics.unsubscribe('http.server.request.start', onStart);
      diagnostics.unsubscribe('http.server.response.finish', onFinish);
      return { longestTurn, longestGc, delayMax: delay.max / 1e6, answers };
    },
  };
}
