import { createServer, type IncomingHttpHeaders, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { accessibilityProblems, screenshot, settle, type ApiUser } from './support.js';
import { describeE2E } from './use-e2e.js';

interface Received {
  headers: IncomingHttpHeaders;
  body: unknown;
}

/** A receiver on this machine that answers 200 and keeps what it was sent. */
async function startReceiver(): Promise<{ url: string; received: Received[]; close(): Promise<void> }> {
  const received: Received[] = [];
  const server: HttpServer = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      let body: unknown = null;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        // Kept as null: the assertions below name what was expected.
      }
      received.push({ headers: request.headers, body });
      response.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks/tavla`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const boardMenu = (page: Page): Locator => page.getByRole('button', { name: 'Board menu' });
const webhooksDialog = (page: Page): Locator => page.getByRole('dialog', { name: 'Webhooks of “Launch plan”' });

/**
 * Outgoing webhooks from the board menu, against the real server: a receiver
 * on 127.0.0.1 (allowed by WEBHOOK_ALLOW_PRIVATE), a card move delivered to
 * it and shown in the dialog, sent again, and the webhook deleted.
 */
describeE2E('webhooks', { env: { WEBHOOK_ALLOW_PRIVATE: 'true' } }, (e2e) => {
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let ada: ApiUser;
  let bob: ApiUser;
  let boardId: number;
  let todo: number;
  let done: number;
  let cardId: number;

  const signedIn = (user: ApiUser, width = 1400, scheme: 'light' | 'dark' = 'light') =>
    e2e.newPage({ as: user, width, height: width === 390 ? 844 : 900, colorScheme: scheme });

  /** The board menu, opened and walked with the keyboard, to the Webhooks dialog. */
  const openWebhooks = async (page: Page) => {
    await page.goto(`/board/${boardId}`);
    await page.locator(`[data-card-id="${cardId}"]`).waitFor();
    await boardMenu(page).focus();
    await page.keyboard.press('Enter');
    const item = page.getByRole('menuitem', { name: 'Webhooks' });
    await item.waitFor();
    while (!(await item.evaluate((el) => el === document.activeElement))) await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    const dialog = webhooksDialog(page);
    await dialog.waitFor();
    return dialog;
  };

  beforeAll(async () => {
    receiver = await startReceiver();
    ada = await e2e.seed.user('Ada Lovelace');
    bob = await e2e.seed.user('Bob Builder');
    boardId = (await e2e.seed.board(ada, 'Launch plan')).id;
    todo = (await e2e.seed.area(ada, boardId, 'To do')).id;
    done = (await e2e.seed.area(ada, boardId, 'Done')).id;
    cardId = (await e2e.seed.card(ada, todo, 'Write the announcement')).id;
    await e2e.seed.invite(ada, boardId, bob, 'edit');
  });

  afterAll(async () => {
    await receiver?.close();
  });

  test('add a webhook (secret once, events), see a card move delivered, redeliver it, delete the webhook', async () => {
    const problems: string[] = [];
    const { context, page } = await signedIn(ada);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: e2e.base });

    const dialog = await openWebhooks(page);
    await dialog.getByText('This board has no webhooks yet.').waitFor();
    const url = dialog.getByLabel('Address (URL)');
    expect(await url.evaluate((el) => el === document.activeElement)).toBe(true);

    // A refused address is said in the dialog, which stays open; nothing is added.
    await url.fill('ftp://127.0.0.1/not-http');
    await dialog.getByRole('button', { name: 'Add webhook' }).click();
    await expect.poll(() => dialog.getByRole('alert').innerText()).toContain('cannot receive webhooks');
    expect((await ada.call<{ webhooks: unknown[] }>('GET', `/api/data/webhook?boardId=${boardId}`)).webhooks).toEqual([]);

    // Picking events: "only these" with none picked is refused before any request.
    await url.fill(receiver.url);
    await dialog.getByRole('radio', { name: 'Only the events I pick' }).check();
    await dialog.getByRole('button', { name: 'Add webhook' }).click();
    await expect.poll(() => dialog.getByRole('alert').innerText()).toBe('Pick at least one event.');
    const cards = dialog.getByRole('group', { name: 'Cards' });
    await cards.getByRole('checkbox', { name: 'Card moved' }).check();
    await cards.getByRole('checkbox', { name: 'Card added' }).check();
    await settle(page);
    problems.push(...(await accessibilityProblems(page, 'webhook-events-1400')));
    await screenshot(page, 'webhook-events-1400');
    await dialog.getByRole('button', { name: 'Add webhook' }).click();

    // The secret, once, with Copy.
    const secretDialog = page.getByRole('dialog', { name: 'The webhook’s signing secret' });
    await secretDialog.waitFor();
    const secret = await secretDialog.getByLabel('Signing secret').inputValue();
    expect(secret.length).toBeGreaterThanOrEqual(16);
    await settle(page);
    problems.push(...(await accessibilityProblems(page, 'webhook-secret-1400')));
    await screenshot(page, 'webhook-secret-1400');
    await secretDialog.getByRole('button', { name: 'Copy' }).click();
    await secretDialog.getByText('Copied to the clipboard.').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    await secretDialog.getByRole('button', { name: 'Done' }).click();
    await expect.poll(() => secretDialog.count()).toBe(0);
    // The keyboard is back in the form, ready for another address.
    await expect.poll(() => url.evaluate((el) => el === document.activeElement)).toBe(true);

    // The list: address, events, active; the secret is never listed again.
    const listed = await ada.call<{ webhooks: Array<Record<string, unknown>> }>('GET', `/api/data/webhook?boardId=${boardId}`);
    expect(listed.webhooks).toHaveLength(1);
    expect(listed.webhooks[0]).not.toHaveProperty('secret');
    expect(JSON.stringify(listed)).not.toContain(secret);
    expect([...(listed.webhooks[0]!.events as string[])].sort()).toEqual(['card.created', 'card.moved']);
    const row = dialog.getByRole('listitem').filter({ hasText: receiver.url });
    await row.waitFor();
    const rowText = await row.innerText();
    expect(rowText).toContain('Card moved');
    expect(rowText).toContain('Card added');
    expect(rowText).toContain('Active');

    // A member who is not the owner has no Webhooks in the menu.
    const b = await signedIn(bob);
    await b.page.goto(`/board/${boardId}`);
    await b.page.locator(`[data-card-id="${cardId}"]`).waitFor();
    await boardMenu(b.page).click();
    await b.page.getByRole('menuitem', { name: 'Export as CSV' }).waitFor();
    expect(await b.page.getByRole('menuitem', { name: 'Webhooks' }).count()).toBe(0);
    await b.context.close();

    // A card moves: the receiver gets it, and the dialog shows it delivered.
    await ada.call('POST', '/api/data/cardMove', { cardId, fromAreaId: todo, toAreaId: done, newIndex: 0 });
    await expect.poll(() => receiver.received.length, { timeout: 15_000 }).toBe(1);
    expect(JSON.stringify(receiver.received[0]!.body)).toContain('card.moved');
    await row.getByRole('button', { name: 'Deliveries' }).click();
    const deliveries = page.getByRole('dialog', { name: `Deliveries to ${receiver.url}` });
    await deliveries.waitFor();
    const first = deliveries.getByRole('listitem').first();
    await expect.poll(() => first.getAttribute('data-status'), { timeout: 15_000 }).toBe('delivered');
    const firstText = await first.innerText();
    expect(firstText).toContain('Card moved');
    expect(firstText).toContain('Delivered');
    expect(firstText).toContain('HTTP 200');
    expect(firstText).toContain('1 attempt');
    await settle(page);
    problems.push(...(await accessibilityProblems(page, 'webhook-deliveries-1400')));
    await screenshot(page, 'webhook-deliveries-1400');

    // Redeliver: the receiver gets the same event again, and the dialog says so.
    await first.getByRole('button', { name: /^Redeliver Card moved of / }).click();
    await expect.poll(() => receiver.received.length, { timeout: 15_000 }).toBe(2);
    expect(JSON.stringify(receiver.received[1]!.body)).toContain('card.moved');
    await expect.poll(() => deliveries.getByRole('status').innerText()).toBe('The delivery was sent again.');
    await expect
      .poll(
        async () => (await deliveries.getByRole('listitem').evaluateAll((items) => items.map((i) => i.dataset.status))).join(),
        {
          timeout: 15_000,
        },
      )
      .not.toContain('pending');
    await page.keyboard.press('Escape');
    await expect.poll(() => deliveries.count()).toBe(0);

    // The dialog in dark and light, wide and narrow, with a webhook and its deliveries.
    for (const [width, scheme] of [
      [1400, 'dark'],
      [390, 'light'],
      [390, 'dark'],
    ] as const) {
      const screen = `webhooks-${width}-${scheme}`;
      const other = await signedIn(ada, width, scheme);
      const shown = await openWebhooks(other.page);
      await shown.getByRole('listitem').filter({ hasText: receiver.url }).waitFor();
      await settle(other.page);
      problems.push(...(await accessibilityProblems(other.page, screen)));
      await screenshot(other.page, screen);
      await shown.getByRole('button', { name: 'Deliveries' }).click();
      const list = other.page.getByRole('dialog', { name: `Deliveries to ${receiver.url}` });
      await list.getByRole('listitem').first().waitFor();
      await settle(other.page);
      problems.push(...(await accessibilityProblems(other.page, `${screen}-deliveries`)));
      await screenshot(other.page, `${screen}-deliveries`);
      await other.context.close();
    }
    await settle(page);
    problems.push(...(await accessibilityProblems(page, 'webhooks-1400-light')));
    await screenshot(page, 'webhooks-1400-light');

    // Delete, after a confirmation: gone from the list and from the server.
    await row.getByRole('button', { name: `Delete the webhook to ${receiver.url}` }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete this webhook?' });
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => row.count()).toBe(0);
    await expect
      .poll(() => dialog.getByRole('heading', { name: 'This board’s webhooks' }).evaluate((el) => el === document.activeElement))
      .toBe(true);
    await dialog.getByText('This board has no webhooks yet.').waitFor();
    expect((await ada.call<{ webhooks: unknown[] }>('GET', `/api/data/webhook?boardId=${boardId}`)).webhooks).toEqual([]);

    expect(problems).toEqual([]);
    await context.close();
  }, 120_000);
});
