import type { Locator, Page } from 'playwright-core';
import { beforeAll, expect, test } from 'vitest';
import { accessibilityProblems, screenshot, settle, type ApiUser } from './support.js';
import { describeE2E } from './use-e2e.js';

const bellOf = (page: Page): Locator => page.getByRole('button', { name: /^Notifications,/ });
const bellLabel = (page: Page) => bellOf(page).getAttribute('aria-label');
const panelOf = (page: Page): Locator => page.getByRole('dialog', { name: 'Notifications' });
const boardTile = (page: Page, boardId: number): Locator => page.locator(`li[data-board-id="${boardId}"]`);

describeE2E('sharing a board and notifications', (e2e) => {
  let ada: ApiUser;
  let bob: ApiUser;
  let carol: ApiUser;
  let boardId: number;
  let cardId: number;

  const signedIn = (user: ApiUser, width = 1400, scheme: 'light' | 'dark' = 'light') =>
    e2e.newPage({ as: user, width, height: width === 390 ? 844 : 900, colorScheme: scheme });
  const members = async () =>
    (await ada.call<{ members: { id: string; permission: string }[] }>('GET', `/api/data/invite?boardId=${boardId}`)).members;

  beforeAll(async () => {
    ada = await e2e.seed.user('Ada Lovelace');
    bob = await e2e.seed.user('Bob Builder');
    carol = await e2e.seed.user('Carol Chen');
    // Bob is invited by his address below: that reaches only a verified one.
    await e2e.verifyAddress(bob);
    boardId = (await e2e.seed.board(ada, 'Launch plan')).id;
    const areaId = (await e2e.seed.area(ada, boardId, 'To do')).id;
    cardId = (await e2e.seed.card(ada, areaId, 'Write the announcement')).id;
    // Carol shares another board with Ada: she is someone Ada can pick by name.
    const side = (await e2e.seed.board(ada, 'Side project')).id;
    await e2e.seed.invite(ada, side, carol, 'edit');
  });

  test('share, get notified live, read, unread dots, and page through the history', async () => {
    const problems: string[] = [];

    // Bob watches his dashboard.
    const b = await signedIn(bob);
    await b.page.goto('/');
    await b.page.getByRole('heading', { name: 'Your boards' }).waitFor();
    await expect.poll(() => bellLabel(b.page)).toBe('Notifications, none unread');

    // Ada opens the sharing dialog from the board's tile.
    const a = await signedIn(ada);
    await a.page.goto('/');
    await a.page.getByRole('button', { name: 'Options for Launch plan' }).click();
    await a.page.getByRole('menuitem', { name: 'Share' }).click();
    const dialog = a.page.getByRole('dialog', { name: 'Share “Launch plan”' });
    await dialog.waitFor();
    const who = dialog.getByLabel('Invite by name or e-mail address');

    // A refusal is shown in the dialog, which stays open.
    await who.fill(ada.email);
    await dialog.getByRole('button', { name: 'Invite', exact: true }).click();
    await expect.poll(() => dialog.getByRole('alert').innerText()).toContain('You cannot invite yourself');
    expect(await dialog.isVisible()).toBe(true);

    // Picking a person by name: Carol, from Ada's other board.
    await who.fill('car');
    await dialog.getByRole('button', { name: 'Invite Carol Chen (Can edit)' }).click();
    await dialog.locator('.sharing-row').filter({ hasText: 'Carol Chen' }).waitFor();
    expect(await who.inputValue()).toBe('');

    // Bob by his address; his bell counts it without a reload.
    await who.fill(bob.email);
    await dialog.getByRole('button', { name: 'Invite', exact: true }).click();
    const bobRow = dialog.locator('.sharing-row').filter({ hasText: 'Bob Builder' });
    await bobRow.waitFor();
    await expect.poll(() => bellLabel(b.page), { timeout: 5000 }).toBe('Notifications, 1 unread');
    expect(await b.page.locator('.notif-badge').innerText()).toBe('1');
    // The invitation is about the board itself: its tile on Bob's dashboard has a dot.
    await boardTile(b.page, boardId).locator('.tile-unread').waitFor({ timeout: 5000 });

    // The notification is in his list; clicking it opens the board and closes the panel.
    await bellOf(b.page).click();
    const bobPanel = panelOf(b.page);
    const invitation = bobPanel.getByRole('link', { name: /Ada Lovelace shared the board “Launch plan” with you/ });
    await invitation.waitFor();
    expect(await invitation.innerText()).toContain('(unread)');
    await invitation.click();
    await b.page.waitForURL(`**/board/${boardId}`);
    await expect.poll(() => bobPanel.count()).toBe(0);
    await expect.poll(() => bellLabel(b.page)).toBe('Notifications, none unread');

    // Ada makes Bob a reader, then removes him.
    await bobRow.getByLabel('Permission of Bob Builder').selectOption('read');
    await expect.poll(async () => (await members()).find((m) => m.id === bob.id)?.permission).toBe('read');
    expect(await bobRow.getByLabel('Permission of Bob Builder').inputValue()).toBe('read');
    await bobRow.getByRole('button', { name: 'Remove Bob Builder' }).click();
    const confirm = a.page.getByRole('dialog', { name: 'Remove Bob Builder?' });
    await confirm.getByRole('button', { name: 'Remove' }).click();
    await expect.poll(() => bobRow.count()).toBe(0);
    expect((await members()).some((m) => m.id === bob.id)).toBe(false);

    // An address with no account waits under the pending invitations, with its date.
    await who.fill('newcomer@example.test');
    await dialog.getByRole('button', { name: 'Invite', exact: true }).click();
    const pending = dialog.getByRole('list', { name: 'Pending invitations' }).getByRole('listitem');
    await pending.filter({ hasText: 'newcomer@example.test' }).waitFor();
    const today = new Intl.DateTimeFormat('en', { dateStyle: 'medium' }).format(new Date());
    expect(await pending.first().innerText()).toContain(`Invited ${today}`);

    await settle(a.page);
    await screenshot(a.page, 'share-dialog-1400');
    problems.push(...(await accessibilityProblems(a.page, 'share-dialog-1400')));
    await dialog.getByRole('button', { name: 'Close' }).click();

    // Bob is on the board again; opening it reads the invitation.
    await e2e.seed.invite(ada, boardId, bob, 'edit');
    await expect.poll(() => bellLabel(b.page), { timeout: 5000 }).toBe('Notifications, 1 unread');
    await b.page.goto(`/board/${boardId}`);
    await b.page.locator(`[data-card-id="${cardId}"]`).waitFor();
    await expect.poll(() => bellLabel(b.page)).toBe('Notifications, none unread');
    await b.page.goto('/');
    await boardTile(b.page, boardId).waitFor();
    expect(await boardTile(b.page, boardId).locator('.tile-unread').count()).toBe(0);

    // Ada comments on the card: a dot on Bob's board tile, live.
    await ada.call('POST', '/api/data/comment', { cardId, content: 'Draft is ready for review' });
    await boardTile(b.page, boardId).locator('.tile-unread').waitFor({ timeout: 5000 });
    await expect.poll(() => bellLabel(b.page)).toBe('Notifications, 1 unread');
    await b.page.getByRole('link', { name: /Launch plan.*has unread notifications/ }).click();

    // On the board the card's tile has the dot; opening the card clears it and the count.
    const cardTile = b.page.locator(`[data-card-id="${cardId}"]`);
    await cardTile.locator('.unread-dot').waitFor();
    await cardTile.click();
    await b.page.waitForURL(`**/board/${boardId}?card=${cardId}`);
    await expect.poll(() => cardTile.locator('.unread-dot').count()).toBe(0);
    await expect.poll(() => bellLabel(b.page)).toBe('Notifications, none unread');

    // 45 more comments arrive while Bob is on his dashboard.
    await b.page.goto('/');
    await boardTile(b.page, boardId).waitFor();
    for (let i = 1; i <= 45; i++) await ada.call('POST', '/api/data/comment', { cardId, content: `Note number ${i}` });
    await expect.poll(() => bellLabel(b.page), { timeout: 10_000 }).toBe('Notifications, 45 unread');
    const total = (await bob.call<{ notifications: unknown[] }>('GET', '/api/data/notifications')).notifications.length;
    expect(total).toBe(48);

    // The list opens on the newest 20 and loads the rest as it scrolls.
    await b.page.reload();
    await bellOf(b.page).click();
    const items = bobPanel.locator('.notif-item');
    await expect.poll(() => items.count()).toBe(20);
    expect(await items.first().innerText()).toContain('Note number 45');
    expect(await bobPanel.locator('.notif-item.unread').count()).toBe(20);
    await settle(b.page);
    await screenshot(b.page, 'notifications-1400');
    problems.push(...(await accessibilityProblems(b.page, 'notifications-1400')));
    const scroller = bobPanel.locator('.notif-scroll');
    await expect
      .poll(
        async () => {
          await scroller.evaluate((el) => el.scrollTo(0, el.scrollHeight));
          return items.count();
        },
        { timeout: 10_000 },
      )
      .toBe(48);
    expect(await items.last().innerText()).toContain('shared the board “Launch plan” with you');
    expect(await bobPanel.getByRole('button', { name: 'Load older notifications' }).count()).toBe(0);
    await b.context.close();

    // On a phone: the panel fills the screen and pages with the button too; the dialog fits.
    const phone = await signedIn(bob, 390);
    await phone.page.goto('/');
    await bellOf(phone.page).click();
    const phonePanel = panelOf(phone.page);
    await expect.poll(() => phonePanel.locator('.notif-item').count()).toBe(20);
    // Polled: the panel opens with a short scale animation.
    await expect.poll(async () => Math.round((await phonePanel.boundingBox())?.width ?? 0)).toBe(390);
    await settle(phone.page);
    await screenshot(phone.page, 'notifications-390');
    problems.push(...(await accessibilityProblems(phone.page, 'notifications-390')));
    await phonePanel.getByRole('button', { name: 'Load older notifications' }).focus();
    await phone.page.keyboard.press('Enter');
    await expect.poll(() => phonePanel.locator('.notif-item').count()).toBeGreaterThanOrEqual(40);
    await phone.context.close();

    // In the dark scheme too.
    const dark = await signedIn(bob, 1400, 'dark');
    await dark.page.goto('/');
    await bellOf(dark.page).click();
    await expect.poll(() => panelOf(dark.page).locator('.notif-item').count()).toBe(20);
    await settle(dark.page);
    await screenshot(dark.page, 'notifications-dark-1400');
    problems.push(...(await accessibilityProblems(dark.page, 'notifications-dark-1400')));
    await dark.context.close();

    const adaPhone = await signedIn(ada, 390);
    await adaPhone.page.goto(`/board/${boardId}`);
    await adaPhone.page.getByRole('button', { name: 'Share' }).click();
    const phoneDialog = adaPhone.page.getByRole('dialog', { name: 'Share “Launch plan”' });
    await phoneDialog.locator('.sharing-row').filter({ hasText: 'Bob Builder' }).waitFor();
    const scrollWidth = await adaPhone.page.evaluate(() => document.documentElement.scrollWidth);
    expect(scrollWidth).toBeLessThanOrEqual(390);
    await settle(adaPhone.page);
    await screenshot(adaPhone.page, 'share-dialog-390');
    problems.push(...(await accessibilityProblems(adaPhone.page, 'share-dialog-390')));
    await adaPhone.context.close();
    await a.context.close();

    expect(problems).toEqual([]);
  }, 180_000);
});
