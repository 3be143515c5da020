import { latencySummary, type LoadResult } from '../lib/load.js';
import { check, keysProblem, preview, sortsProblem, type Budget, type Check, type Scenario } from '../lib/scenario.js';

const CARDS = 1_000;

interface CreateSeed {
  areaId: number;
  /** Filled in by `run`: the ids answered, in the order the cards were created. */
  created: number[];
}

/** The whole run's wall time: one client creating the cards one after the other. */
const maxTotalMs = (limitMs: number): Budget => ({
  label: `${CARDS.toLocaleString('en')} creates`,
  kind: 'max',
  limit: limitMs,
  unit: 'ms',
  measure: (r) => r.seconds * 1000,
});

/**
 * One script creating cards one by one, each waiting for the last: no two
 * writes overlap, so group commit cannot help and each create's own round
 * trips and commit are what count.
 */
export const create: Scenario<CreateSeed> = {
  name: 'create',
  summary: `${CARDS.toLocaleString('en')} sequential POST /api/data/card into one area, then all listed with sort 0..${CARDS - 1}`,
  defaults: { connections: 1, seconds: 0 },
  budgets: [maxTotalMs(1_500)],

  async seed({ api }) {
    const boardId = await api.createBoard('Bench create');
    return { areaId: await api.createArea(boardId, 'Inbox'), created: [] };
  },

  async run({ api }, seed): Promise<LoadResult> {
    const latencies: number[] = [];
    const statusCodes: Record<string, number> = {};
    const startUs = Number(process.hrtime.bigint() / 1000n);
    for (let i = 0; i < CARDS; i++) {
      const started = performance.now();
      const res = await api.post('/api/data/card', { areaId: seed.areaId, name: `Card ${i + 1}` });
      latencies.push(performance.now() - started);
      statusCodes[res.status] = (statusCodes[res.status] ?? 0) + 1;
      seed.created.push((res.body as { card: { id: number } }).card.id);
    }
    const endUs = Number(process.hrtime.bigint() / 1000n);
    api.close();
    const seconds = (endUs - startUs) / 1e6;
    return {
      connections: 1,
      seconds,
      total: CARDS,
      requestsPerSecond: CARDS / seconds,
      latency: latencySummary(latencies),
      non2xx: 0,
      statusCodes,
      errors: 0,
      timeouts: 0,
      window: { startUs, endUs },
    };
  },

  async verify({ api, log }, seed, result) {
    log(`created ${CARDS} cards in ${result.seconds.toFixed(2)} s (budget 1.5 s)`);
    const cards = await api.listCards(seed.areaId);
    const checks: Check[] = [];
    const problem = sortsProblem(cards.map((c) => c.sort));
    checks.push(check(`the area lists sorts 0..${CARDS - 1} in order`, problem === null, problem ?? `${cards.length} cards`));
    const listed = cards.map((c) => c.id);
    const same = listed.length === CARDS && listed.every((id, i) => id === seed.created[i]);
    checks.push(
      check(
        `the area lists exactly the ${CARDS} created cards in creation order`,
        same,
        same ? `${listed.length} cards` : `listed ${preview(listed)}, created ${preview(seed.created)}`,
      ),
    );
    return checks;
  },

  async verifyStored(database, seed) {
    const rows = await database.query<{ sort: number | string }>(
      `SELECT sort FROM cards WHERE "areaId" = ${Number(seed.areaId)} ORDER BY sort`,
    );
    const problem = keysProblem(rows.map((r) => Number(r.sort)));
    return [
      check(
        `${CARDS} cards stored with distinct sort keys`,
        problem === null && rows.length === CARDS,
        problem ?? `${rows.length} cards`,
      ),
    ];
  },
};
