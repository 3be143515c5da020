import { readFileSync } from 'node:fs';
import { latencySummary, type LoadResult } from '../lib/load.js';
import { check, type Budget, type Scenario } from '../lib/scenario.js';

/** Issue 14: an idle server holds less than this. */
const BUDGET_MIB = 100;
/** Rounds of the typical requests between the two measurements. */
const ROUNDS = 5;
const SAMPLE_MS = 500;
/**
 * Resident memory counts as settled when it stays within this for
 * `STEADY_SAMPLES` samples in a row: 10 s, longer than V8 waits before it
 * gives memory back to an idle process (its memory reducer runs about 8 s
 * after the last full collection, once allocation has stopped). A shorter
 * wait measured the process before V8 knew it was idle, 10–14 MiB more.
 */
const STEADY_KB = 512;
const STEADY_SAMPLES = 20;

interface IdleSeed {
  boardId: number;
  areaId: number;
}

/** Resident memory of a process from /proc (kB): the total and its parts. */
interface Rss {
  total: number;
  anon: number;
  file: number;
  shmem: number;
}

interface Settled {
  rss: Rss;
  /** The first sample, before V8 has seen the process idle. */
  first: Rss;
  /** False when the time limit came first: the figure was still moving. */
  steady: boolean;
  waitedMs: number;
}

interface IdleFigures {
  afterStart: Settled;
  afterRequests: Settled;
  /** Every typical request and its status (all must be 2xx). */
  answers: { what: string; status: number }[];
}

// The figures of each run, kept beside its LoadResult (which has no place for them).
const figures = new WeakMap<LoadResult, IdleFigures>();

const maxIdleRss: Budget = {
  label: 'idle RSS',
  kind: 'max',
  limit: BUDGET_MIB,
  unit: 'MiB',
  measure: (r) => (figures.get(r)?.afterRequests.rss.total ?? Number.NaN) / 1024,
};

