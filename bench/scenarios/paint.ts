/// <reference lib="dom" />
// Functions passed to page.evaluate run in the browser: they see the DOM.
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { CHROMIUM, cookieFor, dragByMouse, launchBrowser, newPage, openBoard } from '../../e2e/browser.js';
import { ensureWebBuilt } from '../../e2e/web-build.js';
import { projectRoot } from '../../src/server/version.js';
import { latencySummary, percentile, type LoadResult } from '../lib/load.js';
import { check, type Budget, type Scenario } from '../lib/scenario.js';

const AREAS = 5;
const CARDS_PER_AREA = 400;
const CARDS = AREAS * CARDS_PER_AREA;
/** Warm loads after the cold one; the budget is judged on their median. */
const WARM_LOADS = 3;

interface PaintSeed {
  boardId: number;
  areaIds: number[];
}

interface Load {
  /** ms from navigation start to the app's `tavla:cards-painted` mark (the first cards of every area on screen; `openBoard` asks the app for it). */
  painted: number;
  /** ms from navigation start until all the tiles were in the page. */
  complete: number;
  tiles: number;
}

interface Drag {
  cardId: string;
  frames: number;
  medianFrame: number;
  p95Frame: number;
  longestFrame: number;
  longTasks: number;
  /** The Event Timing API's duration of the drop: from the event to the next paint after its handlers ran. */
  dropToPlaced: number;
}

interface PaintFigures {
  cold: Load;
  warm: Load[];
  drag: Drag;
  /** Warm loads with swimlanes by assignee (`?lanes=assignee`): half the cards in my lane, half in "none". */
  lanes: Load[];
}

// The figures of each run, kept beside its LoadResult (which has no place for them).
const figures = new WeakMap<LoadResult, PaintFigures>();

const warmPainted = (r: LoadResult) => {
  const f = figures.get(r);
  return f ? latencySummary(f.warm.map((w) => w.painted)).p50 : Number.NaN;
};

const completeMedian = (loads: Load[]) => latencySummary(loads.map((l) => l.complete)).p50;

/** All tiles in their lanes against all tiles in their areas, warm medians of the same run. */
const lanesComplete = (r: LoadResult) => {
  const f = figures.get(r);
  return f ? completeMedian(f.lanes) / completeMedian(f.warm) : Number.NaN;
};

const budgets: Budget[] = [
  { label: 'first cards painted (warm median)', kind: 'max', limit: 1_500, unit: 'ms', measure: warmPainted },
  {
    label: 'drop to the next paint',
    kind: 'max',
    limit: 500,
    unit: 'ms',
    measure: (r) => figures.get(r)?.drag.dropToPlaced ?? Number.NaN,
  },
  {
    label: 'all tiles in the page, lanes by assignee / without lanes (warm medians)',
    kind: 'max',
    limit: 1.5,
    unit: '×',
    measure: lanesComplete,
  },
];

/**
 * A board with 2,000 cards in Chromium: how long until the cards are on
 * screen, and how smooth a drag across 400-card areas stays. This was a
 * timed browser test; on a busy machine its wall-clock limit failed for
 * reasons that were not the code's, so the figure lives here, beside the
 * other budgets, and the test checks only what a user would see.
 */
