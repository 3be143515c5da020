import WebSocket from 'ws';
import type { ServerMessage } from '../../src/shared/events.js';
import { RoundRobinProxy } from '../../test/round-robin-proxy.js';
import { Api } from '../lib/api.js';
import { latencySummary, type LoadResult } from '../lib/load.js';
import { check, maxP99, type Scenario } from '../lib/scenario.js';
import { startServers, type RunningServer } from '../lib/server.js';

const MOVES = 100;
const CARDS = 10;
/** The runner's server and this many more, all on one database and DATA_DIR. */
const EXTRA_PROCESSES = 2;

interface ScaleoutSeed {
  extra: RunningServer[];
  proxy: RoundRobinProxy;
  boardId: number;
  areas: [number, number];
  cardIds: number[];
  viewers: WebSocket[];
  /** For each viewer, the card.moved events it received in order: version and arrival time (ms, monotonic). */
  received: Array<Array<{ version: number; at: number }>>;
  /** The board's version before the first move. */
  base: number;
  answered: number[];
  /** Viewers per process, as the proxy spread them. */
  spread: number[];
  extraExits?: Array<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const nowUs = () => Number(process.hrtime.bigint() / 1000n);

/**
 * Three server processes on one PostgreSQL database behind a round-robin
 * proxy (no sticky sessions): N viewers of one board connect through the
 * proxy (so a third land on each process), 100 moves go through the proxy
 * one after another (so each lands on the next process). For every event:
 * whether every viewer got it, in order, and the delay from the API
 * response to its arrival.
 */
export const scaleout: Scenario<ScaleoutSeed> = {
  name: 'scaleout',
  summary: `3 processes behind a round-robin proxy (PostgreSQL): ${MOVES} sequential moves through the proxy, each delivered to every viewer on every process`,
  defaults: { connections: 300, seconds: 60 },
  budgets: [maxP99(100)],

  async seed({ baseUrl, dataDir, database, api, connections, log }) {
    if (database.kind !== 'postgres') throw new Error('scaleout needs PostgreSQL: --db postgres');
    const extra = await startServers({ dataDir, databaseUrl: database.url }, EXTRA_PROCESSES);
    // A run that ends early (an error, the watchdog) must not leave them running.
    process.once('exit', () => {
      for (const s of extra) {
        try {
          process.kill(s.pid, 'SIGKILL');
        } catch {
          // already gone
        }
      }
    });
    const backends = [baseUrl, ...extra.map((s) => s.baseUrl)];
    log(`${backends.length} processes: ${backends.join(', ')}`);
    const proxy = await RoundRobinProxy.start(backends);
    const through = new Api(proxy.url);
    through.key = api.key;
    through.userId = api.userId;

    const boardId = await through.createBoard('Bench scale-out');
    const areas: [number, number] = [await through.createArea(boardId, 'Left'), await through.createArea(boardId, 'Right')];
    const cardIds = await through.createCards(areas[0], CARDS, 'Card');
    const url = proxy.url.replace(/^http/, 'ws') + '/api/realtime';
    const viewers: WebSocket[] = [];
    const received: ScaleoutSeed['received'] = [];
    let base = 0;
    for (let start = 0; start < connections; start += 100) {
      const batch = Array.from({ length: Math.min(100, connections - start) }, () => {
        const socket = new WebSocket(url, { headers: { 'x-api-key': api.key } });
        const mine: Array<{ version: number; at: number }> = [];
        received.push(mine);
        viewers.push(socket);
        return new Promise<void>((resolve, reject) => {
          socket.once('error', reject);
          socket.on('message', (raw) => {
            const message = JSON.parse((raw as Buffer).toString('utf8')) as ServerMessage;
            if (message.type === 'subscribed') {
              base = message.version;
              resolve();
            } else if (message.type === 'event' && message.name === 'card.moved')
              mine.push({ version: message.version, at: performance.now() });
          });
          socket.once('open', () => socket.send(JSON.stringify({ type: 'subscribe', boardId })));
        });
      });
      await Promise.all(batch);
    }
    const spread = backends.map((b) => proxy.upgraded.get(b) ?? 0);
    log(`${viewers.length} viewers subscribed through the proxy (per process: ${spread.join(' / ')})`);
    return { extra, proxy, boardId, areas, cardIds, viewers, received, base, answered: [], spread };
  },

  async run({ api, connections }, seed) {
    const through = new Api(seed.proxy.url);
    through.key = api.key;
    const startUs = nowUs();
    const started = performance.now();
    const where = new Map(seed.cardIds.map((id) => [id, seed.areas[0]]));
    const statusCodes: Record<string, number> = {};
    let failed = 0;
    for (let i = 0; i < MOVES; i++) {
      const cardId = seed.cardIds[i % seed.cardIds.length]!;
      const from = where.get(cardId)!;
      const to = from === seed.areas[0] ? seed.areas[1] : seed.areas[0];
      const res = await through
        .request('POST', '/api/data/cardMove', { body: { cardId, fromAreaId: from, toAreaId: to, newIndex: i % 5 }, expect: 200 })
        .catch(() => null);
      seed.answered.push(performance.now());
      statusCodes[res ? '200' : 'error'] = (statusCodes[res ? '200' : 'error'] ?? 0) + 1;
      if (res) where.set(cardId, to);
      else failed++;
    }
    // Give the last events time to arrive (bounded).
    const deadline = performance.now() + 5000;
    while (performance.now() < deadline && seed.received.some((r) => r.length < MOVES))
      await new Promise((r) => setTimeout(r, 20));
    const seconds = (performance.now() - started) / 1000;

    // Each move is one version: the k-th move's event is version base + k + 1 (an event before its answer counts 0).
    const delays: number[] = [];
    for (const mine of seed.received) {
      for (const { version, at } of mine) {
        const answered = seed.answered[version - seed.base - 1];
        if (answered !== undefined) delays.push(Math.max(0, at - answered));
      }
    }
    const delivered = delays.length;
    for (const socket of seed.viewers) socket.terminate();
    await seed.proxy.close();
    seed.extraExits = await Promise.all(seed.extra.map((s) => s.stop()));
    return {
      connections,
      seconds,
      total: delivered,
      requestsPerSecond: MOVES / seconds,
      latency: latencySummary(delays),
      non2xx: failed,
      statusCodes,
      errors: connections * MOVES - delivered,
      timeouts: 0,
      window: { startUs, endUs: nowUs() },
    } satisfies LoadResult;
  },

  verify({ connections }, seed, result) {
    const expected = connections * MOVES;
    const inOrder = seed.received.filter((mine) => mine.every((e, k) => e.version === seed.base + k + 1)).length;
    const complete = seed.received.filter((r) => r.length === MOVES).length;
    return Promise.resolve([
      check(
        'the proxy spread the viewers over every process',
        seed.spread.every((n) => n > 0),
        `viewers per process: ${seed.spread.join(' / ')}`,
      ),
      check('every move answered 200', result.non2xx === 0, `${MOVES - result.non2xx} of ${MOVES}`),
      check(
        'every viewer received every event (100% delivered)',
        result.total === expected,
        `${result.total} of ${expected} events (${((100 * result.total) / expected).toFixed(2)}%); ${complete} of ${connections} viewers got all ${MOVES}; delay after the API response p50 ${result.latency.p50.toFixed(1)} ms, p99 ${result.latency.p99.toFixed(1)} ms, max ${result.latency.max.toFixed(1)} ms`,
      ),
      check(
        'every viewer received the events in version order, none twice',
        inOrder === connections,
        `${inOrder} of ${connections} viewers in order`,
      ),
      check(
        'the other processes shut down cleanly on SIGTERM',
        (seed.extraExits ?? []).every((e) => e.code === 0),
        (seed.extraExits ?? []).map((e) => `exit code ${e.code}${e.signal ? `, signal ${e.signal}` : ''}`).join('; '),
      ),
    ]);
  },
};
