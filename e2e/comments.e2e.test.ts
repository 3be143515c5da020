import { expect, test } from 'vitest';
import { accessibilityProblems } from './support.js';
import { describeE2E } from './use-e2e.js';

describeE2E('comments in the card dialog', (e2e) => {
  test('shows the newest page, loads older comments on request, and shows the length limits', async () => {
    const ada = await e2e.seed.user('Ada Commenter');
    const board = await e2e.seed.board(ada, 'Long talk');
    const area = await e2e.seed.area(ada, board.id, 'To do');
    const card = await e2e.seed.card(ada, area.id, 'Debated');
    // More comments than one page holds, written straight into the database: the API would take a while.
    const now = new Date().toISOString();
    await e2e.server.db
      .insertInto('comments')
      .values(
        Array.from({ length: 103 }, (_, i) => ({
          cardId: card.id,
          userId: ada.id,
          authorName: ada.name,
          content: `note ${i}`,
          createdAt: now,
          updatedAt: now,
        })),
      )
      .execute();

    const { page, context } = await e2e.newPage({ as: ada });
    await page.goto(`/board/${board.id}?card=${card.id}`);
    const dialog = page.getByRole('dialog');
    const comments = dialog.locator('.comment');
    await comments.filter({ hasText: 'note 102' }).waitFor();
    await expect.poll(() => comments.count(), { timeout: 10_000 }).toBe(100);
    expect(await comments.filter({ hasText: /^note 2$/ }).count()).toBe(0);

    const older = dialog.getByRole('button', { name: 'Show older comments' });
    await older.click();
    await expect.poll(() => comments.count(), { timeout: 10_000 }).toBe(103);
    expect(await comments.last().innerText()).toContain('note 0');
    await expect.poll(() => older.count(), { timeout: 10_000 }).toBe(0);

    // The editors stop at the API's limits and say so near them.
    const input = dialog.getByLabel('Write a comment…');
    expect(await input.getAttribute('maxlength')).toBe('20000');
    await input.fill('x'.repeat(19_000));
    await dialog.getByText('19000 of 20000 characters').waitFor();
    expect(await accessibilityProblems(page, 'card dialog with a long comment')).toEqual([]);
    await input.fill('');
    await dialog.getByRole('button', { name: /Add a description/ }).click();
    expect(await dialog.getByRole('textbox', { name: 'Description' }).getAttribute('maxlength')).toBe('100000');
    await context.close();
  }, 120_000);
});
