import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import type { Server } from './support.js';

/*
 * The steps of the user journey, shared by the journey on SQLite and the one
 * on PostgreSQL: what a user does through the page, and what is then stored.
 */

export const area = (page: Page, name: string): Locator =>
  page.locator('section[data-area-id]').filter({ has: page.getByRole('heading', { name, exact: true }) });
export const tile = (scope: Page | Locator, name: string): Locator => scope.locator('[data-card-id]').filter({ hasText: name });
export const cardNames = (scope: Locator) => scope.locator('[data-card-id] .card-name').allInnerTexts();

/** From the signed-out start page, through the sign-up form, to the dashboard. */
export async function signUpThroughForm(page: Page, name: string, email: string): Promise<void> {
  await page.goto('/');
  await page.waitForURL('**/sign-in');
  await page.getByRole('link', { name: 'Create an account' }).click();
  await page.getByLabel('Name').fill(name);
  await page.getByLabel('E-mail address').fill(email);
  await page.getByLabel('Password').fill('correct horse battery');
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.getByRole('heading', { name: 'Your boards' }).waitFor();
}

/** A board made from the dashboard, with its areas typed in; answers the board's id. */
export async function createBoardWithAreas(page: Page, name: string, areas: string[]): Promise<number> {
  await page.getByRole('button', { name: 'New board' }).first().click();
  await page.getByLabel('Name', { exact: true }).fill(name);
  await page.getByRole('button', { name: 'Create board' }).click();
  await page.waitForURL(/\/board\/\d+$/);
  const boardId = Number(new URL(page.url()).pathname.split('/').pop());
  for (const areaName of areas) {
    await page.getByLabel('Area name').fill(areaName);
    await page.getByLabel('Area name').press('Enter');
    await area(page, areaName).waitFor();
  }
  return boardId;
}

/** Cards typed in at the bottom of an area, until each shows with its server id (none still waits for its answer). */
export async function addCards(page: Page, areaName: string, names: string[]): Promise<void> {
  await area(page, areaName).getByRole('button', { name: 'Add card' }).click();
  for (const name of names) {
    await page.getByLabel('Card name').fill(name);
    await page.getByLabel('Card name').press('Enter');
  }
  await page.getByLabel('Card name').press('Escape');
  await expect.poll(() => cardNames(area(page, areaName))).toEqual(names);
  await expect.poll(() => page.locator('[data-card-id^="-"]').count()).toBe(0);
}

/** The board's cards as stored, in the order of their areas and then their own. */
export function storedCards(server: Server, boardId: number): Promise<Array<{ name: string; area: string }>> {
  return server.db
    .selectFrom('cards')
    .innerJoin('areas', 'areas.id', 'cards.areaId')
    .select(['cards.name', 'areas.name as area'])
    .where('cards.boardId', '=', boardId)
    .orderBy('areas.sort')
    .orderBy('cards.sort')
    .execute();
}
