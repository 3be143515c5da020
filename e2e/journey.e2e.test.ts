import { expect, test } from 'vitest';
import { addCards, area, cardNames, createBoardWithAreas, signUpThroughForm, storedCards, tile } from './journey-steps.js';
import { VERIFY_LINK } from '../test/factories.js';
import { screenshot, signUpVia } from './support.js';
import { describeE2E } from './use-e2e.js';

describeE2E('the web app, end to end', (e2e) => {
  test('sign up, build a board, drag a card (live for a second account), edit the card, reload', async () => {
    const { page } = await e2e.newPage();

    // Sign up through the form.
    await signUpThroughForm(page, 'Ada Lovelace', 'ada@example.test');

    // A second account, watching its dashboard: the shared board appears there live.
    const bob = await e2e.newPage();
    await signUpVia(bob.page, e2e.base, 'Bob Builder', 'bob@example.test');
    // He confirms his address (Ada invites him by it): the mailed link brings him to his dashboard.
    await bob.page.goto(await e2e.mailLink('bob@example.test', VERIFY_LINK));
    await bob.page.getByRole('heading', { name: 'Your boards' }).waitFor();

    // Create a board with areas, and cards at the bottom of an area.
    const boardId = await createBoardWithAreas(page, 'Launch plan', ['To do', 'Doing', 'Done']);
    await addCards(page, 'To do', ['Write the announcement', 'Book the venue', 'Order the cake']);

    // Share it with Bob (edit access); his dashboard shows it without a reload.
    await page.getByRole('button', { name: 'Share' }).click();
    await page.getByPlaceholder('name@example.com').fill('bob@example.test');
    await page.getByRole('button', { name: 'Invite', exact: true }).click();
    await page.getByRole('dialog').getByText('Bob Builder').waitFor();
    await page.getByRole('button', { name: 'Close' }).click();
    await bob.page.getByRole('link', { name: /Launch plan/ }).waitFor({ timeout: 3000 });
    await expect(bob.page.locator('.tile-shared').count()).resolves.toBe(1);

    await bob.page.getByRole('link', { name: /Launch plan/ }).click();
    await bob.page.waitForURL(`**/board/${boardId}`);
    await expect.poll(() => cardNames(area(bob.page, 'To do'))).toHaveLength(3);
    // Each sees the other on the board.
    await page
      .locator('.presence')
      .getByRole('img', { name: /Bob Builder/ })
      .waitFor();

    // Drag "Book the venue" to the top of "Doing"; Bob sees it move within a second.
    const source = tile(page, 'Book the venue');
    const target = area(page, 'Doing');
    await source.dragTo(target.locator('.area-header'), { targetPosition: { x: 60, y: 36 } });
    const moved = Date.now();
    await expect.poll(() => cardNames(area(page, 'Doing'))).toEqual(['Book the venue']);
    await tile(area(bob.page, 'Doing'), 'Book the venue').waitFor({ timeout: 1000 });
    const seenAfter = Date.now() - moved;
    expect(seenAfter).toBeLessThan(1000);
    console.log(`the move reached the second browser in ${seenAfter} ms`);

    // Then drop "Order the cake" above "Book the venue" (on the card's upper half).
    const cake = tile(page, 'Order the cake');
    const venue = tile(page, 'Book the venue');
    await cake.dragTo(venue, { targetPosition: { x: 40, y: 4 } });
    await expect.poll(() => cardNames(area(page, 'Doing'))).toEqual(['Order the cake', 'Book the venue']);
    await expect.poll(() => cardNames(area(bob.page, 'Doing'))).toEqual(['Order the cake', 'Book the venue']);

    // The order holds after a reload and in the database.
    await page.reload();
    await expect.poll(() => cardNames(area(page, 'To do'))).toEqual(['Write the announcement']);
    await expect.poll(() => cardNames(area(page, 'Doing'))).toEqual(['Order the cake', 'Book the venue']);
    expect(await storedCards(e2e.server, boardId)).toEqual([
      { name: 'Write the announcement', area: 'To do' },
      { name: 'Order the cake', area: 'Doing' },
      { name: 'Book the venue', area: 'Doing' },
    ]);

    // The keyboard path: focus a card, M opens the move dialog.
    await tile(page, 'Book the venue').focus();
    await page.keyboard.press('m');
    const moveDialog = page.getByRole('dialog', { name: /Move/ });
    await moveDialog.getByLabel('Area').selectOption({ label: 'Done' });
    await moveDialog.getByRole('button', { name: 'Move' }).click();
    await expect.poll(() => cardNames(area(page, 'Done'))).toEqual(['Book the venue']);
    await expect.poll(() => cardNames(area(bob.page, 'Done'))).toEqual(['Book the venue']);

    // Open a card: a checklist in the description, tick an item, a label, a comment.
    await tile(page, 'Write the announcement').click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: /Add a description/ }).click();
    await dialog
      .getByRole('textbox', { name: 'Description' })
      .fill('Steps:\n\n- [ ] Draft the text\n- [ ] Review with the team\n- [ ] Publish');
    await dialog.getByRole('button', { name: 'Save', exact: true }).click();
    const boxes = dialog.locator('.description input[type="checkbox"]');
    await expect.poll(() => boxes.count()).toBe(3);
    await bob.page.getByText('0/3').waitFor();
    const saved = page.waitForResponse((r) => r.url().endsWith('/api/data/card') && r.request().method() === 'PUT');
    await boxes.nth(1).check();
    expect((await saved).status()).toBe(200);
    await tile(page, 'Write the announcement').getByText('1/3').waitFor();
    await bob.page.getByText('1/3').waitFor();

    await dialog.getByLabel('Add a label…').fill('launch');
    await dialog.getByLabel('Add a label…').press('Enter');
    await dialog.locator('.chip-list').getByText('launch').waitFor();
    await tile(bob.page, 'Write the announcement').getByText('launch').waitFor();

    await dialog.getByLabel('Write a comment…').fill('Looks **good** to me');
    await dialog.getByRole('button', { name: 'Comment', exact: true }).click();
    await dialog.locator('.comment').filter({ hasText: 'Looks good to me' }).waitFor();
    await dialog.getByText('commented').waitFor();
    await screenshot(page, 'journey-card-dialog-1400');

    // Bob opens the same card: the comment is there, and Ada sees him in it.
    await tile(bob.page, 'Write the announcement').click();
    await bob.page.getByRole('dialog').locator('.comment').filter({ hasText: 'Looks good to me' }).waitFor();
    await page.locator('.presence-item.in-card').waitFor();

    // A reload (the address holds the open card) shows it all.
    expect(page.url()).toContain('?card=');
    await page.reload();
    const reloaded = page.getByRole('dialog');
    await reloaded.locator('.comment').filter({ hasText: 'Looks good to me' }).waitFor();
    await expect(reloaded.locator('.description input[type="checkbox"]').nth(1).isChecked()).resolves.toBe(true);
    await expect(reloaded.locator('.description input[type="checkbox"]').nth(0).isChecked()).resolves.toBe(false);
    await reloaded.locator('.chip-list').getByText('launch').waitFor();
    const card = await e2e.server.db
      .selectFrom('cards')
      .select(['content'])
      .where('name', '=', 'Write the announcement')
      .executeTakeFirstOrThrow();
    expect(card.content).toContain('- [x] Review with the team');

    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, 'journey-card-dialog-390');
    await page.setViewportSize({ width: 1400, height: 900 });
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    await screenshot(page, 'journey-board-1400');
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, 'journey-board-390');

    await bob.context.close();
    await page.context().close();
  }, 120_000);

  test('read-only members see everything and can change nothing', async () => {
    const owner = await e2e.seed.user('Olive Owner');
    const reader = await e2e.seed.user('Rita Reader');
    const board = await e2e.seed.board(owner, 'Read me');
    const ideas = await e2e.seed.area(owner, board.id, 'Ideas');
    await e2e.seed.card(owner, ideas.id, 'A fine idea', { content: '- [ ] one' });
    await e2e.seed.invite(owner, board.id, reader, 'read');

    const { page, context } = await e2e.newPage({ as: reader });
    await page.goto(`/board/${board.id}`);
    await tile(page, 'A fine idea').waitFor();
    await page.getByText('View only').waitFor();
    expect(await page.getByRole('button', { name: 'Add card' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Add area' }).count()).toBe(0);
    expect(await page.locator('[draggable="true"]').count()).toBe(0);
    expect(await page.getByRole('button', { name: /Options for the area/ }).count()).toBe(0);

    await tile(page, 'A fine idea').focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog');
    await dialog.locator('.description').waitFor();
    expect(await dialog.locator('.description input[type="checkbox"]').isDisabled()).toBe(true);
    expect(await dialog.getByRole('button', { name: 'Edit', exact: true }).count()).toBe(0);
    expect(await dialog.getByLabel('Write a comment…').count()).toBe(0);
    expect(await dialog.getByLabel('Add a label…').count()).toBe(0);
    expect(await dialog.getByRole('button', { name: 'Card actions' }).count()).toBe(0);
    // The M shortcut does nothing for a reader. The card dialog must be gone before dialogs are counted.
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await tile(page, 'A fine idea').focus();
    await page.keyboard.press('m');
    // Keys are handled in order: once Enter has opened the card, M has been handled too, having opened nothing.
    await page.keyboard.press('Enter');
    await dialog.locator('.description').waitFor();
    expect(await page.getByRole('dialog').count()).toBe(1);
    await context.close();
  });

  test('a refused change rolls back with a message; the label limit is explained; files upload', async () => {
    const owner = await e2e.seed.user('Uma Uploader');
    const board = await e2e.seed.board(owner, 'Limits');
    const left = await e2e.seed.area(owner, board.id, 'Left');
    await e2e.seed.area(owner, board.id, 'Right');
    await e2e.seed.card(owner, left.id, 'Stays put');
    // Thirty words in use: a thirty-first is refused by the server.
    for (let i = 1; i <= 30; i++) await e2e.seed.label(owner, board.id, `word${i}`);

    const { page, context } = await e2e.newPage({ as: owner });
    await page.goto(`/board/${board.id}`);
    await tile(page, 'Stays put').waitFor();

    // The server refuses the move: the card goes back and a toast says so.
    await page.route('**/api/data/cardMove', (route) =>
      route.fulfill({ status: 409, contentType: 'application/json', body: JSON.stringify({ error: 'Archived meanwhile' }) }),
    );
    await tile(page, 'Stays put').dragTo(area(page, 'Right').locator('.area-header'), { targetPosition: { x: 60, y: 30 } });
    await page.getByRole('alert').filter({ hasText: 'Not saved' }).waitFor();
    await expect.poll(() => cardNames(area(page, 'Left'))).toEqual(['Stays put']);
    expect(await cardNames(area(page, 'Right'))).toEqual([]);
    await page.unroute('**/api/data/cardMove');

    // Enter opens the focused card.
    await tile(page, 'Stays put').focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Add a label…').fill('one too many');
    await dialog.getByLabel('Add a label…').press('Enter');
    await page.getByRole('alert').filter({ hasText: 'at most 30 labels' }).waitFor();

    // A file, with the upload's progress, then in the list.
    await dialog
      .locator('input[type="file"]')
      .setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') });
    await dialog.getByRole('link', { name: 'notes.txt' }).waitFor();
    await dialog.getByText('attached notes.txt').waitFor();
    await context.close();
  });

  test('a lost connection shows a quiet banner, reconnects and catches up from where it was', async () => {
    const owner = await e2e.seed.user('Rhea Reconnect');
    const board = await e2e.seed.board(owner, 'Flaky network');
    const first = await e2e.seed.area(owner, board.id, 'First');
    const second = await e2e.seed.area(owner, board.id, 'Second');
    const card = await e2e.seed.card(owner, first.id, 'Traveller');

    const { page, context } = await e2e.newPage({ as: owner });
    // The page must know the board's version before the network goes, to resume from it.
    const subscribed = new Promise<void>((resolve) => {
      page.on('websocket', (socket) => {
        socket.on('framereceived', ({ payload }) => {
          if (String(payload).includes('"type":"subscribed"')) resolve();
        });
      });
    });
    await page.goto(`/board/${board.id}`);
    await tile(page, 'Traveller').waitFor();
    await subscribed;

    // The network goes, and the server drops the socket.
    await context.setOffline(true);
    const sockets = (e2e.server.app as unknown as { websocketServer: { clients: Set<{ terminate(): void }> } }).websocketServer
      .clients;
    for (const socket of sockets) socket.terminate();
    await page.getByRole('status').filter({ hasText: 'Connection lost' }).waitFor();

    // Meanwhile the board changes.
    await owner.call('POST', '/api/data/cardMove', { cardId: card.id, fromAreaId: first.id, toAreaId: second.id, newIndex: 0 });
    await e2e.seed.card(owner, second.id, 'Made while away');

    // Back online: the missed events are replayed (resuming with `since`), no list is fetched again.
    const refetched: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/data/cards')) refetched.push(request.url());
    });
    await context.setOffline(false);
    await expect.poll(() => cardNames(area(page, 'Second')), { timeout: 20_000 }).toEqual(['Traveller', 'Made while away']);
    expect(await cardNames(area(page, 'First'))).toEqual([]);
    await expect.poll(() => page.getByText('Connection lost').count()).toBe(0);
    expect(refetched).toEqual([]);
    await context.close();
  });

  test('an invitation link creates the account and joins the board; a used link is refused', async () => {
    const owner = await e2e.seed.user('Ivy Inviter');
    const board = await e2e.seed.board(owner, 'Team board', { style: 'todo' });
    await owner.call('POST', '/api/data/invite', { boardId: board.id, mail: 'newcomer@example.test', permission: 'edit' });
    const link = await e2e.mailLink('newcomer@example.test', /\/invite\/[0-9a-f]{64}/);

    const { page, context } = await e2e.newPage();
    await page.goto(link);
    await page.getByText('Team board').waitFor();
    await page.getByText('Invitation for newcomer@example.test').waitFor();
    await page.getByLabel('Name').fill('Nina Newcomer');
    await page.getByLabel('Password').fill('a long password');
    await page.getByRole('button', { name: 'Create account and join' }).click();
    await page.waitForURL(`**/board/${board.id}`);
    await page.getByRole('heading', { name: 'Team board' }).waitFor();

    await page.goto(link);
    await page.getByRole('heading', { name: 'This invitation cannot be used' }).waitFor();
    await context.close();
  });

  test('a forgotten password is reset through the mailed link', async () => {
    const user = await e2e.seed.user('Pat Forgetful');
    const { page, context } = await e2e.newPage();
    await page.goto('/sign-in');
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await page.getByLabel('E-mail address').fill(user.email);
    await page.getByRole('button', { name: 'Send the link' }).click();
    await page.getByText('a link is on its way').waitFor();
    const link = await e2e.mailLink(user.email, /\/api\/auth\/reset-password\/[^\s?]+\?callbackURL=[^\s]+/);

    await page.goto(link);
    await page.waitForURL('**/reset-password?token=*');
    await page.getByLabel('New password', { exact: true }).fill('brand new secret');
    await page.getByLabel('Repeat the new password').fill('brand new secret');
    await page.getByRole('button', { name: 'Save the password' }).click();
    await page.getByText('Your password was changed').waitFor();
    await page.getByLabel('E-mail address').fill(user.email);
    await page.getByLabel('Password').fill('brand new secret');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Your boards' }).waitFor();

    // Sign out returns to the sign-in page.
    await page.getByRole('button', { name: 'Account' }).click();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    await page.waitForURL('**/sign-in');
    await context.close();
  });
});
