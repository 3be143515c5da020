import type { Page } from 'playwright-core';
import { expect, test } from 'vitest';
import { accessibilityProblems, screenshot, settle, type ApiUser } from './support.js';
import { describeE2E, type E2E } from './use-e2e.js';

/** A real 2×2 PNG, so the browser can draw it. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGNkYPjPwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==',
  'base64',
);

const ENGLISH = { heading: 'Settings', keys: /^Revoke|Create a key/ };
const GERMAN = { heading: 'Einstellungen', keys: /^Widerrufen|Schlüssel erstellen/ };

async function openSettings(e2e: E2E, user: ApiUser, width: number, words = ENGLISH): Promise<Page> {
  const { page } = await e2e.newPage({ as: user, width });
  await page.goto('/settings');
  try {
    await page.getByRole('heading', { name: words.heading, level: 1 }).waitFor();
  } catch (error) {
    await screenshot(page, `settings-failed-${width}`);
    throw error;
  }
  await page.getByRole('button', { name: words.keys }).first().waitFor();
  return page;
}

/** Signs in through the API; answers the status. */
async function signIn(e2e: E2E, email: string, password: string): Promise<number> {
  const res = await fetch(`${e2e.base}/api/auth/sign-in/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: e2e.base },
    body: JSON.stringify({ email, password }),
  });
  return res.status;
}

describeE2E('the settings page', (e2e) => {
  test('profile: a new name and picture show in the header, the language is kept on the account', async () => {
    const ada = await e2e.seed.user('Ada Lovelace');
    const page = await openSettings(e2e, ada, 1400);
    expect(await accessibilityProblems(page, 'settings')).toEqual([]);
    await expect.poll(() => page.getByLabel('E-mail address', { exact: true }).inputValue()).toBe(ada.email);
    await settle(page);
    await screenshot(page, 'settings-1400');

    // The name.
    await page.getByRole('region', { name: 'Profile' }).getByLabel('Name', { exact: true }).fill('Ada King');
    await page.getByRole('button', { name: 'Save the profile' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    await expect.poll(() => page.locator('.shell-user-name').innerText()).toBe('Ada King');

    // E-mail notices off, saved on the account.
    const notices = page.getByLabel('Send me notifications and a digest by e-mail');
    expect(await notices.isChecked()).toBe(true);
    await notices.uncheck();
    await page.getByRole('button', { name: 'Save the profile' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    const row = () =>
      e2e.server.db
        .selectFrom('user')
        .select(['name', 'emailNotifications', 'language', 'image'])
        .where('id', '=', ada.id)
        .executeTakeFirstOrThrow();
    await expect.poll(async () => Boolean((await row()).emailNotifications)).toBe(false);
    expect((await row()).name).toBe('Ada King');

    // The picture: the header's avatar becomes the uploaded image, drawn.
    expect(await page.locator('.shell-user img').count()).toBe(0);
    await page.getByLabel('Upload a picture').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: PNG });
    await page.getByRole('status').filter({ hasText: 'Your new picture is saved.' }).waitFor();
    const headerImage = page.locator('.shell-user img');
    await expect.poll(() => headerImage.getAttribute('src')).toMatch(/^\/api\/data\/avatar\/[0-9a-f]{32}\.png$/);
    await expect.poll(() => headerImage.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(2);
    expect((await row()).image).toBe(await headerImage.getAttribute('src'));

    // A file that is no picture is refused in the page, before any upload.
    await page
      .getByLabel('Upload a picture')
      .setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hi') });
    await page.getByRole('alert').filter({ hasText: 'Choose a PNG, JPEG, WebP or GIF picture.' }).waitFor();

    // Removing it brings the initials back.
    await page.getByRole('button', { name: 'Remove the picture' }).click();
    await page.getByRole('status').filter({ hasText: 'Your picture was removed.' }).waitFor();
    await expect.poll(() => page.locator('.shell-user img').count()).toBe(0);
    expect((await row()).image).toBeNull();

    // The language applies at once and is saved on the account: a fresh browser (no local memory) opens in German.
    await page.getByLabel('Language').selectOption('de');
    await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe('de');
    await expect.poll(async () => (await row()).language).toBe('de');
    await page.reload();
    await page.getByLabel('Sprache').waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('de');
    expect(await page.getByLabel('Sprache').inputValue()).toBe('de');
    const fresh = await openSettings(e2e, ada, 1400, GERMAN);
    expect(await fresh.evaluate(() => document.documentElement.lang)).toBe('de');
    expect(await fresh.getByLabel('Sprache').inputValue()).toBe('de');
    await fresh.context().close();

    await page.getByLabel('Sprache').selectOption('en');
    await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe('en');
    await expect.poll(async () => (await row()).language).toBe('en');
    await page.context().close();
  }, 120_000);

  test('password: a wrong current password is refused, the right one changes it', async () => {
    const grace = await e2e.seed.user('Grace Hopper');
    const page = await openSettings(e2e, grace, 1400);
    const change = async (current: string, next: string, repeat = next) => {
      await page.getByLabel('Current password').fill(current);
      await page.getByLabel('New password', { exact: true }).fill(next);
      await page.getByLabel('Repeat the new password').fill(repeat);
      await page.getByRole('button', { name: 'Change the password' }).click();
    };

    await change('not my password', 'a brand new secret');
    await page.getByRole('alert').filter({ hasText: 'The current password is not right.' }).waitFor();
    expect(await signIn(e2e, grace.email, grace.password)).toBe(200);

    await change(grace.password, 'a brand new secret', 'a different secret');
    await page.getByRole('alert').filter({ hasText: 'The two passwords are not the same.' }).waitFor();
    expect(await signIn(e2e, grace.email, grace.password)).toBe(200);

    await change(grace.password, 'a brand new secret');
    await page.getByRole('status').filter({ hasText: 'Your password was changed.' }).waitFor();
    expect(await page.getByLabel('Current password').inputValue()).toBe('');
    expect(await signIn(e2e, grace.email, 'a brand new secret')).toBe(200);
    expect(await signIn(e2e, grace.email, grace.password)).toBe(401);

    // This browser stays signed in.
    await page.reload();
    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
    await page.context().close();
  }, 120_000);

  for (const width of [1400, 390]) {
    test(`API keys at ${width}px: a read-only key reads, cannot write, and stops working once revoked`, async () => {
      const owner = await e2e.seed.user(`Key Owner ${width}`);
      const page = await openSettings(e2e, owner, width);
      await page.getByText('You have no API keys.').waitFor();
      if (width === 390) {
        expect(await accessibilityProblems(page, 'settings at 390px')).toEqual([]);
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
        await settle(page);
        await screenshot(page, 'settings-390');
      }

      await page.getByLabel('Key name').fill('Nightly report');
      await page.getByLabel(/^Read-only/).check();
      await page.getByRole('button', { name: 'Create a key' }).click();
      const dialog = page.getByRole('dialog', { name: 'Your new API key' });
      await dialog.waitFor();
      await dialog.getByText('It is shown only this once').waitFor();
      const secret = await dialog.getByLabel('API key secret').inputValue();
      expect(secret).toMatch(/^tvk_/);
      await dialog.getByRole('button', { name: 'Copy' }).click();
      await dialog.getByText(/Copied to the clipboard\.|The key is selected/).waitFor();
      expect(await accessibilityProblems(page, `new key dialog at ${width}px`)).toEqual([]);
      await settle(page);
      await screenshot(page, `settings-key-created-${width}`);
      await dialog.getByRole('button', { name: 'Done' }).click();
      await dialog.waitFor({ state: 'detached' });

      // The list shows it, read-only, without the secret.
      const item = page.getByRole('listitem').filter({ hasText: 'Nightly report' });
      await item.getByText('Read-only', { exact: true }).waitFor();
      expect(await item.innerText()).not.toContain(secret);
      expect(await page.content()).not.toContain(secret);

      const withKey = (method: string, url: string, body?: unknown) =>
        fetch(`${e2e.base}${url}`, {
          method,
          headers: { 'x-api-key': secret, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
          body: body === undefined ? null : JSON.stringify(body),
        });
      expect((await withKey('GET', '/api/data/notifications')).status).toBe(200);
      const boardsBefore = await e2e.server.db.selectFrom('boards').select('id').where('ownerId', '=', owner.id).execute();
      const write = await withKey('POST', '/api/data/board', {
        userId: owner.id,
        name: 'Sneaky',
        style: 'kanban',
        status: 'private',
      });
      expect(write.status).toBe(403);
      expect(await e2e.server.db.selectFrom('boards').select('id').where('ownerId', '=', owner.id).execute()).toEqual(
        boardsBefore,
      );

      // Revoke, after confirming.
      await page.getByRole('button', { name: 'Revoke the key Nightly report' }).click();
      const confirm = page.getByRole('dialog', { name: 'Revoke this key?' });
      await confirm.getByRole('button', { name: 'Cancel' }).click();
      expect((await withKey('GET', '/api/data/notifications')).status).toBe(200);
      await page.getByRole('button', { name: 'Revoke the key Nightly report' }).click();
      if (width === 1400) expect(await accessibilityProblems(page, 'revoke confirmation')).toEqual([]);
      await confirm.getByRole('button', { name: 'Revoke' }).click();
      await page.getByText('You have no API keys.').waitFor();
      expect((await withKey('GET', '/api/data/notifications')).status).toBe(403);
      await page.context().close();
    }, 120_000);
  }
});
