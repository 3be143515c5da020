import WebSocket from 'ws';
import type { ServerMessage, Viewer } from '../../src/shared/events.js';
import { applyPresence } from '../../src/shared/presence.js';
import { latencySummary, percentile, type LoadResult } from '../lib/load.js';
import { processCpuSeconds } from '../lib/machine.js';
import { check, maxP99, type Scenario } from '../lib/scenario.js';

const MOVES = 100;
const CARDS = 10;
/** Viewers join this many at a time (a reconnect storm after a deploy, say). */
const JOIN_BATCH = 20;
/** The smaller audience the full one's join time is compared with (issue 27: ≤ 6 × its time). */
const SMALL_AUDIENCE = 200;
const JOIN_RATIO_BUDGET = 6;

interface Joined {
  sockets: WebSocket[];
  arrivals: number[][];
  /** Each viewer's list of viewers as its presence messages left it, and how many it got. */
  presence: Array<{ viewers: Viewer[] | undefined; messages: number }>;
  /** From the first connection opened to the last `subscribed` received. */
  seconds: number;
  /** The server's CPU seconds meanwhile (steadier than the wall time on a shared machine). */
  serverCpu: number;
}

interface FanoutSeed {
  boardId: number;
  areas: [number, number];
  cardIds: number[];
  viewers: WebSocket[];
  presence: Joined['presence'];
  /** Join times: the small audience's (after a warm-up), and the full one's. */
  join: { small: number; smallSeconds: number; seconds: number; smallCpu: number; cpu: number };
  /** For each viewer, the arrival times (ms, monotonic) of card.moved events in order. */
  arrivals: number[][];
  /** The moment each move's API request was sent, and its response arrived. */
  sent: number[];
  answered: number[];
  /** Delays measured from the moment the move was sent (the write included). */
  fromSend?: { p50: number; p99: number; max: number };
}

const nowUs = () => Number(process.hrtime.bigint() / 1000n);

/**
 * N viewers (the `--connections`, 1000 by default) subscribed to one board
 * over real WebSockets; 100 moves through the HTTP API one after another. For
 * every event: the delay from the API response to its arrival at each
 * viewer, and the fraction of events delivered.
 */
