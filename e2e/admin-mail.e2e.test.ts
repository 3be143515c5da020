import type { Page } from 'playwright-core';
import { expect, test } from 'vitest';
import { accessibilityProblems, addressVerified, screenshot, settle } from './support.js';
import { describeE2E } from './use-e2e.js';

const mailSection = (page: Page) => page.getByRole('region', { name: 'Mail' });
const banner = (page: Page) => page.getByRole('region', { name: 'E-mail address not confirmed' });
const poll = { timeout: 15_000 };
const accountRow = (page: Page, email: string) => page.locator('tbody tr').filter({ hasText: email });

describeE2E('mail on a fresh install', (e2e) => {
  test('the first account is confirmed; the admin page says mail goes to the outbox, sends a test mail and reads it', async () => {
    // The instance's first account: its administrator, confirmed without any mail.
    const admin = await e2e.seed.user('Ada Admin', { verified: true });
    expect(await addressVerified(e2e.server, admin)).toBe(true);
    const member = await e2e.seed.user('Max Member', { verified: false });

    const { page, context } = await e2e.newPage({ as: admin });
    await page.goto('/');
    await page.getByRole('heading', { name: 'Your boards' }).waitFor();
    expect(await banner(page).count()).toBe(0);

    await page.goto('/admin');
    const section = mailSection(page);
    await section.waitFor();
    await expect.poll(() => section.innerText(), poll).toContain('No SMTP_URL is set');
    expect(await section.innerText()).toContain(`${e2e.server.dataDir}/outbox`);

    await section.getByRole('button', { name: 'Send a test mail' }).click();
    await expect.poll(() => section.getByRole('status').innerText(), poll).toBe(`A test mail went to ${admin.email}.`);
    const entry = section.getByRole('button', { name: 'Read the mail “Test mail from Tavla”' });
    await entry.waitFor();
    await entry.click();
    const mail = section.getByRole('article', { name: 'Test mail from Tavla' });
    await mail.waitFor();
    expect(await mail.innerText()).toContain('Ada Admin sent this test mail from the administration page of Tavla');
    await settle(page);
    await screenshot(page, 'admin-mail-1400');
    expect(await accessibilityProblems(page, 'admin-mail-1400')).toEqual([]);

    // The member's address is not confirmed: the administrator confirms it by hand.
    const row = accountRow(page, member.email);
    expect(await row.innerText()).toContain('Not confirmed');
    expect(await accountRow(page, admin.email).innerText()).toContain('Confirmed');
    await row.getByRole('button', { name: 'Confirm address' }).click();
    await expect.poll(() => addressVerified(e2e.server, member), poll).toBe(true);
    await expect.poll(() => row.innerText(), poll).not.toContain('Not confirmed');
    await context.close();
  }, 90_000);

  test('on a phone (390 px) the banner of an unconfirmed address takes one line', async () => {
    const vera = await e2e.seed.user('Vera Verylongname', { verified: false });
    const phone = await e2e.newPage({ as: vera, width: 390, height: 844 });
    await phone.page.goto('/');
    await phone.page.getByRole('heading', { name: 'Your boards' }).waitFor();
    const shown = banner(phone.page);
    await shown.waitFor();
    await settle(phone.page);
    const button = shown.getByRole('button', { name: 'Send again' });
    const [box, buttonBox] = [await shown.boundingBox(), await button.boundingBox()];
    // One line: no taller than its button and padding, and everything in it on the button's line.
    expect(box!.height).toBeLessThanOrEqual(buttonBox!.height + 16);
    const words = shown.locator('.verify-short').first();
    const wordsBox = await words.boundingBox();
    expect(wordsBox!.height).toBeLessThanOrEqual(buttonBox!.height);
    expect(box!.width).toBeLessThanOrEqual(390);
    expect(await words.innerText()).toMatch(/^Confirm your address/);
    await screenshot(phone.page, 'verify-banner-390');
    expect(await accessibilityProblems(phone.page, 'verify-banner-390')).toEqual([]);

    // The button still works there.
    await button.click();
    await expect.poll(() => shown.getByRole('status').innerText(), poll).toBe('Sent: look in your inbox.');
    expect((await shown.boundingBox())!.height).toBeLessThanOrEqual(buttonBox!.height + 16);
    await phone.context.close();

    // On a wide screen, the whole sentence.
    const wide = await e2e.newPage({ as: vera });
    await wide.page.goto('/');
    await banner(wide.page).waitFor();
    expect(await banner(wide.page).innerText()).toContain(
      `Please confirm your address ${vera.email} with the link we mailed you.`,
    );
    await wide.context.close();
  }, 90_000);
});