function readRss(pid: number): Rss {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+)\\s+kB`, 'm').exec(status)?.[1] ?? Number.NaN);
  return { total: kb('VmRSS'), anon: kb('RssAnon'), file: kb('RssFile'), shmem: kb('RssShmem') };
}

/** Samples the server's RSS until it holds still (or `limitMs` passes); never sleeps blindly past the limit. */
async function settle(pid: number, limitMs: number): Promise<Settled> {
  const started = Date.now();
  const first = readRss(pid);
  let last = first;
  let steadyFor = 0;
  while (Date.now() - started < limitMs) {
    await new Promise((resolve) => setTimeout(resolve, SAMPLE_MS));
    const now = readRss(pid);
    steadyFor = Math.abs(now.total - last.total) <= STEADY_KB ? steadyFor + 1 : 0;
    last = now;
    if (steadyFor >= STEADY_SAMPLES) return { rss: now, first, steady: true, waitedMs: Date.now() - started };
  }
  return { rss: last, first, steady: false, waitedMs: Date.now() - started };
}

const mib = (kb: number) => `${(kb / 1024).toFixed(1)} MiB`;
const describe = (s: Settled) =>
  `${mib(s.rss.total)} (anon ${mib(s.rss.anon)}, file ${mib(s.rss.file)}, shmem ${mib(s.rss.shmem)}; ` +
  `${s.steady ? 'settled' : 'STILL MOVING'} after ${(s.waitedMs / 1000).toFixed(1)} s; ${mib(s.first.total)} at first)`;

/**
 * The resident memory of a server that is up but idle: after start-up (and
 * the runner's sign-up) has settled, and again after a few rounds of what a
 * browser and a script typically ask for (the app's page and script, the
 * dashboard, a board with its areas and cards, a new card, the health check).
 * `--seconds` bounds each wait for the figure to settle. `--built` measures
 * what `npm start` runs; without it the server runs through tsx, which adds
 * its own compiler to the figure.
 */
export const idle: Scenario<IdleSeed> = {
  name: 'idle',
  summary: `resident memory of an idle server, after start-up and after ${ROUNDS} rounds of typical requests`,
  defaults: { connections: 1, seconds: 60 },
  budgets: [maxIdleRss],

  async seed({ api }) {
    const boardId = await api.createBoard('Bench idle');
    const areaId = await api.createArea(boardId, 'To do');
    await api.createCards(areaId, 10, 'Card');
    return { boardId, areaId };
  },

  async run({ api, baseUrl, serverPid, seconds, log }, { boardId, areaId }) {
    const afterStart = await settle(serverPid, seconds * 1000);
    log(`RSS after start-up: ${describe(afterStart)}`);

    const answers: IdleFigures['answers'] = [];
    const latencies: number[] = [];
    const startUs = Number(process.hrtime.bigint() / 1000n);
    const started = Date.now();
    const timed = async <T>(what: string, call: () => Promise<{ status: number; body: T }>): Promise<T> => {
      const t = performance.now();
      const { status, body } = await call();
      latencies.push(performance.now() - t);
      answers.push({ what, status });
      return body;
    };
    const get = (what: string, path: string, headers: Record<string, string> = {}) =>
      timed(what, async () => {
        const res = await fetch(baseUrl + path, { headers, signal: AbortSignal.timeout(15_000) });
        return { status: res.status, body: await res.text() };
      });
    const data = (method: string, path: string, body?: unknown) =>
      timed(`${method} ${path.split('?')[0]}`, () => api.request(method, path, { body, expect: 200 }));
    for (let round = 0; round < ROUNDS; round++) {
      const page = await get('GET / (the app)', '/', { accept: 'text/html', 'accept-encoding': 'gzip' });
      const script = /<script[^>]+src="([^"]+)"/.exec(page)?.[1];
      if (script) await get('GET the app script', script, { 'accept-encoding': 'gzip' });
      await data('POST', '/api/data/boards', {});
      await data('GET', `/api/data/board?id=${boardId}&userId=${encodeURIComponent(api.userId)}`);
      await data('GET', `/api/data/areas?boardId=${boardId}`);
      await data('GET', `/api/data/cards?areaId=${areaId}`);
      await data('POST', '/api/data/card', { areaId, name: `Idle ${round + 1}` });
      await get('GET /api/health', '/api/health');
    }
    const endUs = Number(process.hrtime.bigint() / 1000n);
    const wallSeconds = (Date.now() - started) / 1000;

    const afterRequests = await settle(serverPid, seconds * 1000);
    log(`RSS after ${answers.length} typical requests: ${describe(afterRequests)}`);

    const statusCodes: Record<string, number> = {};
    for (const a of answers) statusCodes[a.status] = (statusCodes[a.status] ?? 0) + 1;
    const result: LoadResult = {
      connections: 1,
      seconds: wallSeconds,
      total: answers.length,
      requestsPerSecond: answers.length / Math.max(wallSeconds, 0.001),
      latency: latencySummary(latencies),
      non2xx: answers.filter((a) => a.status < 200 || a.status > 299).length,
      statusCodes,
      errors: 0,
      timeouts: 0,
      window: { startUs, endUs },
    };
    figures.set(result, { afterStart, afterRequests, answers });
    result.extra = { 'idle RSS MiB': afterRequests.rss.total / 1024 };
    return result;
  },

  verify(_ctx, _seed, result) {
    const f = figures.get(result);
    if (!f) return Promise.resolve([check('the run recorded its figures', false, 'none recorded')]);
    const refused = f.answers.filter((a) => a.status < 200 || a.status > 299);
    return Promise.resolve([
      check(
        'every typical request was answered 2xx',
        refused.length === 0,
        refused.length === 0 ? `${f.answers.length} answered` : refused.map((a) => `${a.what}: ${a.status}`).join(', '),
      ),
      check(
        'the app page and its script were served',
        f.answers.some((a) => a.what === 'GET the app script'),
        'the page named a script (the web app is built in dist/web)',
      ),
      check('RSS settled after start-up', f.afterStart.steady, describe(f.afterStart)),
      check('RSS settled after the requests', f.afterRequests.steady, describe(f.afterRequests)),
    ]);
  },
};
