/// <reference lib="dom" />
// Functions passed to page.evaluate run in the browser: they see the DOM.
import type { Locator, Page } from 'playwright-core';
import { expect, test } from 'vitest';
import { describeE2E } from './use-e2e.js';

const area = (page: Page, name: string): Locator =>
  page.locator('section[data-area-id]').filter({ has: page.getByRole('heading', { name, exact: true }) });
const cardNames = (scope: Locator) => scope.locator('[data-card-id] .card-name').allInnerTexts();

/** What has the focus: its accessible text, whether it sits in the open dialog, and whether a focus ring is drawn. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    const dialogs = document.querySelectorAll('[role="dialog"]');
    const top = dialogs[dialogs.length - 1];
    const style = el ? getComputedStyle(el) : null;
    return {
      text: (el?.getAttribute('aria-label') ?? el?.textContent ?? '').trim(),
      tag: el?.tagName.toLowerCase() ?? '',
      type: el?.getAttribute('type') ?? '',
      inDialog: top ? top.contains(el) : null,
      ring: style ? style.outlineStyle !== 'none' || style.boxShadow !== 'none' : false,
    };
  });

type Focused = Awaited<ReturnType<typeof focused>>;

/** Presses Tab until the focused element matches; fails when it is never reached (so it is not reachable by keyboard). */
async function tabTo(page: Page, target: RegExp | ((now: Focused) => boolean), limit = 60): Promise<void> {
  const matches = typeof target === 'function' ? target : (now: Focused) => target.test(now.text);
  for (let i = 0; i < limit; i++) {
    const now = await focused(page);
    if (i > 0 && matches(now)) {
      expect(now.ring, `focus ring on ${now.text}`).toBe(true);
      return;
    }
    await page.keyboard.press('Tab');
  }
  throw new Error(`${String(target)} is not reachable with Tab`);
}

/** The core flows with the keyboard alone: no click anywhere in this file. */
describeE2E('keyboard only', (e2e) => {
  test('sign in, make a board, areas and cards, open, move and close a card; focus is trapped in dialogs and returns', async () => {
    const ada = await e2e.seed.user('Ada Lovelace');
    const { page, context } = await e2e.newPage();

    await page.goto('/sign-in');
    await page.locator('input[type="email"]').waitFor();
    const emailFocused = await page.evaluate(() => document.activeElement?.getAttribute('type') === 'email');
    if (!emailFocused) await tabTo(page, (now) => now.type === 'email');
    await page.keyboard.type(ada.email);
    await page.keyboard.press('Tab');
    await page.keyboard.type(ada.password);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Your boards' }).waitFor();

    // A new board, from its dialog; Tab never leaves the dialog.
    await tabTo(page, /New board/);
    await page.keyboard.press('Enter');
    await page.getByRole('dialog').waitFor();
    expect((await focused(page)).inDialog).toBe(true);
    await page.keyboard.type('Keyboard board');
    for (let i = 0; i < 25; i++) {
      await page.keyboard.press(i % 5 === 4 ? 'Shift+Tab' : 'Tab');
      expect((await focused(page)).inDialog).toBe(true);
    }
    await tabTo(page, /^Create board$/);
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/board\/\d+$/);

    // Areas: an empty board shows the form for the first one; focus stays in it between areas.
    await page.getByLabel('Area name').waitFor();
    await tabTo(page, /^Area name$/);
    for (const name of ['To do', 'Done']) {
      await page.keyboard.type(name);
      await page.keyboard.press('Enter');
      await area(page, name).waitFor();
    }

    // Cards, through "Add card" of the first area.
    await page.locator('body').focus();
    await tabTo(page, /^Add card$/);
    await page.keyboard.press('Enter');
    for (const name of ['First', 'Second']) {
      await page.keyboard.type(name);
      await page.keyboard.press('Enter');
    }
    await page.keyboard.press('Escape');
    await expect.poll(() => cardNames(area(page, 'To do'))).toEqual(['First', 'Second']);
    await expect.poll(() => page.locator('[data-card-id^="-"]').count()).toBe(0);

    // Open a card with Enter; Escape closes it and gives the focus back to its tile.
    await page.locator('body').focus();
    await tabTo(page, /^Second/);
    await page.keyboard.press('Enter');
    await page.getByRole('dialog').waitFor();
    expect((await focused(page)).inDialog).toBe(true);
    for (let i = 0; i < 40; i++) {
      await page.keyboard.press('Tab');
      expect((await focused(page)).inDialog).toBe(true);
    }
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    // The focus goes back once the dialog has gone from the page: poll for it.
    await expect.poll(async () => (await focused(page)).text, { timeout: 5000 }).toMatch(/^Second/);

    // M moves it: the dialog's first choice is the area, then the position.
    await page.keyboard.press('m');
    const move = page.getByRole('dialog');
    await move.waitFor();
    if ((await focused(page)).tag !== 'select') await tabTo(page, (now) => now.tag === 'select');
    await page.keyboard.press('ArrowDown'); // the next area: Done
    await tabTo(page, /^Move$/);
    await page.keyboard.press('Enter');
    await expect.poll(() => cardNames(area(page, 'Done'))).toEqual(['Second']);
    await expect.poll(() => cardNames(area(page, 'To do'))).toEqual(['First']);
    expect((await focused(page)).text).toMatch(/^Second/);

    // The account menu opens with Enter, arrows move, Escape closes back onto its button.
    await tabTo(page, /^Account$/);
    await page.keyboard.press('Enter');
    await page.getByRole('menu').waitFor();
    await page.keyboard.press('ArrowDown');
    expect((await focused(page)).text).not.toBe('');
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('menu').count()).toBe(0);
    expect((await focused(page)).text).toBe('Account');
    await context.close();
  }, 60_000);
});
