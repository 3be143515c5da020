import { SQLite } from '../../src/server/db/dialects/sqlite-driver.js';
import pg from 'pg';
import { runLoad } from '../lib/load.js';
import { check, maxP99, type Scenario } from '../lib/scenario.js';

const CARDS = 100_000;
const WORDS = ['amber', 'basil', 'cedar', 'delta', 'ember', 'fjord', 'glade', 'harbor', 'indigo', 'juniper', 'kestrel', 'lagoon'];

interface SearchSeed {
  query: string;
  expectedHits: number;
}

/** Deterministic words for card n: one of 1,000 rare words in the name, common words in the description. */
function cardText(n: number): { name: string; content: string } {
  const rare = `zeta${n % 1000}`;
  const common = WORDS[n % WORDS.length]!;
  return {
    name: `Card ${n} ${rare}`,
    content: `${common} ${WORDS[(n * 7) % WORDS.length]!} notes for task ${n}\n- [ ] step one\n- [x] step two`,
  };
}

/**
 * Full-text search over 100,000 cards on boards the caller can see: the
 * cards are inserted straight into the database (through the API it would
 * take minutes), then `GET /api/data/search?q=` runs under load.
 */
export const search: Scenario<SearchSeed> = {
  name: 'search',
  summary: `GET /api/data/search over ${CARDS.toLocaleString('en')} cards`,
  // One searcher: the figure is how long one search takes (SQLite answers one query at a time, so more searchers queue).
  defaults: { connections: 1, seconds: 10 },
  budgets: [maxP99(50)],

  async seed({ api, database, log }) {
    const boardId = await api.createBoard('Bench search');
    const areaIds = [await api.createArea(boardId, 'One'), await api.createArea(boardId, 'Two')];
    const now = new Date().toISOString();
    const rows = Array.from({ length: CARDS }, (_, n) => ({ ...cardText(n), areaId: areaIds[n % 2]!, sort: Math.floor(n / 2) }));
    if (database.kind === 'sqlite') {
      const sqlite = new SQLite(database.label);
      sqlite.pragma('busy_timeout = 10000');
      const insert = sqlite.prepare(
        'INSERT INTO cards ("areaId", "boardId", name, content, sort, "createdAt", "updatedAt") VALUES (?, ?, ?, ?, ?, ?, ?)',
      );
      sqlite.transaction(() => {
        for (const r of rows) insert.run(r.areaId, boardId, r.name, r.content, r.sort, now, now);
      })();
      sqlite.close();
    } else {
      const client = new pg.Client({ connectionString: database.url });
      await client.connect();
      for (let i = 0; i < rows.length; i += 5000) {
        const chunk = rows.slice(i, i + 5000);
        const values: unknown[] = [];
        const tuples = chunk.map((r, k) => {
          values.push(r.areaId, boardId, r.name, r.content, r.sort, now, now);
          const b = k * 7;
          return `($${b + 1}, $${b + 2}, $${b + 3}, $${b + 4}, $${b + 5}, $${b + 6}, $${b + 7})`;
        });
        await client.query(
          `INSERT INTO cards ("areaId", "boardId", name, content, sort, "createdAt", "updatedAt") VALUES ${tuples.join(', ')}`,
          values,
        );
      }
      await client.query('ANALYZE cards');
      await client.end();
    }
    log(`${CARDS} cards inserted`);
    // zeta7 is in the names of 100 cards; `zeta7` is also a prefix of zeta70…zeta79 and zeta700…zeta799.
    return { query: 'zeta7 basil', expectedHits: 50 };
  },

  run({ api, baseUrl, connections, seconds }, { query }) {
    return runLoad({
      baseUrl,
      connections,
      seconds,
      method: 'GET',
      path: `/api/data/search?q=${encodeURIComponent(query)}`,
      headers: { 'x-api-key': api.key },
    });
  },

  async verify({ api }, { query, expectedHits }) {
    const res = await api.request('GET', `/api/data/search?q=${encodeURIComponent(query)}`);
    const cards = (res.body as { cards: Array<{ name: string }> }).cards;
    const allMatch = cards.every((c) => /zeta7/.test(c.name));
    return [
      check(
        `"${query}" finds matching cards (at most ${expectedHits} listed)`,
        cards.length === expectedHits && allMatch,
        `${cards.length} hits`,
      ),
    ];
  },
};
