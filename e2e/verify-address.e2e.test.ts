import type { Page } from 'playwright-core';
import { expect, test } from 'vitest';
import { VERIFY_LINK } from '../test/factories.js';
import { accessibilityProblems, screenshot, settle, type Server } from './support.js';
import { describeE2E } from './use-e2e.js';

const banner = (page: Page) => page.getByRole('region', { name: 'E-mail address not confirmed' });

/** How many verification mails the outbox holds for an address. */
async function verificationMails(server: Server, to: string): Promise<number> {
  const { readdirSync, readFileSync, existsSync } = await import('node:fs');
  const path = await import('node:path');
  const outbox = path.join(server.dataDir, 'outbox');
  if (!existsSync(outbox)) return 0;
  return readdirSync(outbox)
    .map((file) => readFileSync(path.join(outbox, file), 'utf8'))
    .filter((raw) => raw.includes(`To: ${to}`) && raw.includes('verify-email')).length;
}

describeE2E('verifying the e-mail address', (e2e) => {
  test('a banner until the address is verified; the mail comes again on request; its link verifies later', async () => {
    // The instance's first account counts as confirmed, with no mail: Vera signs up after it.
    await e2e.seed.user('Ada Administrator');
    const vera = await e2e.seed.user('Vera Unverified', { verified: false });
    const { page, context } = await e2e.newPage({ as: vera });
    await page.goto('/');
    await page.getByRole('heading', { name: 'Your boards' }).waitFor();
    await banner(page).waitFor();
    expect(await banner(page).innerText()).toContain(vera.email);
    await settle(page);
    await screenshot(page, 'verify-banner-1400');
    expect(await accessibilityProblems(page, 'verify-banner-1400')).toEqual([]);

    // The sign-up mail is there; another one on request.
    await expect.poll(() => verificationMails(e2e.server, vera.email), { timeout: 5000 }).toBe(1);
    await banner(page).getByRole('button', { name: 'Send the mail again' }).click();
    await expect.poll(() => banner(page).getByRole('status').innerText()).toBe('Sent: look in your inbox.');
    await expect.poll(() => verificationMails(e2e.server, vera.email), { timeout: 5000 }).toBe(2);
    expect(await accessibilityProblems(page, 'verify-banner-sent')).toEqual([]);

    // The banner stays on every page until then, a reload too.
    await page.goto('/settings');
    await banner(page).waitFor();

    // The first mail's link still works: it verifies and comes back to the app, without the banner.
    await page.goto(await e2e.mailLink(vera.email, VERIFY_LINK));
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByRole('heading', { name: 'Your boards' }).waitFor();
    expect(await banner(page).count()).toBe(0);
    await page.reload();
    await page.getByRole('heading', { name: 'Your boards' }).waitFor();
    expect(await banner(page).count()).toBe(0);
    await context.close();
  });

  test('an invitation to an unverified address: no access until its link is used signed in, which verifies too', async () => {
    const owner = await e2e.seed.user('Olga Owner');
    const ivan = await e2e.seed.user('Ivan Invited', { verified: false });
    const board = await e2e.seed.board(owner, 'Quarterly plan');
    await owner.call('POST', '/api/data/invite', { boardId: board.id, mail: ivan.email, permission: 'edit' });

    const { page, context } = await e2e.newPage({ as: ivan });
    await page.goto('/');
    await page.getByRole('heading', { name: 'Your boards' }).waitFor();
    await banner(page).waitFor();
    expect(await page.getByText('Quarterly plan').count()).toBe(0);

    await page.goto(await e2e.mailLink(ivan.email, /\/invite\/[0-9a-f]{64}/));
    await page.waitForURL(`**/board/${board.id}`);
    await page.getByRole('heading', { name: 'Quarterly plan' }).waitFor();
    await expect.poll(() => banner(page).count()).toBe(0);
    await context.close();
  });
});
