/// <reference lib="dom" />
// Functions passed to page.evaluate run in the browser: they see the DOM.
import { beforeAll, expect, test } from 'vitest';
import { dragByMouse, openBoard, type ApiUser } from './support.js';
import { describeE2E, type E2E } from './use-e2e.js';

const AREAS = 5;
const CARDS_PER_AREA = 400;

/**
 * A board with 2,000 cards works as a small one does: every card is in the
 * page, and a drag across 400-card areas lands where it was dropped and
 * stays there. How fast it paints is measured by `npm run bench -- paint`,
 * not here: a wall-clock limit in a test fails on a busy machine for reasons
 * that are not the code's.
 */
describeE2E('a board with 2,000 cards', (e2e) => {
  let owner: ApiUser;
  let boardId: number;

  beforeAll(async () => {
    owner = await e2e.seed.user('Petra Performance');
    boardId = (await e2e.seed.board(owner, 'Two thousand cards')).id;
    await seed(e2e, owner, boardId);
  }, 180_000);

  test('every card is on the board, and a drag across it lands and stays where it was dropped', async () => {
    const { page, context } = await e2e.newPage({ as: owner });
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

  test('with lanes by assignee, every card is in its lane, and a move to another lane sets the assignee', async () => {
    await owner.call('PUT', '/api/data/board-view', { boardId, lanes: 'assignee' });
    const { page, context } = await e2e.newPage({ as: owner });
    await openBoard(page, boardId);
    const complete = await page.waitForFunction(
      (total) => (document.querySelectorAll('[data-lane-key] [data-card-id]').length >= total ? performance.now() : false),
      AREAS * CARDS_PER_AREA,
      { polling: 'raf', timeout: 30_000 },
    );
    const painted = await page.evaluate(() => performance.getEntriesByName('tavla:cards-painted')[0]!.startTime);
    // A figure for the reader, not a limit (see above): the time until all 2,000 tiles were in their lanes.
    console.log(
      `lanes: cards loaded at ${Math.round(painted)} ms, all 2,000 tiles in their lanes at ${Math.round((await complete.jsonValue()) as number)} ms`,
    );
    const mine = page.locator(`[data-lane-key="p:${owner.id}"] [data-card-id]`);
    const none = page.locator('[data-lane-key="none"] [data-card-id]');
    expect(await mine.count()).toBe(await none.count());

    const source = none.nth(1);
    const cardId = Number(await source.getAttribute('data-card-id'));
    // Its lane is far down the page (each lane is as tall as its longest cell): the keyboard's move takes it to mine.
    await source.focus();
    await page.keyboard.press('m');
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Lane').selectOption(`p:${owner.id}`);
    await dialog.getByRole('button', { name: 'Move' }).click();
    await expect
      .poll(
        async () =>
          (
            await owner.call<{ card: { assignees: { id: string }[] } }>('GET', `/api/data/card?cardID=${cardId}`)
          ).card.assignees.map((a) => a.id),
        { timeout: 20_000 },
      )
      .toEqual([owner.id]);
    await expect.poll(() => page.locator(`[data-lane-key="p:${owner.id}"] [data-card-id="${cardId}"]`).count()).toBe(1);
    await owner.call('PUT', '/api/data/board-view', { boardId, lanes: null });
    await context.close();
  }, 120_000);
});

/** Areas through the API; the cards straight into the database (2,000 requests would only time the seeding). */
async function seed(e2e: E2E, owner: ApiUser, boardId: number): Promise<void> {
  const areaIds: number[] = [];
  for (let a = 0; a < AREAS; a++) {
    areaIds.push((await e2e.seed.area(owner, boardId, `Area ${a + 1}`)).id);
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
      const inserted = await e2e.server.db
        .insertInto('cards')
        .values(rows.slice(start, start + 100))
        .returning('id')
        .execute();
      await e2e.server.db
        .insertInto('card_assignees')
        .values(inserted.filter((_, i) => i % 2 === 0).map((row) => ({ cardId: row.id, userId: owner.id, createdAt: now })))
        .execute();
    }
  }
}
