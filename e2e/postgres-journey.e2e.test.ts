import type { Locator, Page } from 'playwright-core';
import { expect, test } from 'vitest';
import { describeE2E } from './use-e2e.js';

const area = (page: Page, name: string): Locator =>
  page.locator('section[data-area-id]').filter({ has: page.getByRole('heading', { name, exact: true }) });
const tile = (scope: Page | Locator, name: string): Locator => scope.locator('[data-card-id]').filter({ hasText: name });
const cardNames = (scope: Locator) => scope.locator('[data-card-id] .card-name').allInnerTexts();

/**
 * The journey most users take, against PostgreSQL: the browser tests
 * otherwise run on SQLite, and what the web app sees must not depend on it.
 */
describeE2E('a user journey on PostgreSQL', { dialect: 'postgres' }, (e2e) => {
  test('sign up, make a board with areas and cards, drag a card, and find it there after a reload', async () => {
    const { page, context } = await e2e.newPage();
    await page.goto('/');
    await page.waitForURL('**/sign-in');
    await page.getByRole('link', { name: 'Create an account' }).click();
    await page.getByLabel('Name').fill('Paula Postgres');
    await page.getByLabel('E-mail address').fill('paula@example.test');
    await page.getByLabel('Password').fill('correct horse battery');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('heading', { name: 'Your boards' }).waitFor();

    await page.getByRole('button', { name: 'New board' }).first().click();
    await page.getByLabel('Name', { exact: true }).fill('Move house');
    await page.getByRole('button', { name: 'Create board' }).click();
    await page.waitForURL(/\/board\/\d+$/);
    const boardId = Number(new URL(page.url()).pathname.split('/').pop());

    for (const name of ['Pack', 'Load', 'Unpack']) {
      await page.getByLabel('Area name').fill(name);
      await page.getByLabel('Area name').press('Enter');
      await area(page, name).waitFor();
    }
    await area(page, 'Pack').getByRole('button', { name: 'Add card' }).click();
    for (const name of ['Books', 'Kitchen', 'Plants']) {
      await page.getByLabel('Card name').fill(name);
      await page.getByLabel('Card name').press('Enter');
    }
    await page.getByLabel('Card name').press('Escape');
    await expect.poll(() => cardNames(area(page, 'Pack'))).toEqual(['Books', 'Kitchen', 'Plants']);
    // Every card has its server id: none is still waiting for its answer.
    await expect.poll(() => page.locator('[data-card-id^="-"]').count()).toBe(0);

    // Kitchen to the top of Load, then Plants above it.
    await tile(page, 'Kitchen').dragTo(area(page, 'Load').locator('.area-header'), { targetPosition: { x: 60, y: 36 } });
    await expect.poll(() => cardNames(area(page, 'Load'))).toEqual(['Kitchen']);
    await tile(page, 'Plants').dragTo(tile(page, 'Kitchen'), { targetPosition: { x: 40, y: 4 } });
    await expect.poll(() => cardNames(area(page, 'Load'))).toEqual(['Plants', 'Kitchen']);

    await page.reload();
    await expect.poll(() => cardNames(area(page, 'Pack'))).toEqual(['Books']);
    await expect.poll(() => cardNames(area(page, 'Load'))).toEqual(['Plants', 'Kitchen']);
    expect(await cardNames(area(page, 'Unpack'))).toEqual([]);
    // Stored in PostgreSQL in that order, not only drawn.
    const rows = await e2e.server.db
      .selectFrom('cards')
      .innerJoin('areas', 'areas.id', 'cards.areaId')
      .select(['cards.name', 'areas.name as area'])
      .where('cards.boardId', '=', boardId)
      .orderBy('areas.sort')
      .orderBy('cards.sort')
      .execute();
    expect(e2e.server.dialect).toBe('postgres');
    expect(rows).toEqual([
      { name: 'Books', area: 'Pack' },
      { name: 'Plants', area: 'Load' },
      { name: 'Kitchen', area: 'Load' },
    ]);
    await context.close();
  }, 120_000);
});
