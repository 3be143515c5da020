import { expect, test } from 'vitest';
import { cookieFor } from './support.js';
import { describeE2E } from './use-e2e.js';

/**
 * The interface language: the account's, else the browser's, else the
 * instance's; dates follow it.
 */
describeE2E('languages', { env: { LANGUAGE: 'de' } }, (e2e) => {
  const open = async (locale: string) => {
    const context = await e2e.browser.newContext({ baseURL: e2e.base, locale, viewport: { width: 1200, height: 800 } });
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
    const ada = await e2e.seed.user('Ada Lovelace');
    await ada.call('POST', '/api/auth/update-user', { language: 'fr' });
    const board = await e2e.seed.board(ada, 'Calendrier');
    const area = await e2e.seed.area(ada, board.id, 'Mars');
    const due = new Date(new Date().getFullYear(), 2, 21, 0, 0, 0);
    await e2e.seed.card(ada, area.id, 'Printemps', { dueDate: due.toISOString() });

    const { context, page } = await open('en-US');
    await context.addCookies([cookieFor(ada, e2e.base)]);
    await page.goto('/');
    await page.getByRole('heading', { name: 'Vos tableaux' }).waitFor();
    await page.goto(`/board/${board.id}`);
    const tile = page.locator('[data-card-id]').filter({ hasText: 'Printemps' });
    // French writes the day first and the month in lower case: "21 mars", never "Mar 21".
    await expect.poll(() => tile.innerText()).toContain('21 mars');
    await context.close();
  });
});
