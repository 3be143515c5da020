import { runLoad, type LoadClient, type LoadRequest } from '../lib/load.js';
import {
  check,
  keysProblem,
  maxP99,
  minRequestsPerSecond,
  preview,
  sortsProblem,
  type Check,
  type Scenario,
} from '../lib/scenario.js';

const CARDS_PER_AREA = 100;
/** `newIndex` is drawn uniformly from 0..MAX_INDEX (past the end = at the bottom). */
const MAX_INDEX = 100;

interface MoveSeed {
  boardId: number;
  areas: [number, number];
  /** Every seeded card with the area it was created in. */
  cards: { id: number; areaId: number }[];
  /** Filled in by `run`: what the connections know after the load. */
  tracking?: Tracking;
}

interface TrackedCard {
  id: number;
  /** The area the card is in, as far as this connection knows (updated on 200). */
  areaId: number;
}

/** One connection's share of the cards; no other connection touches them. */
interface Slot {
  cards: TrackedCard[];
  /** The move on the wire: set when the request is built, cleared by its response. */
  pending: { card: TrackedCard; toAreaId: number } | null;
  /** Cards whose move got no response (timeout, reconnect): where they are is unknown. */
  lost: TrackedCard[];
  moved: number;
  refused: number;
}

interface Tracking {
  slots: Slot[];
}

/**
 * Concurrent writers moving cards between two areas of one board: every move
 * takes the board's write lock and gives the card a key between its new neighbours.
 */
export const move: Scenario<MoveSeed> = {
  name: 'move',
  summary: `POST /api/data/cardMove between two areas of ${CARDS_PER_AREA} cards, random newIndex 0..${MAX_INDEX}`,
  defaults: { connections: 16, seconds: 10 },
  budgets: {
    sqlite: [minRequestsPerSecond(1_500), maxP99(30)],
    postgres: [minRequestsPerSecond(1_000), maxP99(50)],
  },

  async seed({ api }) {
    const boardId = await api.createBoard('Bench move');
    const areas: [number, number] = [await api.createArea(boardId, 'Left'), await api.createArea(boardId, 'Right')];
    const cards: MoveSeed['cards'] = [];
    for (const [n, areaId] of areas.entries()) {
      for (const id of await api.createCards(areaId, CARDS_PER_AREA, `Card ${n === 0 ? 'L' : 'R'}`)) cards.push({ id, areaId });
    }
    return { boardId, areas, cards };
  },

  run({ api, baseUrl, connections, seconds }, seed) {
    if (connections > seed.cards.length) throw new Error(`move: at most ${seed.cards.length} connections (one card each)`);
    // Disjoint shares, dealt round-robin so that every connection starts with cards in both areas.
    const slots: Slot[] = Array.from({ length: connections }, () => ({
      cards: [],
      pending: null,
      lost: [],
      moved: 0,
      refused: 0,
    }));
    seed.cards.forEach((card, i) => slots[i % connections]!.cards.push({ ...card }));
    seed.tracking = { slots };

    const headers = { 'x-api-key': api.key, 'content-type': 'application/json' };
    const [left, right] = seed.areas;
    let nextSlot = 0;

    // autocannon resets a connection's `context` each time its request list wraps
    // around (before every request, with one request), so per-connection state
    // lives in a closure bound in `setupClient`, which runs once per connection.
    const setupClient = (client: LoadClient) => {
      const slot = slots[nextSlot++]!;
      const request: LoadRequest = {
        method: 'POST',
        path: '/api/data/cardMove',
        headers,
        setupRequest: (req) => {
          if (slot.pending) {
            // Built again without an answer to the last move: it may or may not have happened.
            slot.lost.push(slot.pending.card);
            slot.cards = slot.cards.filter((c) => c !== slot.pending!.card);
            slot.pending = null;
          }
          const card = slot.cards[Math.floor(Math.random() * slot.cards.length)];
          // Nothing left we know the place of: keep the connection busy with a harmless read.
          if (!card) return { ...req, method: 'GET', path: `/api/data/cards?areaId=${left}`, body: undefined };
          const toAreaId = card.areaId === left ? right : left;
          slot.pending = { card, toAreaId };
          const newIndex = Math.floor(Math.random() * (MAX_INDEX + 1));
          return { ...req, body: JSON.stringify({ cardId: card.id, fromAreaId: card.areaId, toAreaId, newIndex }) };
        },
        onResponse: (status) => {
          const pending = slot.pending;
          slot.pending = null;
          if (!pending) return;
          if (status === 200) {
            pending.card.areaId = pending.toAreaId;
            slot.moved++;
          } else {
            slot.refused++;
          }
        },
      };
      client.setRequests([request]);
    };

    return runLoad({ baseUrl, connections, seconds, method: 'POST', path: '/api/data/cardMove', headers, setupClient });
  },

  async verify({ api, log }, seed, result) {
    const checks: Check[] = [];
    // The load generator stops by dropping its connections, but the server still finishes the moves it
    // had received: read only once two snapshots in a row agree, or the two lists may straddle a move.
    const { lists, waitedMs, settled } = await settle(() => Promise.all(seed.areas.map((areaId) => api.listCards(areaId))));
    log(`the board ${settled ? 'settled' : 'did NOT settle'} ${waitedMs} ms after the load`);
    checks.push(check('the board settles after the load', settled, `two equal snapshots after ${waitedMs} ms`));
    for (const [i, cards] of lists.entries()) {
      const areaId = seed.areas[i]!;
      const problem = sortsProblem(cards.map((c) => c.sort));
      checks.push(check(`area ${areaId} lists sorts 0..n-1 in order`, problem === null, problem ?? `${cards.length} cards`));
      const strays = cards.filter((c) => c.area !== areaId).map((c) => c.id);
      if (strays.length > 0) checks.push(check(`area ${areaId} lists only its own cards`, false, `cards ${preview(strays)}`));
    }
    checks.push(
      ...sameCards(
        lists.flat().map((c) => c.id),
        seed,
        'the API lists',
      ),
    );

    // Where each connection believes its cards are, against where the API lists them.
    const listedIn = new Map<number, number>();
    for (const [i, cards] of lists.entries()) for (const c of cards) listedIn.set(c.id, seed.areas[i]!);
    const slots = seed.tracking?.slots ?? [];
    const inFlight = new Set(slots.flatMap((s) => (s.pending ? [s.pending.card.id] : [])));
    const misplaced = slots
      .flatMap((s) => s.cards)
      .filter((c) => !inFlight.has(c.id) && listedIn.get(c.id) !== c.areaId)
      .map((c) => `${c.id} (expected in ${c.areaId}, listed in ${listedIn.get(c.id) ?? 'none'})`);
    const moved = slots.reduce((sum, s) => sum + s.moved, 0);
    const lost = slots.reduce((sum, s) => sum + s.lost.length, 0);
    checks.push(
      check(
        'every card is where its answered moves put it',
        misplaced.length === 0,
        misplaced.length === 0
          ? `${moved} moves answered 200; ${inFlight.size} in flight at the stop and ${lost} unanswered not judged`
          : `${misplaced.length} misplaced: ${preview(misplaced, 3)}`,
      ),
    );
    const refused = Object.fromEntries(Object.entries(result.statusCodes).filter(([code]) => !code.startsWith('2')));
    checks.push(
      check(
        'no move was refused (non-2xx = 0)',
        result.non2xx === 0,
        `${result.non2xx} non-2xx${result.non2xx ? ` ${JSON.stringify(refused)}` : ''}`,
      ),
    );
    return checks;
  },

  async verifyStored(database, seed) {
    const rows = await database.query<{ id: number | string; areaId: number | string; sort: number | string }>(
      'SELECT id, "areaId", sort FROM cards',
    );
    const byArea = new Map<number, number[]>();
    for (const row of rows) {
      const areaId = Number(row.areaId);
      byArea.set(areaId, [...(byArea.get(areaId) ?? []), Number(row.sort)]);
    }
    const checks: Check[] = [];
    for (const [areaId, sorts] of [...byArea].sort((a, b) => a[0] - b[0])) {
      sorts.sort((a, b) => a - b);
      const problem = keysProblem(sorts);
      checks.push(check(`stored sort keys of area ${areaId} are distinct`, problem === null, problem ?? `${sorts.length} cards`));
    }
    checks.push(
      ...sameCards(
        rows.map((r) => Number(r.id)),
        seed,
        'the cards table holds',
      ),
    );
    return checks;
  },
};

