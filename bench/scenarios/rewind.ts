import { Api } from '../lib/api.js';
import type { LoadResult } from '../lib/load.js';
import { check, type Budget, type Scenario } from '../lib/scenario.js';

const AREAS = 10;
const CARDS_PER_AREA = 200;
const CARDS = AREAS * CARDS_PER_AREA;
/** The board's version the seeding brings it to: its history. */
const EVENTS = 50_000;
/** Clients moving cards at once while seeding (each moves cards of its own, so each knows where they are). */
const MOVERS = 16;

interface RewindSeed {
  boardId: number;
  areaIds: number[];
  version: number;
}

interface Timings {
  presentMs: number[];
  pastMs: number[];
}

const timings = new WeakMap<LoadResult, Timings>();

const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.POSITIVE_INFINITY;
};

const ratio: Budget = {
  label: 'board-at p50 / present state p50',
  kind: 'max',
  limit: 2,
  unit: '×',
  measure: (r) => {
    const t = timings.get(r);
    return t ? median(t.pastMs) / median(t.presentMs) : Number.POSITIVE_INFINITY;
  },
};

/**
 * A board of 2,000 cards with 50,000 changes behind it: one client asks for
 * the board as it stood at versions spread over its whole history
 * (GET /api/data/board-at), and, in turn, reads its present state as the web
 * app does (its areas, then every area's cards, side by side). The budget is
 * the issue's: a rewind costs at most twice the present's read.
 */
