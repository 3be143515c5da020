/// <reference lib="dom" />
// Functions passed to page.evaluate run in the browser: they see the DOM.
import type { Page } from 'playwright-core';
import { beforeAll, expect, test } from 'vitest';
import { accessibilityProblems, screenshot, settle, type ApiUser } from './support.js';
import { describeE2E, type Seed } from './use-e2e.js';

const DAY = 24 * 3600 * 1000;
const at = (days: number, hour = 17) => {
  const date = new Date(Date.now() + days * DAY);
  date.setHours(hour, 0, 0, 0);
  return date.toISOString();
};

interface Seeded {
  kanban: number;
  todo: number;
  richCard: number;
}

/**
 * The screens at 1400 px and 390 px wide, with realistic content, saved to
 * e2e/screenshots/ (git-ignored) for a person to look at.
 */
describeE2E('screenshots', (e2e) => {
  let ada: ApiUser;
  let bob: ApiUser;
  let seeded: Seeded;
  let publicPath: string;

  beforeAll(async () => {
    ada = await e2e.seed.user('Ada Lovelace');
    bob = await e2e.seed.user('Bob Builder');
    seeded = await seed(e2e.seed, ada, bob);
    const made = await ada.call<{ link: { url: string } }>('POST', '/api/data/public-link', { boardId: seeded.kanban });
    publicPath = new URL(made.link.url).pathname;
  });

  /** Every page of the app, signed in as Ada unless `signedOut`; each waits until its content is there. */
  const screens = (): Screen[] => [
    {
      name: 'sign-in',
      signedOut: true,
      open: async (page) => {
        await page.goto('/sign-in');
        await page.locator('input[type="email"]').waitFor();
      },
    },
    {
      name: 'sign-up',
      signedOut: true,
      open: async (page) => {
        await page.goto('/sign-up');
        await page.locator('input[type="email"]').waitFor();
      },
    },
    {
      name: 'dashboard',
      open: async (page) => {
        await page.goto('/');
        await page.locator('.tile').nth(5).waitFor();
      },
    },
    {
      name: 'board-kanban',
      open: async (page) => {
        await page.goto(`/board/${seeded.kanban}`);
        await page.locator('[data-card-id]').first().waitFor();
        await page.locator('.presence').waitFor();
        // Tiles show the values of the fields marked "show on card".
        await page.locator('.card-field-badge').first().waitFor();
      },
    },
    {
      name: 'board-lanes',
      open: async (page) => {
        await page.goto(`/board/${seeded.kanban}?lanes=label`);
        await page.locator('[data-lane-key] [data-card-id]').first().waitFor();
      },
    },
    {
      name: 'board-todo',
      open: async (page) => {
        await page.goto(`/board/${seeded.todo}`);
        await page.locator('[data-card-id]').first().waitFor();
      },
    },
    {
      name: 'board-calendar',
      open: async (page) => {
        await page.goto(`/board/${seeded.todo}?view=calendar`);
        await page.locator('[data-cal-card]').first().waitFor();
      },
    },
    {
      name: 'card-dialog',
      open: async (page) => {
        await page.goto(`/board/${seeded.kanban}?card=${seeded.richCard}`);
        const dialog = page.getByRole('dialog');
        await dialog.locator('.comment').first().waitFor();
        await dialog.locator('.activity-item').first().waitFor();
      },
    },
    {
      name: 'card-dialog-fields',
      open: async (page) => {
        await page.goto(`/board/${seeded.kanban}?card=${seeded.richCard}`);
        const editors = page.getByRole('dialog').locator('.card-fields');
        await editors.getByLabel('Priority').waitFor();
        await editors.scrollIntoViewIfNeeded();
      },
    },
    {
      name: 'fields-dialog',
      open: async (page) => {
        await page.goto(`/board/${seeded.kanban}`);
        await page.locator('[data-card-id]').first().waitFor();
        await page.getByRole('button', { name: 'Board menu' }).click();
        await page.getByRole('menuitem', { name: 'Fields…' }).click();
        await page.getByRole('dialog', { name: 'Custom fields' }).locator('[data-field-row]').nth(2).waitFor();
      },
    },
    {
      name: 'history-panel',
      open: async (page) => {
        await page.goto(`/board/${seeded.kanban}`);
        await page.locator('[data-card-id]').first().waitFor();
        await page.getByRole('button', { name: 'Board menu' }).click();
        await page.getByRole('menuitem', { name: 'History' }).click();
        const dialog = page.getByRole('dialog', { name: 'Board history' });
        const changes = dialog.getByRole('region', { name: 'Changes' });
        await changes.getByRole('listitem').first().waitFor();
        // A new comment reads as one, not as "changed a comment".
        await changes.getByText('Bob Builder commented on a card').first().waitFor();
        await dialog.locator('.history-card-name').first().waitFor();
        // The past board (wider than its column here) scrolls inside the dialog, not out of it.
        const right = async (selector: string) => {
          const box = await dialog.locator(selector).first().boundingBox();
          return box ? box.x + box.width : Infinity;
        };
        expect(await right('.history-lanes')).toBeLessThanOrEqual(await right('.history-body'));
      },
    },
    {
      name: 'archive-board',
      open: async (page) => {
        await page.goto(`/board/${seeded.kanban}/archive`);
        await page.locator('.archive-row').nth(1).waitFor();
      },
    },
    {
      name: 'archive-boards',
      open: async (page) => {
        await page.goto('/archive');
        await page.locator('.archive-row').first().waitFor();
      },
    },
    {
      name: 'search',
      open: async (page) => {
        await page.goto(`/board/${seeded.kanban}`);
        await page.locator('[data-card-id]').first().waitFor();
        const toggle = page.getByRole('button', { name: 'Search', exact: true });
        if (await toggle.isVisible()) await toggle.click();
        await page.getByRole('combobox', { name: 'Search cards' }).fill('the');
        await page.getByRole('option').nth(2).waitFor();
        await page.keyboard.press('ArrowDown');
      },
    },
    {
      name: 'board-filter',
      open: async (page) => {
        await page.goto(`/board/${seeded.kanban}`);
        await page.locator('[data-card-id]').first().waitFor();
        await page.getByRole('button', { name: 'Filter' }).click();
        await page.getByRole('dialog').getByRole('checkbox').first().check();
        await expect.poll(() => page.locator('[data-card-id]').count()).toBeLessThan(11);
      },
    },
    {
      name: 'share-dialog',
      open: async (page) => {
        await page.goto(`/board/${seeded.kanban}`);
        await page.locator('[data-card-id]').first().waitFor();
        await page.getByRole('button', { name: 'Share' }).click();
        await page.getByRole('dialog').getByText('Bob Builder').waitFor();
      },
    },
    {
      name: 'public-board',
      signedOut: true,
      open: async (page) => {
        await page.goto(publicPath);
        await page.locator('[data-card-id]').first().waitFor();
      },
    },
    {
      name: 'notifications',
      open: async (page) => {
        await page.goto('/');
        await page.locator('.tile').first().waitFor();
        await page.getByRole('button', { name: /^Notifications, [1-9]/ }).click();
        await page.getByRole('dialog').getByText('Bob Builder').first().waitFor();
      },
    },
    {
      name: 'my-work',
      open: async (page) => {
        await page.goto('/my-work');
        await page.getByRole('heading', { name: 'Overdue' }).waitFor();
      },
    },
    {
      name: 'settings',
      open: async (page) => {
        await page.goto('/settings');
        await page.getByRole('heading', { name: 'Settings' }).waitFor();
        await page.getByText('Read-only').first().waitFor();
      },
    },
    {
      name: 'admin',
      open: async (page) => {
        await page.goto('/admin');
        await page.getByText('Bob Builder').first().waitFor();
      },
    },
    {
      name: 'not-found',
      open: async (page) => {
        await page.goto('/no/such/page');
        await page.getByRole('heading').first().waitFor();
      },
    },
  ];

  test('every page in light and dark, at 1400 and 390 px, with no serious accessibility finding', async () => {
    // Bob is on the kanban board too, with the rich card open: presence shows in Ada's screens.
    const watcher = await e2e.newPage({ as: bob, width: 1200, height: 800 });
    await watcher.page.goto(`/board/${seeded.kanban}?card=${seeded.richCard}`);
    await watcher.page.getByRole('dialog').waitFor();

    const problems: string[] = [];
    for (const scheme of ['light', 'dark'] as const) {
      for (const width of [1400, 390]) {
        const size = { width, height: width === 390 ? 844 : 900, colorScheme: scheme };
        const { page, context } = await e2e.newPage(size);
        const signedIn = await e2e.newPage({ as: ada, ...size });
        for (const screen of screens()) {
          const target = screen.signedOut ? page : signedIn.page;
          await screen.open(target);
          expect(await target.evaluate(() => document.documentElement.dataset.theme)).toBe(scheme);
          await settle(target);
          const name = `${screen.name}-${scheme}-${width}`;
          await screenshot(target, name);
          problems.push(...(await accessibilityProblems(target, name)));
        }
        await context.close();
        await signedIn.context.close();
      }
    }
    await watcher.context.close();
    expect(problems).toEqual([]);
  }, 300_000);

  test('the colour scheme follows the system until the reader picks one, and the choice stays', async () => {
    const { page, context } = await e2e.newPage({ as: ada, colorScheme: 'dark' });
    await page.goto('/');
    await page.locator('.tile').first().waitFor();
    const theme = () => page.evaluate(() => document.documentElement.dataset.theme);
    const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(await theme()).toBe('dark');
    const dark = await background();

    await page.emulateMedia({ colorScheme: 'light' });
    await expect.poll(theme).toBe('light');
    expect(await background()).not.toBe(dark);

    await page.getByRole('button', { name: 'Account' }).click();
    await page.getByRole('menuitemradio', { name: 'Dark' }).click();
    expect(await theme()).toBe('dark');
    await page.reload();
    await page.locator('.tile').first().waitFor();
    expect(await theme()).toBe('dark');
    await page.getByRole('button', { name: 'Account' }).click();
    await expect.poll(() => page.getByRole('menuitemradio', { name: 'Dark' }).getAttribute('aria-checked')).toBe('true');
    await page.getByRole('menuitemradio', { name: 'Match the system' }).click();
    expect(await theme()).toBe('light');
    await context.close();
  });
});