export const paint: Scenario<PaintSeed> = {
  name: 'paint',
  summary: `a ${CARDS.toLocaleString('en')}-card board in Chromium: first paint (1 cold, ${WARM_LOADS} warm loads) and a drag across it`,
  defaults: { connections: 1, seconds: 0 },
  budgets,

  async seed({ api }) {
    if (!existsSync(CHROMIUM)) throw new Error(`paint needs Chromium at ${CHROMIUM} (Debian: apt-get install -y chromium)`);
    // The server serves the web app only if it was built when it started; a stale build is rebuilt in place.
    if (!existsSync(path.join(projectRoot, 'dist/web/index.html')))
      throw new Error('paint needs the web app built: npm run build');
    await ensureWebBuilt();
    const boardId = await api.createBoard('Two thousand cards');
    const areaIds: number[] = [];
    for (let a = 0; a < AREAS; a++) areaIds.push(await api.createArea(boardId, `Area ${a + 1}`));
    const day = 24 * 3600 * 1000;
    const topics = ['Review the copy', 'Fix the login bug', 'Plan the sprint', 'Call the supplier', 'Update the docs'];
    // Cards as a team's look: some with a checklist, some done, some due, half of them assigned.
    for (const [a, areaId] of areaIds.entries()) {
      for (let i = 0; i < CARDS_PER_AREA; i++) {
        const { body } = await api.post('/api/data/card', {
          areaId,
          name: `Card ${a + 1}.${i + 1} – ${topics[i % topics.length]}`,
          ...(i % 3 === 0 ? { content: '- [x] first step\n- [ ] second step\n- [ ] third step' } : {}),
          ...(i % 7 === 0 ? { status: 1 } : {}),
          ...(i % 4 === 0 ? { dueDate: new Date(Date.now() + ((i % 9) - 3) * day).toISOString() } : {}),
        });
        if (i % 2 === 0) {
          const cardID = (body as { card: { id: number } }).card.id;
          await api.request('PUT', '/api/data/card', { body: { cardID, assignees: [api.userId] } });
        }
      }
    }
    api.close();
    return { boardId, areaIds };
  },

  async run({ api, baseUrl, log }, { boardId, areaIds }) {
    // The server's first queries (JIT, prepared statements) are not the browser's cost: warm it first.
    for (const areaId of areaIds) await api.listCards(areaId);
    const browser = await launchBrowser();
    const startUs = Number(process.hrtime.bigint() / 1000n);
    const started = performance.now();
    try {
      const { page, context } = await newPage(browser, baseUrl);
      await context.addCookies([cookieFor(api, baseUrl)]);
      // Cold: nothing cached in the browser yet. Then warm loads, as when coming back to the board.
      const cold = await loadBoard(page, boardId);
      const warm: Load[] = [];
      for (let i = 0; i < WARM_LOADS; i++) warm.push(await loadBoard(page, boardId));
      log(
        `first cards painted ${cold.painted.toFixed(0)} ms cold, ${warm.map((w) => w.painted.toFixed(0)).join(' / ')} ms warm; ` +
          `all tiles in the page ${cold.complete.toFixed(0)} ms cold, ${warm.map((w) => w.complete.toFixed(0)).join(' / ')} ms warm`,
      );
      const drag = await dragAndMeasure(page);
      const lanes: Load[] = [];
      for (let i = 0; i < WARM_LOADS; i++) lanes.push(await loadBoard(page, boardId, '?lanes=assignee'));
      log(
        `with lanes by assignee: first cards painted ${lanes.map((l) => l.painted.toFixed(0)).join(' / ')} ms, ` +
          `all tiles in their lanes ${lanes.map((l) => l.complete.toFixed(0)).join(' / ')} ms (warm)`,
      );
      log(
        `drag across 400-card areas: ${drag.frames} frames, median ${drag.medianFrame.toFixed(1)} ms, p95 ${drag.p95Frame.toFixed(1)} ms, ` +
          `longest ${drag.longestFrame.toFixed(1)} ms, long tasks ${drag.longTasks}; drop to the next paint ${drag.dropToPlaced.toFixed(0)} ms`,
      );
      const loads = [cold, ...warm].map((l) => l.painted);
      const seconds = (performance.now() - started) / 1000;
      const result: LoadResult = {
        connections: 1,
        seconds,
        total: loads.length,
        requestsPerSecond: loads.length / seconds,
        latency: latencySummary(loads),
        non2xx: 0,
        statusCodes: {},
        errors: 0,
        timeouts: 0,
        window: { startUs, endUs: Number(process.hrtime.bigint() / 1000n) },
      };
      figures.set(result, { cold, warm, drag, lanes });
      return result;
    } finally {
      await browser.close();
    }
  },

  async verify({ api }, { areaIds }, result) {
    const f = figures.get(result);
    if (!f) return [check('the run recorded its figures', false, 'none recorded')];
    const short = [f.cold, ...f.warm, ...f.lanes].filter((l) => l.tiles < CARDS);
    const third = await api.listCards(areaIds[2]!);
    const dropped = third.findIndex((c) => String(c.id) === f.drag.cardId);
    return [
      check(
        `every load put all ${CARDS.toLocaleString('en')} cards in the page`,
        short.length === 0,
        short.length === 0 ? `${1 + f.warm.length + f.lanes.length} loads` : `${short.map((l) => l.tiles).join(', ')} tiles`,
      ),
      check(
        'the dragged card is stored in the third area',
        dropped >= 0,
        dropped >= 0 ? `at position ${dropped}` : `card ${f.drag.cardId} not among its ${third.length} cards`,
      ),
    ];
  },
};

