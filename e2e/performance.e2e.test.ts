/// <reference lib="dom" />
// Functions passed to page.evaluate run in the browser: they see the DOM.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  apiUser,
  browserTestsEnabled,
  cookieFor,
  launchBrowser,
  newPage,
  startServer,
  type ApiUser,
  type Server,
} from './support.js';

const AREAS = 5;
const CARDS_PER_AREA = 400;

/**
 * A board with 2,000 cards: how long until every card is on screen, and how
 * smooth a drag across it stays. The figures are printed; the budget for the
 * first paint of the cards is 1.5 s.
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

  test('the cards paint quickly and a drag stays smooth', async () => {
    const { page, context } = await newPage(browser, server.baseUrl);
    await context.addCookies([cookieFor(owner, server.baseUrl)]);

    // The server's first queries (JIT, prepared statements) are not the browser's cost: warm it first.
    const { areas } = await owner.call<{ areas: { id: number }[] }>('GET', `/api/data/areas?boardId=${boardId}`);
    for (const area of areas) await owner.call('GET', `/api/data/cards?areaId=${area.id}`);
    // Cold: nothing cached in the browser yet. Then warm loads, as when coming back to the board.
    const cold = await loadBoard(page, boardId);
    const warm: { painted: number; complete: number }[] = [];
    for (let i = 0; i < 3; i++) warm.push(await loadBoard(page, boardId));
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
    const painted = median(warm.map((w) => w.painted));
    const complete = median(warm.map((w) => w.complete));
    console.log(
      `2,000 cards: first cards painted ${cold.painted.toFixed(0)} ms cold / ${painted.toFixed(0)} ms warm (median of 3); ` +
        `all 2,000 tiles in the page ${cold.complete.toFixed(0)} ms cold / ${complete.toFixed(0)} ms warm`,
    );
    expect(await page.locator('[data-card-id]').count()).toBe(AREAS * CARDS_PER_AREA);
    expect(painted).toBeLessThan(1500);

    // A drag from the first area to the third, with frame times recorded in the page.
    const frames = await dragAndMeasure(page);
    console.log(
      `drag across 400-card areas: ${frames.count} frames, median ${frames.median.toFixed(1)} ms, p95 ${frames.p95.toFixed(1)} ms, ` +
        `longest ${frames.max.toFixed(1)} ms, long tasks ${frames.longTasks}; drop to the next paint ${frames.dropToPlaced.toFixed(0)} ms`,
    );
    expect(frames.dropToPlaced).toBeLessThan(500);
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

/**
 * Navigates to the board; answers when the first cards of every area were
 * painted (the app's `tavla:cards-painted` mark) and when all 2,000 tiles
 * were in the page (ms from navigation start).
 */
async function loadBoard(page: Page, boardId: number): Promise<{ painted: number; complete: number }> {
  await page.goto(`/board/${boardId}`, { waitUntil: 'commit' });
  await page.waitForFunction(() => performance.getEntriesByName('tavla:cards-painted').length > 0, undefined, {
    timeout: 20_000,
  });
  const complete = await page.waitForFunction(
    (total) => (document.querySelectorAll('[data-card-id]').length >= total ? performance.now() : false),
    AREAS * CARDS_PER_AREA,
    { timeout: 20_000, polling: 'raf' },
  );
  if (process.env.PERF_DEBUG) {
    console.log(
      await page.evaluate(() =>
        performance
          .getEntries()
          .filter((e) => e.entryType !== 'mark' || e.name.startsWith('tavla'))
          .map(
            (e) =>
              `${e.entryType} ${e.name.replace(location.origin, '')} ${e.startTime.toFixed(0)}→${(e.startTime + e.duration).toFixed(0)}`,
          )
          .join('\n'),
      ),
    );
  }
  const painted = await page.evaluate(() => performance.getEntriesByName('tavla:cards-painted')[0]!.startTime);
  return { painted, complete: (await complete.jsonValue()) as number };
}

async function dragAndMeasure(page: Page) {
  await page.evaluate(() => {
    const w = window as unknown as { __frames: number[]; __longTasks: number; __stop: boolean };
    w.__frames = [];
    w.__longTasks = 0;
    w.__stop = false;
    new PerformanceObserver((list) => (w.__longTasks += list.getEntries().length)).observe({ type: 'longtask' });
    let last = performance.now();
    const tick = (now: number) => {
      w.__frames.push(now - last);
      last = now;
      if (!w.__stop) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
  const areas = page.locator('section[data-area-id]');
  const source = areas.nth(0).locator('[data-card-id]').nth(2);
  const cardId = await source.getAttribute('data-card-id');
  const from = (await source.boundingBox())!;
  const target = (await areas.nth(2).locator('[data-card-id]').nth(3).boundingBox())!;
  await page.mouse.move(from.x + 30, from.y + 10);
  await page.mouse.down();
  const steps = 40;
  for (let i = 1; i <= steps; i++) {
    const x = from.x + 30 + ((target.x + 30 - (from.x + 30)) * i) / steps;
    const y = from.y + 10 + ((target.y + 5 - (from.y + 10)) * i) / steps;
    await page.mouse.move(x, y);
  }
  // The Event Timing API measures the drop from the event to the next paint after its handlers ran.
  await page.evaluate(() => {
    const w = window as unknown as { __drop?: number };
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) if (entry.name === 'drop') w.__drop = entry.duration;
    }).observe({ type: 'event', durationThreshold: 16, buffered: true } as PerformanceObserverInit);
  });
  await page.mouse.up();
  await page.waitForFunction(
    (id) => document.querySelectorAll('section[data-area-id]')[2]!.querySelector(`[data-card-id="${id}"]`) !== null,
    cardId,
  );
  await page.waitForTimeout(300);
  // Under 16 ms the API reports nothing: a drop that fast counts as one frame.
  const dropToPlaced = await page.evaluate(() => (window as unknown as { __drop?: number }).__drop ?? 16);
  const frames = await page.evaluate(() => {
    const w = window as unknown as { __frames: number[]; __longTasks: number; __stop: boolean };
    w.__stop = true;
    return { frames: w.__frames.slice(1), longTasks: w.__longTasks };
  });
  const sorted = [...frames.frames].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  return {
    count: sorted.length,
    median: at(0.5),
    p95: at(0.95),
    max: sorted[sorted.length - 1] ?? 0,
    longTasks: frames.longTasks,
    dropToPlaced,
  };
}