export const rewind: Scenario<RewindSeed> = {
  name: 'rewind',
  summary: `GET /api/data/board-at on a board of ${CARDS.toLocaleString('en-US')} cards and ${EVENTS.toLocaleString('en-US')} events, against reading its present`,
  // 50,000 changes through the API take minutes on a busy machine.
  defaults: { connections: 1, seconds: 20, seedSeconds: 1_500 },
  budgets: [ratio],

  async seed({ api, log }) {
    const boardId = await api.createBoard('Bench rewind');
    const areaIds: number[] = [];
    for (let a = 0; a < AREAS; a++) areaIds.push(await api.createArea(boardId, `Area ${a + 1}`));
    const where = new Map<number, number>();
    for (const areaId of areaIds) {
      for (const id of await api.createCards(areaId, CARDS_PER_AREA, 'Card')) where.set(id, areaId);
    }
    const cardIds = [...where.keys()];
    let version = 1 + AREAS + CARDS;
    const started = Date.now();
    const movers = Array.from({ length: MOVERS }, () =>
      Object.assign(new Api(api.baseUrl), { key: api.key, userId: api.userId }),
    );
    const perMover = Math.ceil((EVENTS - version) / MOVERS);
    let random = 12345;
    const next = (n: number) => {
      random = (random * 1103515245 + 12345) % 2 ** 31;
      return random % n;
    };
    await Promise.all(
      movers.map(async (mover, m) => {
        const own = cardIds.filter((_, i) => i % MOVERS === m);
        for (let i = 0; i < perMover; i++) {
          if (i % 50 === 49) {
            // Now and then a rename, so that the history holds more than moves.
            const areaId = areaIds[next(AREAS)]!;
            await mover.post('/api/data/area', { id: areaId, boardId, name: `Area ${areaId} r${i}` });
          } else {
            const cardId = own[next(own.length)]!;
            const fromAreaId = where.get(cardId)!;
            const toAreaId = areaIds[next(AREAS)]!;
            await mover.post('/api/data/cardMove', { cardId, fromAreaId, toAreaId, newIndex: next(CARDS_PER_AREA) });
            where.set(cardId, toAreaId);
          }
          version++;
          if (m === 0 && i % 1000 === 999)
            log(`seeding: version ${version} after ${((Date.now() - started) / 1000).toFixed(0)} s`);
        }
        mover.close();
      }),
    );
    const history = await api.request('GET', `/api/data/board-history?boardId=${boardId}&limit=1`);
    version = (history.body as { entries: Array<{ version: number }> }).entries[0]!.version;
    log(`seeded: version ${version} after ${((Date.now() - started) / 1000).toFixed(0)} s of changes`);
    return { boardId, areaIds, version };
  },

  async run({ api, seconds, log }, { boardId, version }) {
    const presentMs: number[] = [];
    const pastMs: number[] = [];
    const statusCodes: Record<string, number> = {};
    const count = (status: number) => (statusCodes[String(status)] = (statusCodes[String(status)] ?? 0) + 1);
    const get = async (path: string) => {
      const res = await fetch(api.baseUrl + path, { headers: { 'x-api-key': api.key }, signal: AbortSignal.timeout(15_000) });
      count(res.status);
      return res.json() as Promise<Record<string, unknown>>;
    };
    const startUs = Number(process.hrtime.bigint() / 1000n);
    const end = Date.now() + seconds * 1000;
    let round = 0;
    while (Date.now() < end) {
      let started = performance.now();
      const { areas } = (await get(`/api/data/areas?boardId=${boardId}`)) as { areas: Array<{ id: number }> };
      await Promise.all(areas.map((a) => get(`/api/data/cards?areaId=${a.id}`)));
      presentMs.push(performance.now() - started);
      // Versions spread over the whole history, the newest included.
      const at = round % 10 === 0 ? version : 1 + Math.floor((((round * 7919) % 1000) / 1000) * version);
      started = performance.now();
      await get(`/api/data/board-at?boardId=${boardId}&version=${at}`);
      pastMs.push(performance.now() - started);
      round++;
    }
    const seconds_ = (Number(process.hrtime.bigint() / 1000n) - startUs) / 1e6;
    const sorted = [...pastMs].sort((a, b) => a - b);
    const pick = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
    const p = (values: number[], q: number) =>
      [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(q * values.length))] ?? 0;
    log(
      `present state (areas + ${AREAS} card lists): p50 ${median(presentMs).toFixed(1)} ms, p99 ${p(presentMs, 0.99).toFixed(1)} ms; ` +
        `board-at: p50 ${median(pastMs).toFixed(1)} ms, p99 ${pick(0.99).toFixed(1)} ms, over ${round} rounds`,
    );
    const non2xx = Object.entries(statusCodes).reduce((n, [s, c]) => (s.startsWith('2') ? n : n + c), 0);
    const result: LoadResult = {
      connections: 1,
      seconds: seconds_,
      total: pastMs.length,
      requestsPerSecond: pastMs.length / seconds_,
      latency: {
        mean: pastMs.reduce((a, b) => a + b, 0) / Math.max(1, pastMs.length),
        p50: pick(0.5),
        p90: pick(0.9),
        p99: pick(0.99),
        max: sorted.at(-1) ?? 0,
      },
      non2xx,
      statusCodes,
      errors: 0,
      timeouts: 0,
      window: { startUs, endUs: Number(process.hrtime.bigint() / 1000n) },
      extra: {
        presentP50Ms: median(presentMs),
        presentP99Ms: p(presentMs, 0.99),
        boardAtP50Ms: median(pastMs),
        boardAtP99Ms: pick(0.99),
        rounds: round,
      },
    };
    timings.set(result, { presentMs, pastMs });
    return result;
  },

  async verify({ api }, { boardId, version }, result) {
    const res = await api.request('GET', `/api/data/board-at?boardId=${boardId}&version=${version}`);
    const past = res.body as {
      version: number;
      areas: Array<{ id: number; name: string; cards: Array<{ id: number; sort: number }> }>;
    };
    const areas = (await api.request('GET', `/api/data/areas?boardId=${boardId}`)).body as {
      areas: Array<{ id: number; name: string }>;
    };
    const present = await Promise.all(
      areas.areas.map(async (a) => ({ id: a.id, name: a.name, cards: (await api.listCards(a.id)).map((c) => c.id) })),
    );
    const rebuilt = past.areas.map((a) => ({ id: a.id, name: a.name, cards: a.cards.map((c) => c.id) }));
    const same = JSON.stringify(rebuilt) === JSON.stringify(present);
    const cards = rebuilt.reduce((n, a) => n + a.cards.length, 0);
    return [
      check('every board-at answered 200', result.non2xx === 0, JSON.stringify(result.statusCodes)),
      check(`the board has ${EVENTS.toLocaleString('en-US')} versions`, past.version >= EVENTS, `version ${past.version}`),
      check(
        'the board rebuilt at its last version is the present board (areas, names, card order)',
        same,
        same ? `${cards} cards in ${rebuilt.length} areas` : `rebuilt ${JSON.stringify(rebuilt).slice(0, 200)}…`,
      ),
    ];
  },
};