/** Polls until two snapshots `intervalMs` apart are equal (at most `timeoutMs`). */
async function settle<T>(
  snapshot: () => Promise<T>,
  intervalMs = 300,
  timeoutMs = 20_000,
): Promise<{ lists: T; waitedMs: number; settled: boolean }> {
  const started = Date.now();
  let last = await snapshot();
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
    const next = await snapshot();
    const waitedMs = Date.now() - started;
    if (JSON.stringify(next) === JSON.stringify(last)) return { lists: next, waitedMs, settled: true };
    if (waitedMs > timeoutMs) return { lists: next, waitedMs, settled: false };
    last = next;
  }
}

/** The 200 seeded card ids, each exactly once. */
function sameCards(ids: number[], seed: MoveSeed, where: string): Check[] {
  const seeded = new Set(seed.cards.map((c) => c.id));
  const seen = new Map<number, number>();
  for (const id of ids) seen.set(id, (seen.get(id) ?? 0) + 1);
  const duplicated = [...seen].filter(([, n]) => n > 1).map(([id]) => id);
  const missing = [...seeded].filter((id) => !seen.has(id));
  const unknown = [...seen.keys()].filter((id) => !seeded.has(id));
  const ok = duplicated.length === 0 && missing.length === 0 && unknown.length === 0 && ids.length === seeded.size;
  return [
    check(
      `${where} exactly the ${seeded.size} seeded cards (none lost or duplicated)`,
      ok,
      ok
        ? `${ids.length} cards`
        : `${ids.length} ids; missing ${preview(missing)}, duplicated ${preview(duplicated)}, unknown ${preview(unknown)}`,
    ),
  ];
}
