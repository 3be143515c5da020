import type { Locator, Page } from 'playwright-core';
import { expect, test } from 'vitest';
import { accessibilityProblems, screenshot, settle, type ApiUser } from './support.js';
import { describeE2E } from './use-e2e.js';

const column = (page: Page, name: string): Locator =>
  page.locator('section[data-area-id]').filter({ has: page.getByRole('heading', { name, exact: true }) });
const cardNames = (scope: Locator) => scope.locator('[data-card-id] .card-name').allInnerTexts();
const section = (page: Page, name: string): Locator =>
  page.locator('section').filter({ has: page.getByRole('heading', { name: new RegExp(`^${name}\\b`) }) });
const rowNames = (scope: Locator) => scope.locator('.archive-row-name').allInnerTexts();

describeE2E('the archive screens', (e2e) => {
  const makeBoard = async (user: ApiUser, name: string): Promise<number> => (await e2e.seed.board(user, name)).id;
  /** An area holding the named cards, with their ids by name. */
  const makeArea = async (user: ApiUser, boardId: number, name: string, cards: string[]) => {
    const area = await e2e.seed.area(user, boardId, name);
    const ids: Record<string, number> = {};
    for (const card of cards) ids[card] = (await e2e.seed.card(user, area.id, card)).id;
    return { id: area.id as number, cards: ids };
  };

  /** A request's status, for the answers `call` would throw on. */
  const status = async (user: ApiUser, url: string) =>
    (await fetch(`${e2e.base}${url}`, { headers: { cookie: user.cookie, origin: e2e.base } })).status;

  test("a board's archive: a restored card returns to its place, an area is deleted for good, changes arrive live", async () => {
    const ada = await e2e.seed.user('Ada Archivist');
    const boardId = await makeBoard(ada, 'Release');
    const todo = await makeArea(ada, boardId, 'To do', ['Write notes', 'Tag the build', 'Publish', 'Announce']);
    const doing = await makeArea(ada, boardId, 'Doing', ['Fix the login', 'Review docs']);
    const later = await makeArea(ada, boardId, 'Later', ['Dark mode', 'Offline use']);

    // The second card of four goes to the archive, and so does a whole area with its two cards.
    await ada.call('DELETE', '/api/data/card', { cardID: todo.cards['Tag the build'], permanent: false });
    await ada.call('DELETE', `/api/data/area?id=${later.id}&boardId=${boardId}`);

    const { page, context } = await e2e.newPage({ as: ada });
    await page.goto(`/board/${boardId}`);
    await expect.poll(() => cardNames(column(page, 'To do'))).toEqual(['Write notes', 'Publish', 'Announce']);
    expect(await column(page, 'Later').count()).toBe(0);

    // The board's menu leads to its archive.
    await page.getByRole('button', { name: 'Board menu' }).click();
    await page.getByRole('menuitem', { name: 'Archive' }).click();
    await page.waitForURL(`**/board/${boardId}/archive`);
    await page.getByRole('heading', { name: 'Archive of “Release”', level: 1 }).waitFor();

    const areas = section(page, 'Areas');
    const cards = section(page, 'Cards');
    await expect.poll(() => rowNames(areas)).toEqual(['Later']);
    await expect.poll(() => rowNames(cards)).toEqual(['Tag the build']);
    const laterRow = areas.locator('.archive-row').filter({ hasText: 'Later' });
    await laterRow.getByText('2 cards').waitFor();
    await laterRow.locator('time').waitFor();
    await cards.getByText('Returns to “To do”').waitFor();

    // Someone archives a card through the API while the page is open: it shows up without a reload.
    await ada.call('DELETE', '/api/data/card', { cardID: doing.cards['Fix the login'], permanent: false });
    await expect.poll(() => rowNames(cards), { timeout: 3000 }).toEqual(['Fix the login', 'Tag the build']);
    await cards.getByText('Returns to “Doing”').waitFor();

    expect(await accessibilityProblems(page, 'board archive')).toEqual([]);
    await settle(page);
    await screenshot(page, 'archive-board-1400');
    await page.setViewportSize({ width: 390, height: 844 });
    await settle(page);
    await screenshot(page, 'archive-board-390');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.setViewportSize({ width: 1400, height: 900 });

    // Restore the card: a toast, and it leaves the list.
    await page.getByRole('button', { name: 'Restore “Tag the build”' }).click();
    await page.getByText('“Tag the build” is back on the board.').waitFor();
    await expect.poll(() => rowNames(cards)).toEqual(['Fix the login']);

    // Delete the area for good: the confirmation says exactly what goes; cancelling keeps it.
    await page.getByRole('button', { name: 'Delete permanently “Later”' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete for good?' });
    await dialog
      .getByText(
        'The area “Later” and its 2 cards, with their comments and attachments, will be deleted for good. This cannot be undone.',
      )
      .waitFor();
    expect(await accessibilityProblems(page, 'board archive, confirmation')).toEqual([]);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    expect(await status(ada, `/api/data/cards?areaId=${later.id}`)).toBe(200);

    await page.getByRole('button', { name: 'Delete permanently “Later”' }).click();
    await dialog.getByRole('button', { name: 'Delete permanently' }).click();
    await page.getByText('“Later” was deleted for good.').waitFor();
    await areas.getByText('No archived areas.').waitFor();

    // Gone through the API too: not in the archive, its cards unreadable.
    const archive = await ada.call<{ areas: { id: number }[]; cards: { id: number }[] }>(
      'GET',
      `/api/data/archive?boardId=${boardId}`,
    );
    expect(archive.areas).toEqual([]);
    expect(archive.cards.map((c) => c.id)).toEqual([doing.cards['Fix the login']]);
    expect(await status(ada, `/api/data/cards?areaId=${later.id}`)).toBe(404);
    expect(await status(ada, `/api/data/card?cardID=${later.cards['Dark mode']}`)).toBe(404);

    // Back on the board (no reload), the card is in its old place, second of four.
    await page.getByRole('link', { name: 'Back to Release' }).click();
    await page.waitForURL(`**/board/${boardId}`);
    await expect.poll(() => cardNames(column(page, 'To do'))).toEqual(['Write notes', 'Tag the build', 'Publish', 'Announce']);
    await expect.poll(() => cardNames(column(page, 'Doing'))).toEqual(['Review docs']);
    expect(await column(page, 'Later').count()).toBe(0);

    await context.close();
  }, 120_000);

  test('archived boards: restore one to the dashboard, delete another for good', async () => {
    const ada = await e2e.seed.user('Ada Owner');
    await makeBoard(ada, 'Current work');
    const oldPlans = await makeBoard(ada, 'Old plans');
    const ancient = await makeBoard(ada, 'Ancient history');
    await makeArea(ada, ancient, 'Ideas', ['One', 'Two']);
    await ada.call('DELETE', `/api/data/board?id=${oldPlans}&userId=${ada.id}`);
    await ada.call('DELETE', `/api/data/board?id=${ancient}&userId=${ada.id}`);

    const { page, context } = await e2e.newPage({ as: ada });
    await page.goto('/');
    await page.getByRole('link', { name: /Current work/ }).waitFor();
    expect(await page.getByRole('link', { name: /Old plans/ }).count()).toBe(0);

    // The account menu leads to the archived boards.
    await page.getByRole('button', { name: 'Account' }).click();
    await page.getByRole('menuitem', { name: 'Archived boards' }).click();
    await page.waitForURL('**/archive');
    await page.getByRole('heading', { name: 'Archived boards', level: 1 }).waitFor();
    const list = section(page, 'Boards');
    await expect.poll(() => rowNames(list)).toEqual(['Ancient history', 'Old plans']);
    await expect.poll(() => list.locator('time').count()).toBe(2);

    expect(await accessibilityProblems(page, 'archived boards')).toEqual([]);
    await settle(page);
    await screenshot(page, 'archive-boards-1400');
    await page.setViewportSize({ width: 390, height: 844 });
    await settle(page);
    await screenshot(page, 'archive-boards-390');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.setViewportSize({ width: 1400, height: 900 });

    await page.getByRole('button', { name: 'Restore “Old plans”' }).click();
    await page.getByText('“Old plans” is back on your dashboard.').waitFor();
    await expect.poll(() => rowNames(list)).toEqual(['Ancient history']);

    await page.getByRole('button', { name: 'Delete permanently “Ancient history”' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete for good?' });
    await dialog
      .getByText(
        'The board “Ancient history”, with all its areas, cards, comments and files, will be deleted for good. This cannot be undone.',
      )
      .waitFor();
    await dialog.getByRole('button', { name: 'Delete permanently' }).click();
    await page.getByText('You have no archived boards.').waitFor();
    // The list empties before the toast comes: checked mid fade-in, its contrast would fail by chance.
    await page.getByText('“Ancient history” was deleted for good.').waitFor();
    expect(await accessibilityProblems(page, 'archived boards, empty')).toEqual([]);
    expect(await status(ada, `/api/data/board?id=${ancient}&userId=${ada.id}`)).toBe(404);
    const archived = await ada.call<{ boards: unknown[] }>('GET', '/api/data/archive');
    expect(archived.boards).toEqual([]);

    // The restored board is on the dashboard again (no reload).
    await page.getByRole('link', { name: 'Back to your boards' }).click();
    await page.getByRole('link', { name: /Old plans/ }).waitFor();
    expect(await page.getByRole('link', { name: /Ancient history/ }).count()).toBe(0);

    await context.close();
  }, 120_000);

  test('a read-only member is told the archive is not theirs to change', async () => {
    const owner = await e2e.seed.user('Olive Owner');
    const reader = await e2e.seed.user('Rita Reader');
    const boardId = await makeBoard(owner, 'Shared plans');
    const area = await makeArea(owner, boardId, 'Ideas', ['Kept', 'Put away']);
    await owner.call('DELETE', '/api/data/card', { cardID: area.cards['Put away'], permanent: false });
    await e2e.seed.invite(owner, boardId, reader, 'read');

    const { page, context } = await e2e.newPage({ as: reader });
    await page.goto(`/board/${boardId}/archive`);
    await page.getByText(/You can view this board but not change it/).waitFor();
    await page.getByRole('link', { name: 'Back to Shared plans' }).waitFor();
    expect(await page.getByRole('button', { name: /Restore/ }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /Delete permanently/ }).count()).toBe(0);
    expect(await page.getByText('Put away').count()).toBe(0);
    expect(await accessibilityProblems(page, 'board archive, read-only')).toEqual([]);

    // An edit member gets the archive.
    await e2e.seed.invite(owner, boardId, reader, 'edit');
    await page.reload();
    await page.getByRole('button', { name: 'Restore “Put away”' }).waitFor();

    await context.close();
  }, 60_000);
});