interface Screen {
  name: string;
  signedOut?: boolean;
  open(page: Page): Promise<void>;
}

async function seed(seed: Seed, ada: ApiUser, bob: ApiUser): Promise<Seeded> {
  const board = async (user: ApiUser, name: string, style: 'kanban' | 'todo', color: string | null, status = 'private') =>
    (await seed.board(user, name, { style, status, color })).id;
  const area = async (user: ApiUser, boardId: number, name: string) => (await seed.area(user, boardId, name)).id;
  const label = async (user: ApiUser, boardId: number, name: string) => (await seed.label(user, boardId, name)).id;
  const card = async (user: ApiUser, areaId: number, name: string, fields: Record<string, unknown> = {}) =>
    (await seed.card(user, areaId, name, fields)).id;

  const kanban = await board(ada, 'Product roadmap', 'kanban', '#4b5fd6');
  await seed.invite(ada, kanban, bob, 'edit');
  const [backlog, progress, review, done] = [
    await area(ada, kanban, 'Backlog'),
    await area(ada, kanban, 'In progress'),
    await area(ada, kanban, 'Review'),
    await area(ada, kanban, 'Done'),
  ];
  const [design, backend, bug, docs] = [
    await label(ada, kanban, 'design'),
    await label(ada, kanban, 'backend'),
    await label(ada, kanban, 'bug'),
    await label(ada, kanban, 'docs'),
  ];
  const both = [ada.id, bob.id];
  await card(ada, backlog, 'Dark mode for the board view', { labelIds: [design] });
  await card(ada, backlog, 'Export a board as CSV', { labelIds: [backend], dueDate: at(9) });
  await card(ada, backlog, 'Keyboard shortcuts cheat sheet', { labelIds: [docs] });
  await card(ada, backlog, 'Onboarding checklist for new teams', {
    content: '- [ ] Welcome mail\n- [ ] Sample board\n- [ ] First invite',
  });
  const richCard = await card(ada, progress, 'Redesign the card dialog', {
    labelIds: [design],
    assignees: both,
    dueDate: at(0, 23),
    reminders: [60, 1440],
    content:
      'The dialog should feel calm and fast.\n\n- [x] Sketch the layout\n- [x] Review with the team\n- [ ] Build the side panel\n- [ ] Test on a phone\n\nSee the **design notes** in the shared folder.',
  });
  const presence = await card(ada, progress, 'Realtime presence avatars', {
    labelIds: [backend],
    assignees: [bob.id],
    content: '- [x] Server\n- [ ] Web',
  });
  await card(ada, progress, 'Fix: drag indicator flickers', { labelIds: [bug], assignees: [ada.id], dueDate: at(-2) });
  await card(ada, review, 'Weekly digest e-mail', {
    labelIds: [backend],
    assignees: both,
    repeatEvery: 'week',
    dueDate: at(4, 9),
  });
  await card(ada, review, 'Invitation page copy', { labelIds: [docs, design] });
  await card(ada, done, 'Password reset by mail', { status: 1, assignees: [ada.id] });
  await card(ada, done, 'Sign-up form', { status: 1 });
  // Custom fields: two shown on the tiles, values on a few cards.
  const field = async (payload: Record<string, unknown>) =>
    (await ada.call<{ field: { id: number } }>('POST', '/api/data/field', { boardId: kanban, ...payload })).field.id;
  const priority = await field({ name: 'Priority', type: 'select', options: ['Low', 'Medium', 'High'], showOnCard: true });
  const estimate = await field({ name: 'Estimate', type: 'number', showOnCard: true });
  const spec = await field({ name: 'Spec', type: 'url' });
  const approved = await field({ name: 'Approved', type: 'checkbox' });
  const values = (cardID: number, fields: Record<string, unknown>) => ada.call('PUT', '/api/data/card', { cardID, fields });
  await values(richCard, {
    [priority]: 'High',
    [estimate]: 5,
    [spec]: 'https://example.com/specs/card-dialog',
    [approved]: true,
  });
  await values(presence, { [priority]: 'Medium', [estimate]: 3 });
  await ada.call('POST', '/api/data/comment', {
    cardId: richCard,
    content: 'I moved the labels to the side panel — much calmer.',
  });
  await bob.call('POST', '/api/data/comment', {
    cardId: richCard,
    content: 'Looks great. Can we keep **due date** and reminders together?',
  });

  const todo = await board(ada, 'Household', 'todo', '#2f8f83');
  const week = await area(ada, todo, 'This week');
  const later = await area(ada, todo, 'Later');
  const chores = await label(ada, todo, 'chores');
  await card(ada, week, 'Pay the electricity bill', { dueDate: at(1, 12), repeatEvery: 'month' });
  await card(ada, week, 'Book the dentist', { dueDate: at(-1, 10) });
  await card(ada, week, 'Water the plants', { labelIds: [chores], repeatEvery: 'week', dueDate: at(2, 8) });
  await card(ada, week, 'Return the library books', { status: 1 });
  await card(ada, week, 'Plan the weekend trip', { content: '- [x] Pick a place\n- [ ] Train tickets\n- [ ] Pack' });
  await card(ada, later, 'Repaint the hallway', { labelIds: [chores] });
  await card(ada, later, 'Sort the photo albums');

  // Something in the archives.
  const parked = await card(ada, backlog, 'Old pricing page');
  await ada.call('DELETE', '/api/data/card', { cardID: parked });
  const ideas = await area(ada, kanban, 'Ideas for later');
  await card(ada, ideas, 'Mobile app');
  await card(ada, ideas, 'Public API docs');
  await ada.call('DELETE', `/api/data/area?id=${ideas}&boardId=${kanban}`);
  const retired = await board(ada, 'Conference 2025', 'kanban', '#23766c');
  await ada.call('DELETE', `/api/data/board?id=${retired}&userId=${ada.id}`);

  await ada.call('POST', '/api/auth/api-key/create', { name: 'Nightly report script', readOnly: true });
  await ada.call('POST', '/api/auth/api-key/create', { name: 'Zapier', readOnly: false });

  await board(ada, 'Marketing site', 'kanban', '#a65a16');
  await board(ada, 'Hiring 2027', 'kanban', '#6f5bb5', 'public');
  await board(ada, 'Reading list', 'todo', null);
  const offsite = await board(bob, 'Team offsite', 'kanban', '#b5577e');
  await seed.invite(bob, offsite, ada, 'edit');
  return { kanban, todo, richCard };
}
