import type { Locator, Page } from 'playwright-core';
import { expect, test } from 'vitest';
import { accessibilityProblems, screenshot, settle } from './support.js';
import { describeE2E } from './use-e2e.js';

const column = (page: Page, name: string): Locator =>
  page.locator('section[data-area-id]').filter({ has: page.getByRole('heading', { name, exact: true }) });
const cardNames = (scope: Locator) => scope.locator('[data-card-id] .card-name').allInnerTexts();
/** Picks a template in the new-board form, by its name, as a pointer does (the radio itself is hidden under its label). */
const pick = (form: Locator, name: string) => form.locator('.template-name', { hasText: new RegExp(`^${name}$`) }).click();

describeE2E('board templates', (e2e) => {
  test('save a board as a template from its menu, make a new board from it, delete it again; axe-clean in light and dark at 1400 and 390 px', async () => {
    const ada = await e2e.seed.user('Ada Templater');
    const { board } = await e2e.seed.boardWith(ada, 'Release', {
      Plan: ['Write notes', 'Tag the build'],
      Ship: ['Publish'],
    });
    const boardId = board.id;
    const { page, context } = await e2e.newPage({ as: ada });
    await page.goto(`/board/${boardId}`);
    await expect.poll(() => cardNames(column(page, 'Plan'))).toEqual(['Write notes', 'Tag the build']);

    // The board menu saves it as a template, under a name of one's choosing.
    await page.getByRole('button', { name: 'Board menu' }).click();
    await page.getByRole('menuitem', { name: 'Save as template' }).click();
    const saveDialog = page.getByRole('dialog', { name: 'Save as template' });
    await expect.poll(() => saveDialog.getByLabel('Template name').inputValue()).toBe('Release');
    await saveDialog.getByLabel('Template name').fill('Release routine');
    await saveDialog.getByRole('button', { name: 'Save template' }).click();
    await page.getByText('Saved as the template “Release routine”').waitFor();
    await saveDialog.waitFor({ state: 'detached' });

    // The new-board form offers it beside the built-ins; the board made from it has its areas and cards.
    await page.goto('/');
    await page.getByRole('button', { name: 'New board' }).first().click();
    const form = page.getByRole('dialog', { name: 'New board' });
    await form.getByLabel('Name', { exact: true }).fill('Release 2');
    await form.getByText('A template', { exact: true }).click();
    for (const name of ['Kanban basics', 'Sprint', 'To-do list', 'Release routine'])
      await form.getByRole('radio', { name: new RegExp(`^${name}`) }).waitFor();
    // The list is one radio group: the keyboard moves through it.
    await pick(form, 'Kanban basics');
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => form.getByRole('radio', { name: /^Sprint/ }).isChecked()).toBe(true);
    await pick(form, 'Release routine');
    await form.getByText('Areas: 2 · Cards: 3').waitFor();

    const problems: string[] = [];
    for (const scheme of ['light', 'dark'] as const) {
      for (const width of [1400, 390]) {
        await page.emulateMedia({ colorScheme: scheme });
        await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
        await settle(page);
        await screenshot(page, `templates-new-board-${scheme}-${width}`);
        problems.push(...(await accessibilityProblems(page, `new board from a template (${scheme}, ${width})`)));
      }
    }
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize({ width: 1400, height: 900 });

    await form.getByRole('button', { name: 'Create board' }).click();
    await page.waitForURL(/\/board\/\d+$/);
    expect(Number(new URL(page.url()).pathname.split('/').pop())).not.toBe(boardId);
    await page.getByRole('heading', { name: 'Release 2', level: 1 }).waitFor();
    await expect.poll(() => cardNames(column(page, 'Plan'))).toEqual(['Write notes', 'Tag the build']);
    await expect.poll(() => cardNames(column(page, 'Ship'))).toEqual(['Publish']);

    // The save dialog, in both schemes and widths.
    await page.getByRole('button', { name: 'Board menu' }).click();
    await page.getByRole('menuitem', { name: 'Save as template' }).click();
    await saveDialog.waitFor();
    for (const scheme of ['light', 'dark'] as const) {
      for (const width of [1400, 390]) {
        await page.emulateMedia({ colorScheme: scheme });
        await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
        await settle(page);
        await screenshot(page, `templates-save-${scheme}-${width}`);
        problems.push(...(await accessibilityProblems(page, `save as template (${scheme}, ${width})`)));
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      }
    }
    expect(problems).toEqual([]);
    await page.keyboard.press('Escape');
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize({ width: 1400, height: 900 });

    // One's own template can be deleted from the new-board form; the built-ins cannot.
    await page.goto('/');
    await page.getByRole('button', { name: 'New board' }).first().click();
    await form.getByText('A template', { exact: true }).click();
    await form.getByRole('radio', { name: /^Release routine/ }).waitFor();
    expect(await form.getByRole('button', { name: /^Delete the template/ }).count()).toBe(1);
    await form.getByRole('button', { name: 'Delete the template “Release routine”' }).click();
    await page.getByText('Template “Release routine” deleted').waitFor();
    await expect.poll(() => form.getByRole('radio', { name: /^Release routine/ }).count()).toBe(0);
    const { templates } = await ada.call<{ templates: Array<{ builtIn: boolean }> }>('GET', '/api/data/templates');
    expect(templates.filter((t) => !t.builtIn)).toEqual([]);
    await context.close();
  }, 120_000);

  describeE2E('on a German instance', { env: { LANGUAGE: 'de' } }, (german) => {
    test('a board from a built-in template, in the instance language of a German instance', async () => {
      const ute = await german.seed.user('Ute Vorlage');
      const { page, context } = await german.newPage({ as: ute });
      await page.addInitScript(() => localStorage.setItem('tavla.language', 'en'));
      await page.goto('/');
      await page.getByRole('button', { name: 'New board' }).first().click();
      const form = page.getByRole('dialog', { name: 'New board' });
      await form.getByLabel('Name', { exact: true }).fill('Sprint 7');
      await form.getByText('A template', { exact: true }).click();
      await pick(form, 'Sprint');
      await form.getByRole('button', { name: 'Create board' }).click();
      await page.waitForURL(/\/board\/\d+$/);
      await expect.poll(() => cardNames(column(page, 'Backlog'))).toEqual(['Beispiel-Funktion', 'Beispiel-Fehler']);
      await column(page, 'In Prüfung').waitFor();
      await context.close();
    }, 120_000);
  });
});
