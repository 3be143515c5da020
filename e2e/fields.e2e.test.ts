import { expect, test } from 'vitest';
import { accessibilityProblems } from './support.js';
import { describeE2E } from './use-e2e.js';

type Field = { id: number; name: string; type: string; options: string[]; showOnCard: boolean; sort: number };

describeE2E('custom fields', (e2e) => {
  test('adds fields from the board menu, reorders them from the keyboard, sets values in the card dialog and sees them on the tile', async () => {
    const ada = await e2e.seed.user('Ada Fields');
    const { board, cards } = await e2e.seed.boardWith(ada, 'Release', { Todo: ['Spec', 'Build'] });
    const fieldsOf = async () =>
      (await ada.call<{ fields: Field[] }>('GET', `/api/data/fields?boardId=${board.id}`)).fields.map((f) => f.name);

    const { page, context } = await e2e.newPage({ as: ada });
    await page.goto(`/board/${board.id}`);
    await page.getByRole('button', { name: 'Board menu' }).click();
    await page.getByRole('menuitem', { name: 'Fields…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Custom fields' });
    const add = dialog.getByRole('form', { name: 'Add a field' });

    await add.getByLabel('Name').fill('Size');
    await add.getByLabel('Type').selectOption('select');
    await add.getByLabel('Options (one per line)').fill('Small\nLarge');
    await add.getByLabel('Show on card').check();
    await add.getByRole('button', { name: 'Add field' }).click();
    await expect.poll(fieldsOf, { timeout: 10_000 }).toEqual(['Size']);

    await add.getByLabel('Name').fill('Points');
    await add.getByLabel('Type').selectOption('number');
    await add.getByRole('button', { name: 'Add field' }).click();
    await expect.poll(fieldsOf, { timeout: 10_000 }).toEqual(['Size', 'Points']);

    // Reorder from the keyboard: focus "Move Points up" and press Enter.
    await dialog.getByRole('button', { name: 'Move Points up' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(fieldsOf, { timeout: 10_000 }).toEqual(['Points', 'Size']);
    await expect.poll(() => dialog.getByRole('status').innerText(), { timeout: 10_000 }).toBe('Points moved to position 1 of 2');

    // Rename in place.
    const rename = dialog.locator('[data-field-row] .field-name-input').first();
    await rename.fill('Estimate');
    await rename.press('Enter');
    await expect.poll(fieldsOf, { timeout: 10_000 }).toEqual(['Estimate', 'Size']);
    expect(await accessibilityProblems(page, 'fields dialog')).toEqual([]);
    await page.keyboard.press('Escape');

    await page.goto(`/board/${board.id}?card=${cards.Spec!.id}`);
    const card = page.getByRole('dialog');
    await card.getByLabel('Size').selectOption('Large');
    const estimate = card.getByLabel('Estimate');
    await estimate.fill('8');
    await estimate.press('Enter');
    await expect
      .poll(
        async () =>
          Object.values(
            (await ada.call<{ card: { fields: Record<string, unknown> } }>('GET', `/api/data/card?cardID=${cards.Spec!.id}`)).card
              .fields,
          ).sort(),
        { timeout: 10_000 },
      )
      .toEqual([8, 'Large']);
    expect(await accessibilityProblems(page, 'card dialog with fields')).toEqual([]);
    await page.keyboard.press('Escape');

    // The tile shows the value of the field shown on cards (Size), not the other one.
    const tile = page.locator(`[data-card-id="${cards.Spec!.id}"]`);
    await expect.poll(() => tile.locator('.card-field-badge').allTextContents(), { timeout: 10_000 }).toEqual(['Size: Large']);
    expect(await tile.getAttribute('aria-label')).toContain('Size: Large');
    await context.close();

    // On a phone.
    const phone = await e2e.newPage({ as: ada, width: 390, height: 844 });
    await phone.page.goto(`/board/${board.id}`);
    await phone.page.getByRole('button', { name: 'Board menu' }).click();
    await phone.page.getByRole('menuitem', { name: 'Fields…' }).click();
    await phone.page.getByRole('dialog', { name: 'Custom fields' }).waitFor();
    expect(await phone.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect(await accessibilityProblems(phone.page, 'fields dialog at 390')).toEqual([]);
    await phone.page.keyboard.press('Escape');
    await phone.page.goto(`/board/${board.id}?card=${cards.Spec!.id}`);
    await phone.page.getByRole('dialog').getByLabel('Size').waitFor();
    expect(await accessibilityProblems(phone.page, 'card dialog with fields at 390')).toEqual([]);
    await phone.context.close();

    // In dark mode.
    const dark = await e2e.newPage({ as: ada, colorScheme: 'dark' });
    await dark.page.goto(`/board/${board.id}`);
    await dark.page.locator('.card-field-badge').first().waitFor();
    await dark.page.getByRole('button', { name: 'Board menu' }).click();
    await dark.page.getByRole('menuitem', { name: 'Fields…' }).click();
    await dark.page.getByRole('dialog', { name: 'Custom fields' }).waitFor();
    expect(await accessibilityProblems(dark.page, 'fields dialog, dark')).toEqual([]);
    await dark.context.close();
  }, 180_000);
});
