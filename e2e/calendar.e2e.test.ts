import type { Page } from 'playwright-core';
import { beforeAll, expect, test } from 'vitest';
import { accessibilityProblems, screenshot, settle, type ApiUser } from './support.js';
import { describeE2E, type Seed } from './use-e2e.js';

// The browser runs on this machine, in its time zone: local dates here are local dates there.
const today = new Date();
const year = today.getFullYear();
/** Next month: wholly in the future, so where repeats fall does not depend on today. */
const month = today.getMonth() + 1;
const at = (day: number, hours: number, minutes = 0) => new Date(year, month, day, hours, minutes);
const pad = (n: number) => String(n).padStart(2, '0');
const key = (date: Date) => `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
const dayOf = (n: number) => key(at(n, 12));

interface Seeded {
  board: number;
  rent: number;
  paint: number;
  gate: number;
}

describeE2E('the calendar view of a board', (e2e) => {
  let ada: ApiUser;
  let bob: ApiUser;
  let reader: ApiUser;
  let seeded: Seeded;

  beforeAll(async () => {
    ada = await e2e.seed.user('Ada Lovelace');
    bob = await e2e.seed.user('Bob Builder');
    reader = await e2e.seed.user('Rita Reader');
    seeded = await seed(e2e.seed, ada, bob, reader);
  });

  async function signedIn(width: number, scheme: 'light' | 'dark' = 'light'): Promise<Page> {
    const { page } = await e2e.newPage({ as: ada, width, height: width === 390 ? 844 : 900, colorScheme: scheme });
    return page;
  }
  const dueOf = async (cardId: number) =>
    (await ada.call<{ card: { dueDate: string | null } }>('GET', `/api/data/card?cardID=${cardId}`)).card.dueDate;
  const entry = (page: Page, day: number | string, name: string) =>
    page.locator(`[data-day="${typeof day === 'number' ? dayOf(day) : day}"] [data-cal-card]`, { hasText: name });

  async function nextMonth(page: Page): Promise<void> {
    await page.goto(`/board/${seeded.board}?view=calendar`);
    await page.getByRole('heading', { name: 'Chores', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Next month' }).click();
    await page.locator(`[data-day="${dayOf(15)}"]`).waitFor();
  }

  test('cards on their days, repeats ahead, done struck through, undated aside; the board filter applies', async () => {
    const page = await signedIn(1400);
    await page.goto(`/board/${seeded.board}`);
    await page.locator('[data-card-id]').first().waitFor();
    // The switch is kept in the address.
    await page.getByRole('button', { name: 'Calendar', exact: true }).click();
    await page.waitForURL(/view=calendar/);
    await expect
      .poll(() => page.getByRole('button', { name: 'Calendar', exact: true }).getAttribute('aria-pressed'))
      .toBe('true');
    await page.getByRole('button', { name: 'Next month' }).click();
    const title = new Intl.DateTimeFormat('en', { month: 'long', year: 'numeric' }).format(at(1, 12));
    await page.getByRole('heading', { name: title }).waitFor();

    await entry(page, 10, 'Pay rent').waitFor();
    expect(await entry(page, 10, 'Pay rent').innerText()).toContain('5:30');
    await entry(page, 12, 'Sort old letters').waitFor();
    expect(await entry(page, 12, 'Sort old letters').getAttribute('class')).toContain('done');
    expect(
      await entry(page, 12, 'Sort old letters')
        .locator('.cal-entry-name')
        .evaluate((el) => getComputedStyle(el).textDecorationLine),
    ).toBe('line-through');
    const undated = page.getByRole('region', { name: 'No date' });
    await undated.getByRole('button', { name: 'Buy paint' }).waitFor();

    // The weekly card on the 2nd, and its coming dates as ghosts, a week apart.
    await entry(page, 2, 'Water plants').waitFor();
    for (const day of [9, 16, 23]) {
      await page.locator(`[data-day="${dayOf(day)}"] [data-cal-ghost]`, { hasText: 'Water plants' }).waitFor();
    }
    expect(await page.locator(`[data-day="${dayOf(2)}"] [data-cal-ghost]`).count()).toBe(0);
    expect(await page.locator(`[data-day="${dayOf(8)}"] [data-cal-ghost]`).count()).toBe(0);

    // The week starts on Sunday in English (en-US).
    const firstDay = await page.locator('.cal-grid [data-day]').first().getAttribute('data-day');
    expect(new Date(`${firstDay}T12:00:00`).getDay()).toBe(0);

    // The filter narrows the calendar as it does the board.
    await page.goto(`/board/${seeded.board}?view=calendar&q=rent`);
    await page.getByRole('button', { name: 'Next month' }).click();
    await entry(page, 10, 'Pay rent').waitFor();
    await expect.poll(() => page.locator('[data-cal-card]').count()).toBe(1);

    // Opening an entry opens the card dialog.
    await entry(page, 10, 'Pay rent').click();
    await page.getByRole('dialog', { name: 'Pay rent' }).waitFor();
    await page.context().close();
  }, 60_000);

  test('dragging a card to a day sets its due date there, keeping its time; an undated one gets 9:00; a refusal puts it back', async () => {
    const page = await signedIn(1400);
    await nextMonth(page);
    await entry(page, 10, 'Pay rent').dragTo(page.locator(`[data-day="${dayOf(14)}"]`), {
      targetPosition: { x: 60, y: 90 },
    });
    await entry(page, 14, 'Pay rent').waitFor();
    await expect.poll(() => dueOf(seeded.rent)).toBe(at(14, 17, 30).toISOString());
    expect(await entry(page, 10, 'Pay rent').count()).toBe(0);

    await page
      .getByRole('region', { name: 'No date' })
      .getByRole('button', { name: 'Buy paint' })
      .dragTo(page.locator(`[data-day="${dayOf(15)}"]`), { targetPosition: { x: 60, y: 90 } });
    await entry(page, 15, 'Buy paint').waitFor();
    await expect.poll(() => dueOf(seeded.paint)).toBe(at(15, 9).toISOString());

    // A refused change goes back where it was, with the reason.
    await page.route('**/api/data/card', (route) =>
      route.request().method() === 'PUT'
        ? route.fulfill({ status: 400, contentType: 'application/json', body: JSON.stringify({ error: 'Try later' }) })
        : route.fallback(),
    );
    await entry(page, 15, 'Buy paint').dragTo(page.locator(`[data-day="${dayOf(16)}"]`), { targetPosition: { x: 60, y: 90 } });
    await page.locator('.toasts', { hasText: 'Not saved: Try later' }).waitFor();
    await entry(page, 15, 'Buy paint').waitFor();
    expect(await entry(page, 16, 'Buy paint').count()).toBe(0);
    expect(await dueOf(seeded.paint)).toBe(at(15, 9).toISOString());
    await page.context().close();
  }, 60_000);

  test('the keyboard does the same: D on a focused card chooses its day', async () => {
    const page = await signedIn(1400);
    await nextMonth(page);
    const rent = page.locator('[data-cal-card]', { hasText: 'Pay rent' });
    await rent.focus();
    expect(await rent.getAttribute('aria-keyshortcuts')).toBe('D');
    await page.keyboard.press('d');
    const dialog = page.getByRole('dialog', { name: 'Due date of “Pay rent”' });
    await dialog.waitFor();
    await expect.poll(() => dialog.getByLabel('Day').evaluate((el) => el === document.activeElement)).toBe(true);
    await dialog.getByLabel('Day').fill(dayOf(18));
    await page.keyboard.press('Enter');
    await expect.poll(() => dialog.count()).toBe(0);
    await entry(page, 18, 'Pay rent').waitFor();
    await expect.poll(() => dueOf(seeded.rent)).toBe(at(18, 17, 30).toISOString());
    // The focus stays with the card.
    await expect.poll(() => entry(page, 18, 'Pay rent').evaluate((el) => el === document.activeElement)).toBe(true);
    await page.context().close();
  }, 60_000);

  test('a reader sees the calendar and opens cards, but cannot change dates', async () => {
    const { page, context } = await e2e.newPage({ as: reader });
    await nextMonth(page);
    const card = page.locator('[data-cal-card]', { hasText: 'Pay rent' });
    expect(await card.getAttribute('draggable')).toBeNull();
    expect(await card.getAttribute('aria-keyshortcuts')).toBeNull();
    await card.focus();
    await page.keyboard.press('d');
    await page.keyboard.press('Enter');
    await page.getByRole('dialog', { name: 'Pay rent' }).waitFor();
    expect(await page.getByRole('dialog').count()).toBe(1);
    await context.close();
  }, 60_000);

  test("another person's change appears live", async () => {
    const page = await signedIn(1400);
    await nextMonth(page);
    await page.getByRole('region', { name: 'No date' }).getByRole('button', { name: 'Fix the gate' }).waitFor();
    await bob.call('PUT', '/api/data/card', { cardID: seeded.gate, dueDate: at(21, 11).toISOString() });
    await entry(page, 21, 'Fix the gate').waitFor();
    expect(await page.getByRole('region', { name: 'No date' }).getByRole('button', { name: 'Fix the gate' }).count()).toBe(0);
    await page.context().close();
  }, 60_000);

  test('month and week views in light and dark, at 1400 and 390 px, with no serious accessibility finding', async () => {
    const problems: string[] = [];
    for (const scheme of ['light', 'dark'] as const) {
      for (const width of [1400, 390]) {
        const page = await signedIn(width, scheme);
        await page.goto(`/board/${seeded.board}?view=calendar`);
        await page.getByRole('button', { name: width === 390 ? 'Next week' : 'Next month' }).waitFor();
        if (width === 390) {
          // A week list: seven days, today's week, with today's card.
          await expect.poll(() => page.locator('.cal-list [data-day]').count()).toBe(7);
          await page.locator(`[data-day="${key(today)}"] [data-cal-card]`, { hasText: 'Call the painter' }).waitFor();
          expect(await page.locator('.cal-grid').count()).toBe(0);
        } else {
          await page.locator(`[data-day="${key(today)}"] [data-cal-card]`, { hasText: 'Call the painter' }).waitFor();
          // Next month holds the other cards, a done one and the coming dates of the weekly one.
          await page.getByRole('button', { name: 'Next month' }).click();
          await page.locator('[data-cal-ghost]').first().waitFor();
        }
        await settle(page);
        const name = `calendar-${scheme}-${width}`;
        await screenshot(page, name);
        problems.push(...(await accessibilityProblems(page, name)));
        if (width === 1400) {
          await page.locator('[data-cal-card]', { hasText: 'Pay rent' }).focus();
          await page.keyboard.press('d');
          await page.getByRole('dialog').waitFor();
          await settle(page);
          problems.push(...(await accessibilityProblems(page, `calendar-date-dialog-${scheme}`)));
        }
        await page.context().close();
      }
    }
    expect(problems).toEqual([]);
  }, 180_000);
});

async function seed(seed: Seed, ada: ApiUser, bob: ApiUser, reader: ApiUser): Promise<Seeded> {
  const board = (await seed.board(ada, 'Chores')).id;
  await seed.invite(ada, board, bob, 'edit');
  await seed.invite(ada, board, reader, 'read');
  const area = async (name: string) => (await seed.area(ada, board, name)).id;
  const card = async (areaId: number, name: string, fields: Record<string, unknown> = {}) =>
    (await seed.card(ada, areaId, name, fields)).id;
  const todo = await area('To do');
  const done = await area('Done');
  const rent = await card(todo, 'Pay rent', { dueDate: at(10, 17, 30).toISOString() });
  await card(todo, 'Water plants', { dueDate: at(2, 9).toISOString(), repeatEvery: 'week' });
  const paint = await card(todo, 'Buy paint');
  const gate = await card(todo, 'Fix the gate');
  const now = new Date();
  await card(todo, 'Call the painter', {
    dueDate: new Date(now.getFullYear(), now.getMonth(), now.getDate(), 15).toISOString(),
  });
  await card(done, 'Sort old letters', { dueDate: at(12, 10).toISOString(), status: 1 });
  return { board, rent, paint, gate };
}