/** Navigates to the board; answers when the first cards of every area were painted and when all the tiles were in the page. */
async function loadBoard(page: Page, boardId: number, search = ''): Promise<Load> {
  await openBoard(page, boardId, search);
  const complete = await page.waitForFunction(
    (total) => (document.querySelectorAll('[data-card-id]').length >= total ? performance.now() : false),
    CARDS,
    { polling: 'raf' },
  );
  const painted = await page.evaluate(() => performance.getEntriesByName('tavla:cards-painted')[0]!.startTime);
  const tiles = await page.locator('[data-card-id]').count();
  return { painted, complete: (await complete.jsonValue()) as number, tiles };
}

/** Drags the third card of the first area onto the fourth of the third, recording every frame's time in the page. */
async function dragAndMeasure(page: Page): Promise<Drag> {
  // A string, not a function: tsx names a function kept in a variable with a helper (`__name`) the page lacks.
  await page.evaluate(`
    window.__frames = [];
    window.__longTasks = 0;
    window.__stop = false;
    new PerformanceObserver((list) => (window.__longTasks += list.getEntries().length)).observe({ type: 'longtask' });
    let last = performance.now();
    requestAnimationFrame(function tick(now) {
      window.__frames.push(now - last);
      last = now;
      if (!window.__stop) requestAnimationFrame(tick);
    });
  `);
  const areas = page.locator('section[data-area-id]');
  const source = areas.nth(0).locator('[data-card-id]').nth(2);
  const cardId = (await source.getAttribute('data-card-id'))!;
  const from = (await source.boundingBox())!;
  const target = (await areas.nth(2).locator('[data-card-id]').nth(3).boundingBox())!;
  // The Event Timing API measures the drop from the event to the next paint after its handlers ran.
  await dragByMouse(page, from, target, () =>
    page.evaluate(() => {
      const w = window as unknown as { __drop?: number };
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) if (entry.name === 'drop') w.__drop = entry.duration;
      }).observe({ type: 'event', durationThreshold: 16, buffered: true } as PerformanceObserverInit);
    }),
  );
  await page.waitForFunction(
    (id) => document.querySelectorAll('section[data-area-id]')[2]!.querySelector(`[data-card-id="${id}"]`) !== null,
    cardId,
  );
  // The Event Timing entry is reported after the next paint: wait for it, or for 2 s (then the drop took under 16 ms).
  await page
    .waitForFunction(() => (window as unknown as { __drop?: number }).__drop !== undefined, undefined, { timeout: 2_000 })
    .catch(() => undefined);
  // Under 16 ms the API reports nothing: a drop that fast counts as one frame.
  const dropToPlaced = await page.evaluate(() => (window as unknown as { __drop?: number }).__drop ?? 16);
  const { frames, longTasks } = await page.evaluate(() => {
    const w = window as unknown as { __frames: number[]; __longTasks: number; __stop: boolean };
    w.__stop = true;
    return { frames: w.__frames.slice(1), longTasks: w.__longTasks };
  });
  const sorted = [...frames].sort((a, b) => a - b);
  return {
    cardId,
    frames: sorted.length,
    medianFrame: percentile(sorted, 50),
    p95Frame: percentile(sorted, 95),
    longestFrame: sorted.at(-1) ?? 0,
    longTasks,
    dropToPlaced,
  };
}
