import { runLoad } from '../lib/load.js';
import { check, maxP99, minRequestsPerSecond, preview, sortsProblem, type Scenario } from '../lib/scenario.js';

const CARDS = 100;

interface ReadSeed {
  areaId: number;
  cardIds: number[];
}

/** Many clients listing the same area of 100 cards: the hottest read of a board. */
export const read: Scenario<ReadSeed> = {
  name: 'read',
  summary: `GET /api/data/cards?areaId= on one area of ${CARDS} cards`,
  defaults: { connections: 32, seconds: 10 },
  budgets: {
    sqlite: [minRequestsPerSecond(8_000), maxP99(20)],
    postgres: [minRequestsPerSecond(5_000), maxP99(20)],
  },

  async seed({ api }) {
    const boardId = await api.createBoard('Bench read');
    const areaId = await api.createArea(boardId, 'Cards');
    const cardIds = await api.createCards(areaId, CARDS, 'Card');
    return { areaId, cardIds };
  },

  run({ api, baseUrl, connections, seconds }, { areaId }) {
    return runLoad({
      baseUrl,
      connections,
      seconds,
      method: 'GET',
      path: `/api/data/cards?areaId=${areaId}`,
      headers: { 'x-api-key': api.key },
    });
  },

  async verify({ api }, { areaId, cardIds }) {
    const cards = await api.listCards(areaId);
    const ids = cards.map((c) => c.id);
    const sameIds = ids.length === cardIds.length && ids.every((id, i) => id === cardIds[i]);
    const sorts = sortsProblem(cards.map((c) => c.sort));
    return [
      check(
        `the area still lists the ${CARDS} seeded cards in creation order`,
        sameIds,
        sameIds ? `${ids.length} cards` : `listed ${preview(ids)}, seeded ${preview(cardIds)}`,
      ),
      check('listed sorts are 0..n-1 in order', sorts === null, sorts ?? `0..${cards.length - 1}`),
    ];
  },
};
