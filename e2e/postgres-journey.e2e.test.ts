import { expect, test } from 'vitest';
import { addCards, area, cardNames, createBoardWithAreas, signUpThroughForm, storedCards, tile } from './journey-steps.js';
import { describeE2E } from './use-e2e.js';

/**
 * The journey most users take, against PostgreSQL: the browser tests
 * otherwise run on SQLite, and what the web app sees must not depend on it.
 */
describeE2E('a user journey on PostgreSQL', { dialect: 'postgres' }, (e2e) => {
  test('sign up, make a board with areas and cards, drag a card, and find it there after a reload', async () => {
    const { page, context } = await e2e.newPage();
    await signUpThroughForm(page, 'Paula Postgres', 'paula@example.test');
    const boardId = await createBoardWithAreas(page, 'Move house', ['Pack', 'Load', 'Unpack']);
    await addCards(page, 'Pack', ['Books', 'Kitchen', 'Plants']);

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
    expect(e2e.server.dialect).toBe('postgres');
    expect(await storedCards(e2e.server, boardId)).toEqual([
      { name: 'Books', area: 'Pack' },
      { name: 'Plants', area: 'Load' },
      { name: 'Kitchen', area: 'Load' },
    ]);
    await context.close();
  }, 120_000);
});
