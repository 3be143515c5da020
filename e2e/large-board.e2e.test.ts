/// <reference lib="dom" />
// Functions passed to page.evaluate run in the browser: they see the DOM.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  apiUser,
  browserTestsEnabled,
  cookieFor,
  dragByMouse,
  launchBrowser,
  newPage,
  openBoard,
  startServer,
  type ApiUser,
  type Server,
} from './support.js';

const AREAS = 5;
const CARDS_PER_AREA = 400;

/**
 * A board with 2,000 cards works as a small one does: every card is in the
 * page, and a drag across 400-card areas lands where it was dropped and
 * stays there. How fast it paints is measured by `npm run bench -- paint`,
 * not here: a wall-clock limit in a test fails on a busy machine for reasons
 * that are not the code's.
 */
describe.runIf(browserTestsEnabled)('a board with 2,000 cards', () => {
  let server: Server;
  let browser: Browser;
  let owner: ApiUser;
  let boardId: number;

  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
    owner = await apiUser(server, 'Petra Performance');
    ({
      board: { id: boardId },
    } = await owner.call<{ board: { id: number } }>('POST', '/api/data/board', {
      userId: owner.id,
      name: 'Two thousand cards',
      style: 'kanban',
      status: 'private',
    }));
    await seed(server, owner, boardId);
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  test('every card is on the board, and a drag across it lands and stays where it was dropped', async () => {
    const { page, context } = await newPage(browser, server.baseUrl);
    await context.addCookies([cookieFor(owner, server.baseUrl)]);
    await openBoard(page, boardId);
    await expect.poll(() => page.locator('[data-card-id]').count(), { timeout: 20_000 }).toBe(AREAS * CARDS_PER_AREA);

    const areas = page.locator('section[data-area-id]');
    const areaIds = await areas.evaluateAll((sections) => sections.map((s) => Number(s.getAttribute('data-area-id'))));
    const source = areas.nth(0).locator('[data-card-id]').nth(2);
    const cardId = Number(await source.getAttribute('data-card-id'));
    const target = areas.nth(2).locator('[data-card-id]').nth(3);
    const targetId = Number(await target.getAttribute('data-card-id'));
    await dragByMouse(page, (await source.boundingBox())!, (await target.boundingBox())!);

    // Dropped on the upper part of the third area's fourth card: it takes that card's place.
    const thirdArea = () =>
      areas
        .nth(2)
        .locator('[data-card-id]')
        .evaluateAll((tiles) => tiles.map((t) => Number(t.getAttribute('data-card-id'))));
    await expect.poll(async () => (await thirdArea()).indexOf(cardId), { timeout: 20_000 }).toBe(3);
    expect((await thirdArea()).indexOf(targetId)).toBe(4);
    await expect.poll(() => areas.nth(0).locator('[data-card-id]').count(), { timeout: 20_000 }).toBe(CARDS_PER_AREA - 1);

    // Stored, not only drawn: the server lists it there, and so does a fresh load of the page.
    const { cards } = await owner.call<{ cards: { id: number }[] }>('GET', `/api/data/cards?areaId=${areaIds[2]}`);
    expect(cards.map((c) => c.id).indexOf(cardId)).toBe(3);
    expect(cards).toHaveLength(CARDS_PER_AREA + 1);
    await openBoard(page, boardId);
    await expect.poll(async () => (await thirdArea()).indexOf(cardId), { timeout: 20_000 }).toBe(3);
    await expect.poll(() => page.locator('[data-card-id]').count(), { timeout: 20_000 }).toBe(AREAS * CARDS_PER_AREA);
    await context.close();
  }, 120_000);
});

/** Areas through the API; the cards straight into the database (2,000 requests would only time the seeding). */
async function seed(server: Server, owner: ApiUser, boardId: number): Promise<void> {
  const areaIds: number[] = [];
  for (let a = 0; a < AREAS; a++) {
    const { area } = await owner.call<{ area: { id: number } }>('POST', '/api/data/area', { boardId, name: `Area ${a + 1}` });
    areaIds.push(area.id);
  }
  const now = new Date().toISOString();
  const day = 24 * 3600 * 1000;
  for (const [a, areaId] of areaIds.entries()) {
    const rows = Array.from({ length: CARDS_PER_AREA }, (_, i) => ({
      areaId,
      boardId,
      name: `Card ${a + 1}.${i + 1} – ${['Review the copy', 'Fix the login bug', 'Plan the sprint', 'Call the supplier', 'Update the docs'][i % 5]}`,
      content: i % 3 === 0 ? '- [x] first step\n- [ ] second step\n- [ ] third step' : '',
      status: i % 7 === 0 ? 1 : 0,
      sort: i,
      dueDate: i % 4 === 0 ? new Date(Date.now() + ((i % 9) - 3) * day).toISOString() : null,
      repeatEvery: null,
      createdAt: now,
      updatedAt: now,
    }));
    for (let start = 0; start < rows.length; start += 100) {
      const inserted = await server.db
        .insertInto('cards')
        .values(rows.slice(start, start + 100))
        .returning('id')
        .execute();
      await server.db
        .insertInto('card_assignees')
        .values(inserted.filter((_, i) => i % 2 === 0).map((row) => ({ cardId: row.id, userId: owner.id, createdAt: now })))
        .execute();
    }
  }
}
