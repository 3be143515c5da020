import type { Locator, Page } from 'playwright-core';
import { expect, test } from 'vitest';
import { accessibilityProblems, screenshot, settle } from './support.js';
import { describeE2E, type E2E } from './use-e2e.js';

const column = (page: Page, name: string): Locator =>
  page.locator('section[data-area-id]').filter({ has: page.getByRole('heading', { name, exact: true }) });
const cardNames = (scope: Locator) => scope.locator('[data-card-id] .card-name').allInnerTexts();

/** The same run on SQLite and on PostgreSQL: the rewind reads each database's event log and snapshots. */
const historyRun = (dialect: 'sqlite' | 'postgres') => (e2e: E2E) => {
  test('scrub the board back in time from its menu, see who changed what, restore a card as it was; axe-clean in light and dark at 1400 and 390 px', async () => {
    const ada = await e2e.seed.user('Ada Historian');
    const { board } = await e2e.seed.boardWith(ada, 'Launch', { Todo: ['Draft the plan', 'Book the room'], Done: [] });
    const boardId = board.id as number;
    const { areas } = await ada.call<{ areas: Array<{ id: number; name: string }> }>('GET', `/api/data/areas?boardId=${boardId}`);
    const todo = areas.find((a) => a.name === 'Todo')!;
    const { cards } = await ada.call<{ cards: Array<{ id: number; name: string }> }>('GET', `/api/data/cards?areaId=${todo.id}`);
    const draft = cards.find((c) => c.name === 'Draft the plan')!;
    await ada.call('PUT', '/api/data/card', { cardID: draft.id, name: 'Plan, rewritten', content: 'nothing left' });

    const { page, context } = await e2e.newPage({ as: ada });
    await page.goto(`/board/${boardId}`);
    await expect.poll(() => cardNames(column(page, 'Todo'))).toEqual(['Plan, rewritten', 'Book the room']);

    await page.getByRole('button', { name: 'Board menu' }).click();
    await page.getByRole('menuitem', { name: 'History' }).click();
    const dialog = page.getByRole('dialog', { name: 'Board history' });
    const changes = dialog.getByRole('region', { name: 'Changes' });
    // Newest first, with who made each change.
    await expect
      .poll(() => changes.getByRole('listitem').first().innerText())
      .toMatch(/^Ada Historian changed a card · .+\nPlan, rewritten$/);
    const past = dialog.getByRole('region', { name: /^The board at version \d+/ });
    await expect
      .poll(() => past.getByRole('region', { name: 'Todo' }).locator('.history-card-name').allInnerTexts())
      .toEqual(['Plan, rewritten', 'Book the room']);

    // One step back on the scrubber: the board as it stood before the rename.
    const scrubber = dialog.getByRole('slider', { name: 'Point in time' });
    await scrubber.focus();
    await page.keyboard.press('ArrowLeft');
    await expect
      .poll(() => past.getByRole('region', { name: 'Todo' }).locator('.history-card-name').allInnerTexts())
      .toEqual(['Draft the plan', 'Book the room']);
    expect(await changes.locator('[aria-current="step"]').innerText()).toMatch(/added an area[^]*Done$/);

    const problems: string[] = [];
    for (const scheme of ['light', 'dark'] as const) {
      for (const width of [1400, 390]) {
        await page.emulateMedia({ colorScheme: scheme });
        await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
        await settle(page);
        await screenshot(page, `history-${dialect === 'postgres' ? 'postgres-' : ''}${scheme}-${width}`);
        problems.push(...(await accessibilityProblems(page, `board history (${scheme}, ${width})`)));
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      }
    }
    expect(problems).toEqual([]);
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize({ width: 1400, height: 900 });

    // The card seen in the past comes back as it was, as a new change the board shows at once.
    await dialog.getByRole('button', { name: 'Restore the card “Draft the plan” as it was here' }).click();
    await page.getByText('“Draft the plan” is back as it was').waitFor();
    await expect
      .poll(() => changes.getByRole('listitem').first().innerText())
      .toMatch(/^Ada Historian changed a card · .+\nDraft the plan$/);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => cardNames(column(page, 'Todo'))).toEqual(['Draft the plan', 'Book the room']);
    const restored = await ada.call<{ card: { content: string } }>('GET', `/api/data/card?cardID=${draft.id}`);
    expect(restored.card.content).toBe('');
    if (dialect === 'postgres') expect(e2e.server.dialect).toBe('postgres');
    await context.close();
  }, 120_000);
};

describeE2E('board history', historyRun('sqlite'));
describeE2E('board history', { dialect: 'postgres' }, historyRun('postgres'));
