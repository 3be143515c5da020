import { expect, test } from 'vitest';
import { accessibilityProblems } from './support.js';
import { describeE2E } from './use-e2e.js';

describeE2E('teams: WIP limits and mentions', (e2e) => {
  test('sets a WIP limit from the area menu and sees it over; mentions a colleague, who is notified', async () => {
    const ada = await e2e.seed.user('Ada Lead');
    const bob = await e2e.seed.user('Bob Builder');
    const { board, areas, cards } = await e2e.seed.boardWith(ada, 'Sprint', { Todo: ['Spec'], Doing: ['Build', 'Test'] });
    await e2e.seed.invite(ada, board.id as number, bob, 'edit');

    const { page, context } = await e2e.newPage({ as: ada });
    await page.goto(`/board/${board.id}`);
    const doing = page.locator(`section[data-area-id="${areas.Doing!.id}"]`);
    await doing.getByRole('button', { name: 'Options for the area Doing' }).click();
    await page.getByRole('menuitem', { name: 'Work-in-progress limit…' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('spinbutton', { name: 'Most cards in this area' }).fill('1');
    await dialog.getByRole('button', { name: 'Save' }).click();
    const badge = doing.getByTestId('wip-count');
    await expect.poll(() => badge.innerText(), { timeout: 10_000 }).toBe('2/1');
    expect(await badge.getAttribute('class')).toContain('over');
    expect(await doing.getByTestId('wip-live').innerText()).toBe('Doing is over its limit: 2 cards, limit 1');
    const stored = await ada.call<{ areas: Array<{ id: number; wipLimit: number | null }> }>(
      'GET',
      `/api/data/areas?boardId=${board.id}`,
    );
    expect(stored.areas.find((a) => a.id === areas.Doing!.id)!.wipLimit).toBe(1);
    expect(await accessibilityProblems(page, 'board with an area over its WIP limit')).toEqual([]);

    await page.goto(`/board/${board.id}?card=${cards.Build!.id}`);
    const card = page.getByRole('dialog');
    const input = card.getByLabel('Write a comment…');
    await input.click();
    await input.pressSequentially('Over to @bo');
    const option = card.getByRole('option', { name: 'Bob Builder' });
    await option.waitFor({ timeout: 10_000 });
    await page.keyboard.press('Enter');
    await input.pressSequentially('for review');
    expect(await input.inputValue()).toBe(`Over to @[Bob Builder](${bob.id}) for review`);
    await card.getByRole('button', { name: 'Comment', exact: true }).click();
    const chip = card.locator('.comment .mention');
    await chip.waitFor({ timeout: 10_000 });
    expect(await chip.innerText()).toBe('@Bob Builder');
    expect(await card.locator('.comment-list').innerText()).not.toContain(bob.id);
    expect(await accessibilityProblems(page, 'card dialog with a mention')).toEqual([]);

    const { notifications } = await bob.call<{ notifications: Array<{ type: string; message: string; cardId: number }> }>(
      'GET',
      '/api/data/notifications',
    );
    expect(notifications.filter((n) => n.type === 'mention')).toEqual([
      expect.objectContaining({ cardId: cards.Build!.id, message: 'Ada Lead mentioned you in a comment on “Build”' }),
    ]);
    await context.close();
  }, 120_000);
});