export const fanout: Scenario<FanoutSeed> = {
  name: 'fanout',
  summary: `${SMALL_AUDIENCE}, then N viewers joining one board ${JOIN_BATCH} at a time (timed), then ${MOVES} sequential card moves, each delivered to every viewer over WebSockets`,
  defaults: { connections: 1000, seconds: 60 },
  budgets: [maxP99(100)],

  async seed({ api, baseUrl, connections, log, serverPid }) {
    const boardId = await api.createBoard('Bench fanout');
    const areas: [number, number] = [await api.createArea(boardId, 'Left'), await api.createArea(boardId, 'Right')];
    const cardIds = await api.createCards(areas[0], CARDS, 'Card');
    const url = baseUrl.replace(/^http/, 'ws') + '/api/realtime';
    const join = async (count: number): Promise<Joined> => {
      const joined: Joined = { sockets: [], arrivals: [], presence: [], seconds: 0, serverCpu: 0 };
      const cpuBefore = processCpuSeconds(serverPid) ?? 0;
      const started = performance.now();
      // JOIN_BATCH at a time: each batch connects and subscribes, the next starts once all of it is subscribed.
      for (let start = 0; start < count; start += JOIN_BATCH) {
        const batch = Array.from({ length: Math.min(JOIN_BATCH, count - start) }, () => {
          const socket = new WebSocket(url, { headers: { 'x-api-key': api.key } });
          const mine: number[] = [];
          const presence: Joined['presence'][number] = { viewers: undefined, messages: 0 };
          joined.arrivals.push(mine);
          joined.presence.push(presence);
          joined.sockets.push(socket);
          return new Promise<void>((resolve, reject) => {
            socket.once('error', reject);
            socket.on('message', (raw) => {
              const message = JSON.parse((raw as Buffer).toString('utf8')) as ServerMessage;
              if (message.type === 'subscribed') resolve();
              else if (message.type === 'event' && message.name === 'card.moved') mine.push(performance.now());
              else if (message.type === 'presence' || message.type === 'presenceChange') {
                presence.messages++;
                presence.viewers = applyPresence(presence.viewers, message);
              }
            });
            socket.once('open', () => socket.send(JSON.stringify({ type: 'subscribe', boardId })));
          });
        });
        await Promise.all(batch);
      }
      joined.seconds = (performance.now() - started) / 1000;
      joined.serverCpu = (processCpuSeconds(serverPid) ?? 0) - cpuBefore;
      return joined;
    };
    const leave = async (joined: Joined) => {
      for (const socket of joined.sockets) socket.close();
      await Promise.all(
        joined.sockets.map((s) =>
          s.readyState === WebSocket.CLOSED ? Promise.resolve() : new Promise<void>((r) => s.once('close', () => r())),
        ),
      );
      // Let the server see them go before the next audience comes.
      await new Promise((r) => setTimeout(r, 1000));
    };

    // A warm-up audience (the server's code paths compiled), then the small one, then the full one, timed alike.
    await leave(await join(JOIN_BATCH));
    const small = Math.min(SMALL_AUDIENCE, connections);
    const first = await join(small);
    log(
      `${small} viewers subscribed in ${first.seconds.toFixed(2)} s (${JOIN_BATCH} at a time; server CPU ${first.serverCpu.toFixed(2)} s)`,
    );
    await leave(first);
    const all = await join(connections);
    log(
      `${connections} viewers subscribed in ${all.seconds.toFixed(2)} s (${JOIN_BATCH} at a time; server CPU ${all.serverCpu.toFixed(2)} s)`,
    );
    // Presence settles within a flush or two after the last join.
    await new Promise((r) => setTimeout(r, 1000));
    const { sockets: viewers, arrivals, presence } = all;
    return {
      boardId,
      areas,
      cardIds,
      viewers,
      arrivals,
      presence,
      join: { small, smallSeconds: first.seconds, seconds: all.seconds, smallCpu: first.serverCpu, cpu: all.serverCpu },
      sent: [],
      answered: [],
    };
  },
  async run({ api, connections }, seed) {
    const startUs = nowUs();
    const started = performance.now();
    const where = new Map(seed.cardIds.map((id) => [id, seed.areas[0]]));
    const statusCodes: Record<string, number> = {};
    let failed = 0;
    for (let i = 0; i < MOVES; i++) {
      const cardId = seed.cardIds[i % seed.cardIds.length]!;
      const from = where.get(cardId)!;
      const to = from === seed.areas[0] ? seed.areas[1] : seed.areas[0];
      seed.sent.push(performance.now());
      const res = await api
        .request('POST', '/api/data/cardMove', { body: { cardId, fromAreaId: from, toAreaId: to, newIndex: i % 5 }, expect: 200 })
        .catch(() => null);
      seed.answered.push(performance.now());
      statusCodes[res ? '200' : 'error'] = (statusCodes[res ? '200' : 'error'] ?? 0) + 1;
      if (res) where.set(cardId, to);
      else failed++;
    }
    // Give the last events time to arrive (bounded).
    const deadline = performance.now() + 5000;
    while (performance.now() < deadline && seed.arrivals.some((a) => a.length < MOVES))
      await new Promise((r) => setTimeout(r, 20));
    const seconds = (performance.now() - started) / 1000;

    // An event that reaches a viewer before the API answer has no delay (0), hence the clamp.
    const delays: number[] = [];
    const fromSend: number[] = [];
    for (const mine of seed.arrivals) {
      mine.forEach((at, k) => {
        delays.push(Math.max(0, at - seed.answered[k]!));
        fromSend.push(at - seed.sent[k]!);
      });
    }
    fromSend.sort((a, b) => a - b);
    seed.fromSend = { p50: percentile(fromSend, 50), p99: percentile(fromSend, 99), max: fromSend.at(-1) ?? 0 };
    const delivered = delays.length;
    for (const socket of seed.viewers) socket.terminate();
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
    const complete = seed.arrivals.filter((a) => a.length === MOVES).length;
    const { small, smallSeconds, seconds, smallCpu, cpu } = seed.join;
    const ratio = seconds / smallSeconds;
    const scaled = (connections / small) * smallSeconds;
    const presenceMessages = seed.presence.reduce((sum, p) => sum + p.messages, 0);
    // One account watches: every viewer's list, as its presence messages built it, is that account alone.
    const rightList = seed.presence.filter((p) => p.viewers?.length === 1).length;
    return Promise.resolve([
      check(
        `${connections} viewers joined ${JOIN_BATCH} at a time`,
        true,
        `${seconds.toFixed(2)} s; ${small} viewers ${smallSeconds.toFixed(2)} s: ${ratio.toFixed(2)} × (linear would be ${(connections / small).toFixed(1)} ×, ${scaled.toFixed(2)} s; budget ≤ ${JOIN_RATIO_BUDGET} × → ${ratio <= JOIN_RATIO_BUDGET ? 'PASS' : 'MISS'}); ${(seconds / connections) * 1000 < 1 ? ((seconds / connections) * 1e6).toFixed(0) + ' µs' : ((seconds / connections) * 1000).toFixed(2) + ' ms'} per viewer; server CPU ${cpu.toFixed(2)} s against ${smallCpu.toFixed(2)} s (${(cpu / smallCpu).toFixed(2)} ×); ${presenceMessages} presence messages to the ${connections} (${(presenceMessages / connections).toFixed(2)} each)`,
      ),
      check(
        'every viewer ends with the right presence list',
        rightList === connections,
        `${rightList} of ${connections} viewers list the one account watching`,
      ),
      check('every move answered 200', result.non2xx === 0, `${MOVES - result.non2xx} of ${MOVES}`),
      check(
        'every viewer received every event (100% delivered)',
        result.total === expected,
        `${result.total} of ${expected} events (${((100 * result.total) / expected).toFixed(2)}%); ${complete} of ${connections} viewers got all ${MOVES}; delay after the API response p50 ${result.latency.p50.toFixed(1)} ms, p99 ${result.latency.p99.toFixed(1)} ms, max ${result.latency.max.toFixed(1)} ms; after the request was sent p50 ${seed.fromSend?.p50.toFixed(1)} ms, p99 ${seed.fromSend?.p99.toFixed(1)} ms, max ${seed.fromSend?.max.toFixed(1)} ms`,
      ),
    ]);
  },
};
