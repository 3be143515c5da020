import type { Page } from 'playwright-core';
import { beforeAll, expect, test } from 'vitest';
import { accessibilityProblems, animationsDone, screenshot, settle, type ApiUser } from './support.js';
import { describeE2E, type Seed } from './use-e2e.js';

const DAY = 24 * 60 * 60 * 1000;

/** The names on the tiles the board shows, sorted. */
const visibleNames = async (page: Page) => (await page.locator('[data-card-id] .card-name').allInnerTexts()).sort();

interface Seeded {
  home: number;
  garage: number;
  garageCard: number;
  secretCard: number;
  labels: { garden: number; shopping: number };
}

const ALL = ['Buy paint rollers', 'Call the painter', 'Fix the gate', 'Paint the fence', 'Water plants'];

describeE2E('global search and the board filter', (e2e) => {
  let ada: ApiUser;
  let bob: ApiUser;
  let seeded: Seeded;

  beforeAll(async () => {
    ada = await e2e.seed.user('Ada Lovelace');
    bob = await e2e.seed.user('Bob Builder');
    const carol = await e2e.seed.user('Carol Stranger');
    seeded = await seed(e2e.seed, ada, bob, carol);
  }, 180_000);

  async function signedIn(width: number): Promise<Page> {
    const { page } = await e2e.newPage({ as: ada, width, height: width === 390 ? 844 : 900 });
    return page;
  }

  test('search as you type, choose with the keyboard, never see boards of others', async () => {
    const problems: string[] = [];
    const page = await signedIn(1400);
    await page.goto(`/board/${seeded.home}`);
    await page.locator('[data-card-id]').first().waitFor();

    // `/` jumps to the search field (the board itself has focus, nothing typed).
    await page.keyboard.press('/');
    const box = page.getByRole('combobox', { name: 'Search cards' });
    await expect.poll(() => box.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await box.inputValue()).toBe('');

    await page.keyboard.type('paint');
    const list = page.getByRole('listbox', { name: 'Matching cards' });
    const options = list.getByRole('option');
    await expect
      .poll(async () => (await options.locator('.search-option-name').allInnerTexts()).sort())
      .toEqual(['Buy paint rollers', 'Call the painter', 'Paint the fence', 'Paint the garage']);
    expect(await box.getAttribute('aria-expanded')).toBe('true');
    // Carol's card on her own board never shows.
    expect(await list.getByText('secret', { exact: false }).count()).toBe(0);
    // Where each card is, and the matched word highlighted.
    const garage = options.filter({ hasText: 'Paint the garage' });
    await expect.poll(() => garage.locator('.search-option-where').innerText()).toBe('Garage jobs › Backlog');
    expect(await garage.locator('mark').innerText()).toBe('Paint');
    await expect.poll(() => page.getByRole('status').filter({ hasText: '4 cards found' }).count()).toBe(1);

    await settle(page);
    await screenshot(page, 'search-1400');
    problems.push(...(await accessibilityProblems(page, 'search-results-1400')));

    // Arrow down to "Paint the garage"; the active option follows.
    const names = await options.locator('.search-option-name').allInnerTexts();
    const target = names.indexOf('Paint the garage');
    for (let i = 0; i <= target; i++) await page.keyboard.press('ArrowDown');
    const activeId = await box.getAttribute('aria-activedescendant');
    expect(activeId).toBeTruthy();
    expect(await page.locator(`[id="${activeId}"]`).innerText()).toContain('Paint the garage');
    expect(await page.locator(`[id="${activeId}"]`).getAttribute('aria-selected')).toBe('true');

    await page.keyboard.press('Enter');
    await page.waitForURL(`**/board/${seeded.garage}?card=${seeded.garageCard}`);
    await page.getByRole('heading', { name: 'Garage jobs', level: 1 }).waitFor();
    await page.getByRole('dialog', { name: 'Paint the garage' }).waitFor();
    expect(await box.inputValue()).toBe('');
    expect(await box.getAttribute('aria-expanded')).toBe('false');
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);

    // Nothing found is said so; Escape closes the list, then clears the field.
    await box.click();
    await box.fill('zebra');
    await page.locator('.search-message', { hasText: 'No cards match.' }).waitFor();
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'No cards match.' }).count()).toBe(1);
    await page.keyboard.press('Escape');
    expect(await box.getAttribute('aria-expanded')).toBe('false');
    await page.keyboard.press('Escape');
    expect(await box.inputValue()).toBe('');

    // The mouse works too; the secret word finds nothing that is not ours.
    await box.fill('secret');
    await page.locator('.search-message', { hasText: 'No cards match.' }).waitFor();
    await box.fill('fence');
    await list.getByRole('option', { name: /Paint the fence/ }).click();
    await page.waitForURL(`**/board/${seeded.home}?card=*`);
    await page.getByRole('dialog', { name: 'Paint the fence' }).waitFor();
    await page.context().close();

    // On a phone: an icon button opens the field over the header.
    const phone = await signedIn(390);
    await phone.goto('/');
    await phone.getByRole('heading', { name: 'Your boards' }).waitFor();
    const phoneBox = phone.getByRole('combobox', { name: 'Search cards' });
    expect(await phoneBox.isVisible()).toBe(false);
    await phone.getByRole('button', { name: 'Search', exact: true }).click();
    await expect.poll(() => phoneBox.evaluate((el) => el === document.activeElement)).toBe(true);
    await animationsDone(phone);
    const field = await phoneBox.boundingBox();
    expect(field!.width).toBeGreaterThan(250);
    await phone.keyboard.type('paint');
    await expect.poll(() => phone.getByRole('option').count()).toBe(4);
    await settle(phone);
    await screenshot(phone, 'search-390');
    problems.push(...(await accessibilityProblems(phone, 'search-results-390')));
    await phone.getByRole('option', { name: /Paint the garage/ }).click();
    await phone.getByRole('dialog', { name: 'Paint the garage' }).waitFor();
    expect(await phoneBox.isVisible()).toBe(false);
    // Escape on the empty field folds it back; the focus returns to the button.
    await phone.keyboard.press('Escape');
    await expect.poll(() => phone.getByRole('dialog').count()).toBe(0);
    const toggle = phone.getByRole('button', { name: 'Search', exact: true });
    await toggle.click();
    await expect.poll(() => phoneBox.isVisible()).toBe(true);
    // Escape goes to the field only once it has the focus, which follows the unfolding.
    await expect.poll(() => phoneBox.evaluate((el) => el === document.activeElement)).toBe(true);
    await phone.keyboard.press('Escape');
    await expect.poll(() => phoneBox.isVisible()).toBe(false);
    await expect.poll(() => toggle.evaluate((el) => el === document.activeElement)).toBe(true);
    await phone.context().close();

    expect(problems).toEqual([]);
  }, 120_000);

  test('the board filter narrows the tiles, lives in the address and clears', async () => {
    const problems: string[] = [];
    const page = await signedIn(1400);
    await page.goto(`/board/${seeded.home}`);
    await page.locator('[data-card-id]').first().waitFor();
    await expect.poll(() => visibleNames(page)).toEqual(ALL);

    const filterButton = page.getByRole('button', { name: /^Filter/ });
    await filterButton.click();
    const panel = page.getByRole('dialog', { name: 'Filter cards' });
    await panel.waitFor();

    // Text: the name, in any case.
    await panel.getByLabel('Name contains').fill('PAINT');
    await expect.poll(() => visibleNames(page)).toEqual(['Buy paint rollers', 'Call the painter', 'Paint the fence']);
    expect(await filterButton.getAttribute('aria-label')).toBe('Filter, 1 active');
    await panel.getByLabel('Name contains').fill('');
    await expect.poll(() => visibleNames(page)).toEqual(ALL);

    // A label.
    await panel.getByRole('checkbox', { name: 'garden' }).check();
    await expect.poll(() => visibleNames(page)).toEqual(['Paint the fence', 'Water plants']);
    await settle(page);
    await screenshot(page, 'board-filter-1400');
    problems.push(...(await accessibilityProblems(page, 'board-filter-panel-1400')));

    // Escape closes the panel and gives the focus back to the button; the filter stays.
    await page.keyboard.press('Escape');
    await expect.poll(() => panel.count()).toBe(0);
    await expect.poll(() => filterButton.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(new URL(page.url()).searchParams.get('labels')).toBe(String(seeded.labels.garden));

    // It survives a reload, and opening a card keeps it.
    await page.reload();
    await page.locator('[data-card-id]').first().waitFor();
    await expect.poll(() => visibleNames(page)).toEqual(['Paint the fence', 'Water plants']);
    expect(await filterButton.getAttribute('aria-label')).toBe('Filter, 1 active');
    await page.locator('[data-card-id]').filter({ hasText: 'Water plants' }).click();
    await page.getByRole('dialog', { name: 'Water plants' }).waitFor();
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    expect(new URL(page.url()).searchParams.get('labels')).toBe(String(seeded.labels.garden));
    await expect.poll(() => visibleNames(page)).toEqual(['Paint the fence', 'Water plants']);

    // Clear brings every card back.
    await page.getByRole('button', { name: 'Clear the filter' }).click();
    await expect.poll(() => visibleNames(page)).toEqual(ALL);
    expect(await filterButton.getAttribute('aria-label')).toBe('Filter');
    expect(new URL(page.url()).searchParams.has('labels')).toBe(false);

    // An assignee; then nobody.
    await filterButton.click();
    await panel.getByRole('checkbox', { name: 'Bob Builder' }).check();
    await expect.poll(() => visibleNames(page)).toEqual(['Buy paint rollers', 'Water plants']);
    await panel.getByRole('checkbox', { name: 'Bob Builder' }).uncheck();
    await panel.getByRole('checkbox', { name: 'Unassigned' }).check();
    await expect.poll(() => visibleNames(page)).toEqual(['Call the painter', 'Fix the gate']);
    await panel.getByRole('checkbox', { name: 'Unassigned' }).uncheck();

    // Done, then done and a label together (every part must hold).
    await panel.getByLabel('Status').selectOption({ label: 'Done' });
    await expect.poll(() => visibleNames(page)).toEqual(['Fix the gate', 'Water plants']);
    await panel.getByRole('checkbox', { name: 'shopping' }).check();
    await expect.poll(() => visibleNames(page)).toEqual(['Water plants']);
    expect(await filterButton.getAttribute('aria-label')).toBe('Filter, 2 active');
    await panel.getByRole('button', { name: 'Clear all' }).click();
    await expect.poll(() => visibleNames(page)).toEqual(ALL);

    // Due dates.
    await panel.getByLabel('Due date').selectOption({ label: 'Overdue' });
    await expect.poll(() => visibleNames(page)).toEqual(['Paint the fence']);
    await panel.getByLabel('Due date').selectOption({ label: 'Due in the next 7 days' });
    await expect.poll(() => visibleNames(page)).toEqual(['Buy paint rollers']);
    await panel.getByLabel('Due date').selectOption({ label: 'No due date' });
    await expect.poll(() => visibleNames(page)).toEqual(['Fix the gate', 'Water plants']);
    await panel.getByRole('button', { name: 'Done', exact: true }).click();
    await expect.poll(() => panel.count()).toBe(0);
    await page.getByRole('button', { name: 'Clear the filter' }).click();
    await expect.poll(() => visibleNames(page)).toEqual(ALL);
    await page.context().close();

    // A phone: the panel fits the screen.
    const phone = await signedIn(390);
    await phone.goto(`/board/${seeded.home}?assignees=${ada.id}`);
    await phone.locator('[data-card-id]').first().waitFor();
    await expect.poll(() => visibleNames(phone)).toEqual(['Paint the fence', 'Water plants']);
    await phone.getByRole('button', { name: 'Filter, 1 active' }).click();
    const phonePanel = phone.getByRole('dialog', { name: 'Filter cards' });
    await phonePanel.waitFor();
    expect(await phonePanel.getByRole('checkbox', { name: 'Ada Lovelace' }).isChecked()).toBe(true);
    await settle(phone);
    const box = await phonePanel.boundingBox();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(390);
    await screenshot(phone, 'board-filter-390');
    problems.push(...(await accessibilityProblems(phone, 'board-filter-panel-390')));
    await phone.context().close();

    expect(problems).toEqual([]);
  }, 120_000);
});

