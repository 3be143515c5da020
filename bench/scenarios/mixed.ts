import { runLoad, type LoadResult } from '../lib/load.js';
import { check, maxP99, type Budget, type Check, type Scenario } from '../lib/scenario.js';
import { move } from './move.js';

const MOVERS = 16;
const READERS = 32;

type MixedSeed = Parameters<typeof move.run>[1] & { readOnly?: LoadResult; reads?: LoadResult };

/** The reads' p99 under the moves against the reads' p99 alone in the same run (issue 27: at most 2×). */
const readP99Ratio: Budget = {
  label: 'read p99 mixed / alone',
  kind: 'max',
  limit: 2.0001,
  unit: '×',
  measure: (r) => r.extra?.['read p99 ratio'] ?? Infinity,
};

/**
 * 16 connections moving cards on one board and 32 reading one of its areas
 * at once. First the readers run alone for `--seconds` (the read-only p99 of
 * this run), then beside the movers for as long. The report's main figures
 * are the moves'; the reads' are its extra lines. On SQLite the reads share
 * the one connection with the batches of writes.
 */
export const mixed: Scenario<MixedSeed> = {
  name: 'mixed',
  summary: `${MOVERS} movers and ${READERS} readers on one board (readers alone first, for the read-only p99)`,
  defaults: { connections: MOVERS, seconds: 10 },
  budgets: [maxP99(50), readP99Ratio],

  seed: (ctx) => move.seed(ctx),

  async run(ctx, seed) {
    const { api, baseUrl, seconds } = ctx;
    const reads = {
      baseUrl,
      seconds,
      connections: READERS,
      path: `/api/data/cards?areaId=${seed.areas[0]}`,
      headers: { 'x-api-key': api.key },
    };
    ctx.log(`mixed: ${READERS} readers alone for ${seconds} s`);
    const readOnly = await runLoad(reads);
    ctx.log(`mixed: ${READERS} readers beside ${MOVERS} movers for ${seconds} s`);
    const [moves, mixedReads] = await Promise.all([move.run({ ...ctx, connections: MOVERS }, seed), runLoad(reads)]);
    seed.readOnly = readOnly;
    seed.reads = mixedReads;
    return {
      ...moves,
      extra: {
        'read-only req/s': readOnly.requestsPerSecond,
        'read-only p99 ms': readOnly.latency.p99,
        'mixed read req/s': mixedReads.requestsPerSecond,
        'mixed read p99 ms': mixedReads.latency.p99,
        'mixed read max ms': mixedReads.latency.max,
        'move req/s': moves.requestsPerSecond,
        'move p99 ms': moves.latency.p99,
        'read p99 ratio': readOnly.latency.p99 > 0 ? mixedReads.latency.p99 / readOnly.latency.p99 : Infinity,
      },
    };
  },

  async verify(ctx, seed, result) {
    const checks: Check[] = (await move.verify?.(ctx, seed, result)) ?? [];
    for (const [name, r] of [
      ['read-only', seed.readOnly],
      ['mixed', seed.reads],
    ] as const) {
      checks.push(
        check(
          `every ${name} read was 2xx`,
          r !== undefined && r.non2xx === 0 && r.errors === 0,
          `${r?.non2xx} non-2xx, ${r?.errors} errors`,
        ),
      );
    }
    return checks;
  },

  verifyStored: (database, seed) => move.verifyStored!(database, seed),
};
