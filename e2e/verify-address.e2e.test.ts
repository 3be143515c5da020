import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  VERIFY_LINK,
  accessibilityProblems,
  apiUser,
  browserTestsEnabled,
  cookieFor,
  launchBrowser,
  mailLink,
  newPage,
  screenshot,
  settle,
  startServer,
  type ApiUser,
  type Server,
} from './support.js';

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

describe.runIf(browserTestsEnabled)('verifying the e-mail address', () => {
  let server: Server;
  let browser: Browser;

  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const signedIn = async (user: ApiUser) => {
    const opened = await newPage(browser, server.baseUrl);
    await opened.context.addCookies([cookieFor(user, server.baseUrl)]);
    return opened;
  };

  test('a banner until the address is verified; the mail comes again on request; its link verifies later', async () => {
    const vera = await apiUser(server, 'Vera Unverified');
    const { page, context } = await signedIn(vera);
    await page.goto('/');
    await page.getByRole('heading', { name: 'Your boards' }).waitFor();
    await banner(page).waitFor();
    expect(await banner(page).innerText()).toContain(vera.email);
    await settle(page);
    await screenshot(page, 'verify-banner-1400');
    expect(await accessibilityProblems(page, 'verify-banner-1400')).toEqual([]);

    // The sign-up mail is there; another one on request.
    await expect.poll(() => verificationMails(server, vera.email), { timeout: 5000 }).toBe(1);
    await banner(page).getByRole('button', { name: 'Send the mail again' }).click();
    await expect.poll(() => banner(page).getByRole('status').innerText()).toBe('Sent: look in your inbox.');
    await expect.poll(() => verificationMails(server, vera.email), { timeout: 5000 }).toBe(2);
    expect(await accessibilityProblems(page, 'verify-banner-sent')).toEqual([]);

    // The banner stays on every page until then, a reload too.
    await page.goto('/settings');
    await banner(page).waitFor();

    // The first mail's link still works: it verifies and comes back to the app, without the banner.
    await page.goto(await mailLink(server, vera.email, VERIFY_LINK));
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByRole('heading', { name: 'Your boards' }).waitFor();
    expect(await banner(page).count()).toBe(0);
    await page.reload();
    await page.getByRole('heading', { name: 'Your boards' }).waitFor();
    expect(await banner(page).count()).toBe(0);
    await context.close();
  });

  test('an invitation to an unverified address: no access until its link is used signed in, which verifies too', async () => {
    const owner = await apiUser(server, 'Olga Owner');
    const ivan = await apiUser(server, 'Ivan Invited');
    const { board } = await owner.call<{ board: { id: number } }>('POST', '/api/data/board', {
      userId: owner.id,
      name: 'Quarterly plan',
      style: 'kanban',
      status: 'private',
    });
    await owner.call('POST', '/api/data/invite', { boardId: board.id, mail: ivan.email, permission: 'edit' });

    const { page, context } = await signedIn(ivan);
    await page.goto('/');
    await page.getByRole('heading', { name: 'Your boards' }).waitFor();
    await banner(page).waitFor();
    expect(await page.getByText('Quarterly plan').count()).toBe(0);

    await page.goto(await mailLink(server, ivan.email, /\/invite\/[0-9a-f]{64}/));
    await page.waitForURL(`**/board/${board.id}`);
    await page.getByRole('heading', { name: 'Quarterly plan' }).waitFor();
    await expect.poll(() => banner(page).count()).toBe(0);
    await context.close();
  });
});