async function seed(seed: Seed, ada: ApiUser, bob: ApiUser, carol: ApiUser): Promise<Seeded> {
  const board = async (user: ApiUser, name: string) => (await seed.board(user, name)).id;
  const area = async (user: ApiUser, boardId: number, name: string) => (await seed.area(user, boardId, name)).id;
  const label = async (user: ApiUser, boardId: number, name: string) => (await seed.label(user, boardId, name)).id;
  const card = async (user: ApiUser, areaId: number, name: string, fields: Record<string, unknown> = {}) =>
    (await seed.card(user, areaId, name, fields)).id;

  const home = await board(ada, 'Home chores');
  await seed.invite(ada, home, bob, 'edit');
  const ideas = await area(ada, home, 'Ideas');
  const doing = await area(ada, home, 'Doing');
  const garden = await label(ada, home, 'garden');
  const shopping = await label(ada, home, 'shopping');
  const now = Date.now();
  await card(ada, ideas, 'Paint the fence', {
    labelIds: [garden],
    assignees: [ada.id],
    dueDate: new Date(now - DAY).toISOString(),
  });
  await card(ada, ideas, 'Buy paint rollers', {
    labelIds: [shopping],
    assignees: [bob.id],
    dueDate: new Date(now + 3 * DAY).toISOString(),
  });
  await card(ada, doing, 'Fix the gate', { status: 1 });
  await card(ada, doing, 'Water plants', { labelIds: [garden, shopping], assignees: [ada.id, bob.id], status: 1 });
  await card(ada, doing, 'Call the painter', { dueDate: new Date(now + 30 * DAY).toISOString() });

  const garage = await board(ada, 'Garage jobs');
  const backlog = await area(ada, garage, 'Backlog');
  const garageCard = await card(ada, backlog, 'Paint the garage');

  const secret = await board(carol, 'Carol private');
  const secretArea = await area(carol, secret, 'Hidden');
  const secretCard = await card(carol, secretArea, 'Paint the secret room');

  return { home, garage, garageCard, secretCard, labels: { garden, shopping } };
}
