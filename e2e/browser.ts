import { existsSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

/** What the browser tests and the paint benchmark share; nothing here needs the test runner. */

export const CHROMIUM = '/usr/bin/chromium';

/** The browser tests run where Chromium is installed; in CI its absence is a failure, not a skip. */
export const browserTestsEnabled = existsSync(CHROMIUM) || Boolean(process.env.CI);

/** The one line a run prints when it skips the browser tests, so that they are not mistaken for passing ones; else null. */
export function skippedNotice(enabled: boolean): string | null {
  if (enabled) return null;
  return `Browser tests (e2e/) skipped: no Chromium at ${CHROMIUM}. Install it to run them (Debian: apt-get install -y chromium).`;
}

/** Debian's Chromium, headless, with what it tries to fetch or set up on first run turned off (no network here). */
export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
  });
}

export async function newPage(
  browser: Browser,
  baseUrl: string,
  width = 1400,
  height = 900,
  colorScheme: 'light' | 'dark' = 'light',
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL: baseUrl, viewport: { width, height }, deviceScaleFactor: 1, colorScheme });
  const page = await context.newPage();
  // Waits poll and end as soon as the state is there; the limit only matters when two test files share two cores.
  page.setDefaultTimeout(20_000);
  page.on('pageerror', (error) => console.error('[page error]', error.message));
  return { context, page };
}

/** A session cookie (`name=value`, as an API user or the bench's account holds it), for a browser context. */
export function cookieFor(user: { cookie: string }, baseUrl: string) {
  const [name, ...rest] = user.cookie.split('=');
  return { name: name!, value: rest.join('='), url: baseUrl };
}

/**
 * Opens a board and waits until the app has painted the first cards of every area (its `tavla:cards-painted` mark,
 * which the app makes only when a test sets `window.__tavlaPaintMark` before it loads: src/web/features/board/PaintMark.tsx).
 */
export async function openBoard(page: Page, boardId: number, search = ''): Promise<void> {
  await page.addInitScript('window.__tavlaPaintMark = true');
  await page.goto(`/board/${boardId}${search}`, { waitUntil: 'commit' });
  await page.waitForFunction(() => performance.getEntriesByName('tavla:cards-painted').length > 0);
}

type Box = { x: number; y: number };

/**
 * A mouse drag in 40 small steps, as a hand makes it, from near the top left
 * of one tile onto the upper part of another; `beforeDrop` runs with the
 * button still down.
 */
export async function dragByMouse(page: Page, from: Box, to: Box, beforeDrop?: () => Promise<void>): Promise<void> {
  await page.mouse.move(from.x + 30, from.y + 10);
  await page.mouse.down();
  const steps = 40;
  for (let i = 1; i <= steps; i++) {
    await page.mouse.move(from.x + 30 + ((to.x - from.x) * i) / steps, from.y + 10 + ((to.y + 5 - (from.y + 10)) * i) / steps);
  }
  await beforeDrop?.();
  await page.mouse.up();
}
