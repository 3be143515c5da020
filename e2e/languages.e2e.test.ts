import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { apiUser, browserTestsEnabled, cookieFor, launchBrowser, startServer, type Server } from './support.js';

/**
 * The interface language: the account's, else the browser's, else the
 * instance's; dates follow it.
 */
describe.runIf(browserTestsEnabled)('languages', () => {
  let server: Server;
  let browser: Browser;

  beforeAll(async () => {
    server = await startServer({ LANGUAGE: 'de' });
    browser = await launchBrowser();
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const open = async (locale: string) => {
    const context = await browser.newContext({ baseURL: server.baseUrl, locale, viewport: { width: 1200, height: 800 } });
    const page = await context.newPage();
    page.setDefaultTimeout(10_000);
    return { context, page };
  };

  test("a browser in a language the app lacks gets the instance's language", async () => {
    const { context, page } = await open('ja-JP');
    await page.goto('/sign-in');
    await page.getByRole('heading', { name: 'Anmelden' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('de');
    await context.close();
  });

  test('a browser in a language the app has gets that one', async () => {
    const { context, page } = await open('pl-PL');
    await page.goto('/sign-in');
    await page.getByRole('heading', { name: 'Zaloguj się' }).waitFor();
    await context.close();
  });

  test("the account's language wins over the browser's, and dates are written its way", async () => {
    const ada = await apiUser(server, 'Ada Lovelace');
    await ada.call('POST', '/api/auth/update-user', { language: 'fr' });
    const { board } = await ada.call<{ board: { id: number } }>('POST', '/api/data/board', {
      userId: ada.id,
      name: 'Calendrier',
      style: 'kanban',
      status: 'private',
    });
    const { area } = await ada.call<{ area: { id: number } }>('POST', '/api/data/area', { boardId: board.id, name: 'Mars' });
    const { card } = await ada.call<{ card: { id: number } }>('POST', '/api/data/card', { areaId: area.id, name: 'Printemps' });
    const due = new Date(new Date().getFullYear(), 2, 21, 0, 0, 0);
    await ada.call('PUT', '/api/data/card', { cardID: card.id, dueDate: due.toISOString() });

    const { context, page } = await open('en-US');
    await context.addCookies([cookieFor(ada, server.baseUrl)]);
    await page.goto('/');
    await page.getByRole('heading', { name: 'Vos tableaux' }).waitFor();
    await page.goto(`/board/${board.id}`);
    const tile = page.locator('[data-card-id]').filter({ hasText: 'Printemps' });
    // French writes the day first and the month in lower case: "21 mars", never "Mar 21".
    await expect.poll(() => tile.innerText()).toContain('21 mars');
    await context.close();
  });
});
