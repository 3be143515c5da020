import type { Page } from 'playwright-core';
import { beforeAll, expect, test } from 'vitest';
import { accessibilityProblems, screenshot, settle, type ApiUser } from './support.js';
import { describeE2E, type Seed } from './use-e2e.js';

const DAY = 24 * 60 * 60 * 1000;

interface Seeded {
  home: number;
  team: number;
  teamArea: number;
  teamCard: number;
}

describeE2E('my work and calendar feeds', (e2e) => {
  let ada: ApiUser;
  let bob: ApiUser;
  let seeded: Seeded;

  beforeAll(async () => {
    ada = await e2e.seed.user('Ada Lovelace');
    bob = await e2e.seed.user('Bob Builder');
    seeded = await seed(e2e.seed, ada, bob);
  });

  async function signedIn(width = 1400, scheme: 'light' | 'dark' = 'light'): Promise<Page> {
    const { page } = await e2e.newPage({ as: ada, width, height: width === 390 ? 844 : 900, colorScheme: scheme });
    return page;
  }
  const names = (page: Page, group: string) =>
    page
      .getByRole('region', { name: new RegExp(`^${group}`) })
      .locator('.my-work-card-name')
      .allInnerTexts();

  test('from the navigation to the groups, with the keyboard, into the card dialog and back', async () => {
    const page = await signedIn();
    await page.goto('/');
    await page.getByRole('link', { name: 'My work' }).click();
    await page.waitForURL('**/my-work');
    await page.getByRole('heading', { name: 'My work', level: 1 }).waitFor();

    await expect.poll(() => names(page, 'Overdue')).toEqual(['Renew the passport']);
    await expect.poll(() => names(page, 'Later')).toEqual(['Plan the holidays']);
    await expect.poll(() => names(page, 'No date')).toEqual(['Sort the photos', 'Review the budget']);
    // Where each card is; the card not assigned to Ada and the done one are not there.
    const budget = page.locator('.my-work-card', { hasText: 'Review the budget' });
    expect(await budget.locator('.my-work-where').innerText()).toBe('Team plans · Next');
    expect(await page.locator('.my-work-card', { hasText: 'Not for Ada' }).count()).toBe(0);
    expect(await page.locator('.my-work-card', { hasText: 'Already done' }).count()).toBe(0);

    // Arrows walk the cards across the groups; Enter opens the board's card dialog.
    await page.locator('.my-work-card').first().focus();
    // The focus moves once React has handled each key: poll for it rather than read it at once.
    const focused = () => page.evaluate(() => document.activeElement?.textContent ?? '');
    await page.keyboard.press('ArrowDown');
    await expect.poll(focused).toContain('Plan the holidays');
    await page.keyboard.press('ArrowDown');
    await expect.poll(focused).toContain('Sort the photos');
    await page.keyboard.press('End');
    await expect.poll(focused).toContain('Review the budget');
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Review the budget' });
    await dialog.waitFor();
    expect(page.url()).toContain(`card=${seeded.teamCard}`);
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    await expect.poll(focused).toContain('Review the budget');

    // The label filter keeps only the cards with that label.
    await page.getByLabel('Label', { exact: true }).selectOption('errand');
    await expect
      .poll(() => page.locator('.my-work-card-name').allInnerTexts(), { timeout: 10_000 })
      .toEqual(['Renew the passport']);
    await page.getByLabel('Label', { exact: true }).selectOption('');
    await page.getByLabel('Board', { exact: true }).selectOption({ label: 'Team plans' });
    await expect
      .poll(() => page.locator('.my-work-card-name').allInnerTexts(), { timeout: 10_000 })
      .toEqual(['Review the budget']);
    await page.context().close();
  });

  test('live: a card Bob assigns to Ada, or renames, shows at once', async () => {
    const page = await signedIn();
    await page.goto('/my-work');
    await page.getByRole('heading', { name: 'Overdue' }).waitFor();

    const card = await e2e.seed.card(bob, seeded.teamArea, 'Call the bank');
    await bob.call('PUT', '/api/data/card', {
      cardID: card.id,
      assignees: [ada.id],
      dueDate: new Date(Date.now() + 60_000).toISOString(),
    });
    await expect.poll(() => names(page, 'Today'), { timeout: 10_000 }).toEqual(['Call the bank']);

    await bob.call('PUT', '/api/data/card', { cardID: seeded.teamCard, name: 'Review the yearly budget' });
    await expect
      .poll(() => page.locator('.my-work-card-name').allInnerTexts(), { timeout: 10_000 })
      .toContain('Review the yearly budget');
    // Done elsewhere: it leaves the list.
    await bob.call('PUT', '/api/data/card', { cardID: card.id, status: 1 });
    await expect.poll(() => page.locator('.my-work-card', { hasText: 'Call the bank' }).count(), { timeout: 10_000 }).toBe(0);
    await page.context().close();
  });

  test('a calendar feed: created with its address shown once, read by a calendar, revoked', async () => {
    const page = await signedIn();
    await page.goto('/settings');
    const section = page.getByRole('region', { name: 'Calendar feeds' });
    await section.getByText('No calendar feeds yet.').waitFor();
    await section.getByLabel('Name').fill('Phone');
    await section.locator('summary', { hasText: 'Also every card with a due date on these boards' }).click();
    await section.getByLabel('Team plans').check();
    await section.getByRole('button', { name: 'Create feed' }).click();

    const dialog = page.getByRole('dialog', { name: 'Your feed address' });
    await dialog.waitFor();
    const url = await dialog.getByLabel('Feed address').inputValue();
    expect(url).toMatch(/\/api\/ical\/[A-Za-z0-9_-]+\.ics$/);
    const feed = await fetch(url);
    expect(feed.status).toBe(200);
    expect(feed.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
    const text = await feed.text();
    expect(text).toContain('SUMMARY:Renew the passport');
    expect(text).toContain('SUMMARY:Team deadline'); // on the chosen board, not assigned to Ada

    const problems = await accessibilityProblems(page, 'feed-created-1400');
    await settle(page);
    await screenshot(page, 'calendar-feed-created-1400');
    await dialog.getByRole('button', { name: 'Done' }).click();
    await section.getByText('Cards assigned to you, and every card on: Team plans').waitFor();

    await section.getByRole('button', { name: 'Revoke feed Phone' }).click();
    await page.getByRole('dialog', { name: 'Revoke this feed?' }).getByRole('button', { name: 'Revoke' }).click();
    await section.getByText('No calendar feeds yet.').waitFor();
    expect((await fetch(url)).status).toBe(404);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  test('no serious accessibility finding in light and dark, at 1400 and 390 px', async () => {
    const problems: string[] = [];
    for (const scheme of ['light', 'dark'] as const) {
      for (const width of [1400, 390]) {
        const page = await signedIn(width, scheme);
        await page.goto('/my-work');
        await page.getByRole('heading', { name: 'Overdue' }).waitFor();
        await settle(page);
        await screenshot(page, `my-work-${scheme}-${width}`);
        problems.push(...(await accessibilityProblems(page, `my-work-${scheme}-${width}`)));

        await page.goto('/settings');
        await page.getByRole('region', { name: 'Calendar feeds' }).getByRole('button', { name: 'Create feed' }).waitFor();
        await page.getByRole('region', { name: 'Calendar feeds' }).scrollIntoViewIfNeeded();
        await settle(page);
        await screenshot(page, `settings-calendar-feeds-${scheme}-${width}`);
        problems.push(...(await accessibilityProblems(page, `settings-feeds-${scheme}-${width}`)));
        await page.context().close();
      }
    }
    expect(problems).toEqual([]);
  }, 120_000);
});

async function seed(seed: Seed, ada: ApiUser, bob: ApiUser): Promise<Seeded> {
  const board = async (user: ApiUser, name: string) => (await seed.board(user, name)).id;
  const area = async (user: ApiUser, boardId: number, name: string) => (await seed.area(user, boardId, name)).id;
  const card = async (user: ApiUser, areaId: number, name: string, fields: Record<string, unknown> = {}) =>
    (await seed.card(user, areaId, name, fields)).id;
  const now = Date.now();

  const home = await board(ada, 'Home');
  const todo = await area(ada, home, 'To do');
  const errand = (await seed.label(ada, home, 'errand')).id;
  await card(ada, todo, 'Renew the passport', {
    assignees: [ada.id],
    labelIds: [errand],
    dueDate: new Date(now - 3 * DAY).toISOString(),
  });
  await card(ada, todo, 'Plan the holidays', { assignees: [ada.id], dueDate: new Date(now + 40 * DAY).toISOString() });
  await card(ada, todo, 'Sort the photos', { assignees: [ada.id] });
  await card(ada, todo, 'Not for Ada');
  await card(ada, todo, 'Already done', { assignees: [ada.id], status: 1 });

  const team = await board(bob, 'Team plans');
  await seed.invite(bob, team, ada, 'edit');
  const next = await area(bob, team, 'Next');
  const teamCard = await card(bob, next, 'Review the budget', { assignees: [ada.id] });
  await card(bob, next, 'Team deadline', { dueDate: new Date(now + 5 * DAY).toISOString() });
  return { home, team, teamArea: next, teamCard };
}
