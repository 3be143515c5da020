import type { Locator, Page } from 'playwright-core';
import { expect, test } from 'vitest';
import { accessibilityProblems, screenshot, settle, type ApiUser } from './support.js';
import { describeE2E, type E2E } from './use-e2e.js';

const column = (page: Page, name: string): Locator =>
  page.locator('section[data-area-id]').filter({ has: page.getByRole('heading', { name, exact: true }) });
const cardNames = (scope: Locator) => scope.locator('[data-card-id] .card-name').allInnerTexts();
const toast = (page: Page, text: string | RegExp): Locator => page.locator('.toast').filter({ hasText: text });

interface ApiCard {
  id: number;
  name: string;
  area: number;
  sort: number;
  status: number;
  archivedAt: string | null;
}

// Undo goes through the normal API, so it runs on both databases (PostgreSQL when TEST_DATABASE_URL names one).
describeE2E('undo and redo on the board', (e2e) => undoSuite(e2e));
describeE2E('undo and redo on the board', { dialect: 'postgres' }, (e2e) => undoSuite(e2e));

function undoSuite(e2e: E2E): void {
  const card = async (user: ApiUser, id: number) =>
    (await user.call<{ card: ApiCard }>('GET', `/api/data/card?cardID=${id}`)).card;

  /** Presses a key with nothing focused but the page (not a text field: there the keys are the browser's own). */
  const pressOnBoard = async (page: Page, keys: string) => {
    await page.locator('.board-title').click();
    await page.keyboard.press(keys);
  };

  /** Renames a card through its dialog's title, as a person does, and waits for the server to have it. */
  const renameInDialog = async (page: Page, user: ApiUser, id: number, name: string) => {
    await page.getByRole('button', { name: 'Rename the card' }).click();
    const input = page.getByRole('dialog').getByLabel('Card name');
    await input.fill(name);
    await input.press('Enter');
    await expect.poll(async () => (await card(user, id)).name).toBe(name);
  };

  test('a move to another area is undone from its toast; Ctrl+Z, Ctrl+Shift+Z and Ctrl+Y undo and redo a rename, and the server keeps it', async () => {
    const ada = await e2e.seed.user('Ada Undo');
    const { board, areas, cards } = await e2e.seed.boardWith(ada, 'Launch', { 'To do': ['Draft', 'Polish'], Done: [] });
    const draft = cards['Draft']!.id as number;
    const { page, context } = await e2e.newPage({ as: ada });
    await page.goto(`/board/${board.id}`);
    await expect.poll(() => cardNames(column(page, 'To do'))).toEqual(['Draft', 'Polish']);

    // Move with the keyboard: M on the tile, the Done area, Move.
    await page.locator(`[data-card-id="${draft}"]`).focus();
    await page.keyboard.press('m');
    const dialog = page.getByRole('dialog', { name: 'Move “Draft”' });
    await dialog.getByLabel('Area').selectOption({ label: 'Done' });
    await dialog.getByRole('button', { name: 'Move' }).click();
    await expect.poll(async () => (await card(ada, draft)).area).toBe(areas['Done']!.id);

    const moved = toast(page, '“Draft” moved to Done');
    await moved.waitFor();
    expect(await accessibilityProblems(page, 'board with the move toast')).toEqual([]);
    await settle(page);
    await screenshot(page, 'undo-move-toast-1400');
    await page.setViewportSize({ width: 390, height: 844 });
    await settle(page);
    await screenshot(page, 'undo-move-toast-390');
    expect(await accessibilityProblems(page, 'board with the move toast, 390 px')).toEqual([]);
    await page.setViewportSize({ width: 1400, height: 900 });

    // The toast's Undo puts it back where it was: first in To do.
    await moved.getByRole('button', { name: 'Undo' }).click();
    await expect.poll(async () => (await card(ada, draft)).area).toBe(areas['To do']!.id);
    expect((await card(ada, draft)).sort).toBe(0);
    await expect.poll(() => cardNames(column(page, 'To do'))).toEqual(['Draft', 'Polish']);

    // Rename in the dialog, close it, and undo with the keys.
    await page.locator(`[data-card-id="${draft}"]`).click();
    await renameInDialog(page, ada, draft, 'Draft v2');
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);

    // In a text field the keys are the browser's own: Ctrl+Z in the new-card box leaves the board alone
    // (had it undone the rename, the redo below would find something to redo).
    const todo = column(page, 'To do');
    await todo.getByRole('button', { name: 'Add card' }).click();
    await todo.getByLabel('Card name').fill('half typed');
    await todo.getByLabel('Card name').press('Control+z');
    await todo.getByLabel('Card name').press('Escape');
    await pressOnBoard(page, 'Control+Shift+z');
    await toast(page, 'Nothing to redo on this board').waitFor();
    expect((await card(ada, draft)).name).toBe('Draft v2');

    await pressOnBoard(page, 'Control+z');
    await expect.poll(async () => (await card(ada, draft)).name).toBe('Draft');
    await pressOnBoard(page, 'Control+Shift+z');
    await expect.poll(async () => (await card(ada, draft)).name).toBe('Draft v2');
    await pressOnBoard(page, 'Control+z');
    await expect.poll(async () => (await card(ada, draft)).name).toBe('Draft');
    await pressOnBoard(page, 'Control+y');
    await expect.poll(async () => (await card(ada, draft)).name).toBe('Draft v2');
    await pressOnBoard(page, 'Control+z');
    await expect.poll(async () => (await card(ada, draft)).name).toBe('Draft');

    // The move was undone by its toast already: nothing is left to undo.
    await pressOnBoard(page, 'Control+z');
    await toast(page, 'Nothing to undo on this board').waitFor();

    // The server has it: after a reload the old name shows.
    await page.reload();
    await expect.poll(() => cardNames(column(page, 'To do'))).toEqual(['Draft', 'Polish']);
    await context.close();
  }, 120_000);

  test('an archive is undone from its toast, a new card by Ctrl+Z, and redo brings it back', async () => {
    const ada = await e2e.seed.user('Ada Archive');
    const { board, cards } = await e2e.seed.boardWith(ada, 'Chores', { Now: ['Dishes', 'Laundry'] });
    const dishes = cards['Dishes']!.id as number;
    const { page, context } = await e2e.newPage({ as: ada });
    await page.goto(`/board/${board.id}`);
    await expect.poll(() => cardNames(column(page, 'Now'))).toEqual(['Dishes', 'Laundry']);

    await page.locator(`[data-card-id="${dishes}"]`).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Card actions' }).click();
    await page.getByRole('menuitem', { name: 'Archive' }).click();
    await expect.poll(async () => (await card(ada, dishes)).archivedAt).not.toBeNull();
    const archived = toast(page, '“Dishes” was archived.');
    await archived.getByRole('button', { name: 'Undo' }).click();
    await expect.poll(async () => (await card(ada, dishes)).archivedAt).toBeNull();
    await expect.poll(() => cardNames(column(page, 'Now'))).toEqual(['Dishes', 'Laundry']);

    // A card added here: Ctrl+Z archives it, Ctrl+Shift+Z brings it back.
    const now = column(page, 'Now');
    await now.getByRole('button', { name: 'Add card' }).click();
    await now.getByLabel('Card name').fill('Groceries');
    await now.getByLabel('Card name').press('Enter');
    await expect.poll(() => cardNames(now)).toEqual(['Dishes', 'Laundry', 'Groceries']);
    await expect.poll(() => now.locator('[data-card-id].pending').count()).toBe(0);
    await page.keyboard.press('Escape');
    await pressOnBoard(page, 'Control+z');
    await expect.poll(() => cardNames(now)).toEqual(['Dishes', 'Laundry']);
    await pressOnBoard(page, 'Meta+Shift+z');
    await expect.poll(() => cardNames(now)).toEqual(['Dishes', 'Laundry', 'Groceries']);
    const listed = await ada.call<{ cards: ApiCard[] }>('GET', `/api/data/cards?areaId=${cards['Laundry']!.area as number}`);
    expect(listed.cards.map((c) => c.name)).toEqual(['Dishes', 'Laundry', 'Groceries']);
    await context.close();
  }, 120_000);

  test('someone else changed the card since: nothing is overwritten, the toast names them, and the history stops', async () => {
    const ada = await e2e.seed.user('Ada Owner');
    const ben = await e2e.seed.user('Ben Builder');
    const { board, cards } = await e2e.seed.boardWith(ada, 'Shared', { Ideas: ['Alpha', 'Beta'] });
    await e2e.seed.invite(ada, board.id as number, ben, 'edit');
    const alpha = cards['Alpha']!.id as number;
    const beta = cards['Beta']!.id as number;
    const { page, context } = await e2e.newPage({ as: ada, colorScheme: 'dark' });
    await page.goto(`/board/${board.id}`);
    await expect.poll(() => cardNames(column(page, 'Ideas'))).toEqual(['Alpha', 'Beta']);

    await page.locator(`[data-card-id="${beta}"]`).click();
    await renameInDialog(page, ada, beta, 'Beta 2');
    await page.keyboard.press('Escape');
    await page.locator(`[data-card-id="${alpha}"]`).click();
    await renameInDialog(page, ada, alpha, 'Alpha 2');
    await page.keyboard.press('Escape');

    // Ben renames Alpha again (another browser, here his API session); Ada's page hears of it.
    await ben.call('PUT', '/api/data/card', { cardID: alpha, name: 'Alpha by Ben' });
    await expect.poll(() => cardNames(column(page, 'Ideas'))).toEqual(['Alpha by Ben', 'Beta 2']);

    await pressOnBoard(page, 'Control+z');
    const stopped = toast(page, 'Ben Builder changed this since — undo stopped');
    await stopped.waitFor();
    expect(await accessibilityProblems(page, 'board with the undo-stopped toast, dark')).toEqual([]);
    await screenshot(page, 'undo-stopped-toast-1400-dark');
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await accessibilityProblems(page, 'board with the undo-stopped toast, dark, 390 px')).toEqual([]);
    await screenshot(page, 'undo-stopped-toast-390-dark');
    await page.setViewportSize({ width: 1400, height: 900 });
    expect((await card(ada, alpha)).name).toBe('Alpha by Ben');

    // Undo stopped there: the older rename of Beta is not undone either.
    await pressOnBoard(page, 'Control+z');
    await toast(page, 'Nothing to undo on this board').waitFor();
    expect((await card(ada, beta)).name).toBe('Beta 2');
    await context.close();
  }, 120_000);

  test('twenty steps per board: the twenty-first change back is not kept', async () => {
    const ada = await e2e.seed.user('Ada Steps');
    const { board, cards } = await e2e.seed.boardWith(ada, 'Steps', { List: ['Step 0'] });
    const id = cards['Step 0']!.id as number;
    const { page, context } = await e2e.newPage({ as: ada });
    await page.goto(`/board/${board.id}`);
    await page.locator(`[data-card-id="${id}"]`).click();
    for (let i = 1; i <= 21; i++) await renameInDialog(page, ada, id, `Step ${i}`);
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);

    for (let i = 20; i >= 1; i--) {
      await pressOnBoard(page, 'Control+z');
      await expect.poll(async () => (await card(ada, id)).name).toBe(`Step ${i}`);
    }
    await pressOnBoard(page, 'Control+z');
    await toast(page, 'Nothing to undo on this board').waitFor();
    expect((await card(ada, id)).name).toBe('Step 1');
    await context.close();
  }, 180_000);

  test('areas: a rename, a new order and an archive are undone too', async () => {
    const ada = await e2e.seed.user('Ada Areas');
    const { board } = await e2e.seed.boardWith(ada, 'Columns', { Ideas: ['One'], Doing: [], Done: [] });
    const names = async () =>
      (await ada.call<{ areas: { name: string }[] }>('GET', `/api/data/areas?boardId=${board.id}`)).areas.map((a) => a.name);
    const { page, context } = await e2e.newPage({ as: ada });
    await page.goto(`/board/${board.id}`);
    await expect.poll(() => cardNames(column(page, 'Ideas'))).toEqual(['One']);

    const menu = (name: string) => page.getByRole('button', { name: `Options for the area ${name}` });
    await menu('Ideas').click();
    await page.getByRole('menuitem', { name: 'Rename' }).click();
    await page.getByLabel('Area name').fill('Backlog');
    await page.getByLabel('Area name').press('Enter');
    await expect.poll(names).toEqual(['Backlog', 'Doing', 'Done']);
    await menu('Done').click();
    await page.getByRole('menuitem', { name: 'Move left' }).click();
    await expect.poll(names).toEqual(['Backlog', 'Done', 'Doing']);

    await pressOnBoard(page, 'Control+z');
    await expect.poll(names).toEqual(['Backlog', 'Doing', 'Done']);
    await pressOnBoard(page, 'Control+z');
    await expect.poll(names).toEqual(['Ideas', 'Doing', 'Done']);
    await pressOnBoard(page, 'Control+Shift+z');
    await expect.poll(names).toEqual(['Backlog', 'Doing', 'Done']);

    await menu('Doing').click();
    await page.getByRole('menuitem', { name: 'Archive area' }).click();
    await expect.poll(names).toEqual(['Backlog', 'Done']);
    await toast(page, 'The area “Doing” was archived.').getByRole('button', { name: 'Undo' }).click();
    await expect.poll(names).toEqual(['Backlog', 'Doing', 'Done']);
    await expect.poll(() => column(page, 'Doing').count()).toBe(1);
    await context.close();
  }, 120_000);
}
