import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { OIDC_CLIENT, startIdp, type Idp } from '../test/oidc-provider.js';
import { accessibilityProblems, browserTestsEnabled, screenshot, settle } from './support.js';
import { useE2E } from './use-e2e.js';

const CORP = [{ sub: 'ada', email: 'ada@corp.example', emailVerified: true, name: 'Ada Lovelace', groups: ['tavla-admins'] }];
const PARTNER = [
  { sub: 'pat', email: 'pat@partner.example', emailVerified: true, name: 'Pat Partner' },
  { sub: 'newbie', email: 'newbie@partner.example', emailVerified: true, name: 'Newbie' },
];

/** On a provider's own (development) login page: any password goes. */
async function logInAtProvider(page: Page, idp: Idp, login: string) {
  await page.waitForURL(`${idp.issuer}/**`);
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill('anything');
  await page.locator('button[type="submit"]').click();
}

async function session(page: Page) {
  return (await (await page.request.get('/api/auth/get-session')).json()) as { user: { email: string; role: string } } | null;
}

describe.runIf(browserTestsEnabled)('enterprise sign-in: the address picks the provider', () => {
  let corp!: Idp;
  let partner!: Idp;
  beforeAll(async () => {
    corp = await startIdp(CORP);
    partner = await startIdp(PARTNER);
  });
  const e2e = useE2E({
    env: () => {
      const file = path.join(mkdtempSync(path.join(tmpdir(), 'tavla-sso-e2e-')), 'sso.json');
      const client = { clientId: OIDC_CLIENT.id, clientSecret: OIDC_CLIENT.secret };
      writeFileSync(
        file,
        JSON.stringify({
          providers: [
            {
              id: 'corp',
              type: 'oidc',
              name: 'Corp ID',
              domains: ['corp.example'],
              issuer: corp.issuer,
              ...client,
              adminGroup: { claim: 'groups', value: 'tavla-admins' },
            },
            {
              id: 'partner',
              type: 'oidc',
              name: 'Partner SSO',
              domains: ['partner.example'],
              issuer: partner.issuer,
              ...client,
              provisioning: 'existing',
            },
          ],
        }),
      );
      return { SSO_CONFIG: file };
    },
  });
  beforeAll(() => {
    corp.register(`${e2e.base}/api/auth/callback/corp`);
    partner.register(`${e2e.base}/api/auth/callback/partner`);
  });
  afterAll(async () => {
    await corp.close();
    await partner.close();
  });

  test('an address of domain A lands on provider A and signs in; the group makes an administrator', async () => {
    // The instance's first account is someone else: the role below is the group's doing.
    await e2e.seed.user('First');
    const { context, page } = await e2e.newPage({ width: 390, height: 800 });
    await page.goto('/sign-in?next=%2Fsettings');
    const address = page.getByLabel('E-mail address');
    await address.waitFor();
    // The address first: no password field until no provider claims it.
    expect(await page.getByLabel('Password').count()).toBe(0);
    expect(await accessibilityProblems(page, 'sign-in by address')).toEqual([]);
    await settle(page);
    await screenshot(page, 'sign-in-address-390-light');

    await address.fill('ada@corp.example');
    await page.getByRole('button', { name: 'Continue' }).click();
    await logInAtProvider(page, corp, 'ada');
    await page.waitForURL(`${e2e.base}/settings`);
    expect((await session(page))?.user).toMatchObject({ email: 'ada@corp.example', role: 'admin' });
    await context.close();
  });

  test('an address of domain B lands on provider B; it signs in only accounts that exist', async () => {
    const pat = await e2e.seed.user('Pat');
    await e2e.server.db.updateTable('user').set({ email: 'pat@partner.example' }).where('id', '=', pat.id).execute();

    const { context, page } = await e2e.newPage();
    await page.goto('/sign-in');
    await page.getByLabel('E-mail address').fill('pat@partner.example');
    await page.getByRole('button', { name: 'Continue' }).click();
    await logInAtProvider(page, partner, 'pat');
    await page.waitForURL(`${e2e.base}/`);
    expect((await session(page))?.user).toMatchObject({ email: 'pat@partner.example' });
    await context.close();

    const refused = await e2e.newPage();
    await refused.page.goto('/sign-in');
    await refused.page.getByLabel('E-mail address').fill('newbie@partner.example');
    await refused.page.getByRole('button', { name: 'Continue' }).click();
    await logInAtProvider(refused.page, partner, 'newbie');
    await refused.page.waitForURL(`${e2e.base}/sign-in?**`);
    await expect
      .poll(() => refused.page.getByRole('alert').first().textContent())
      .toBe('Partner SSO signs in only people who already have an account here. Ask your administrator for an invitation.');
    expect(await session(refused.page)).toBeNull();
    expect(await accessibilityProblems(refused.page, 'sign-in refused: account_not_found')).toEqual([]);
    await refused.context.close();
  });

  test('an address no provider claims gets the password field', async () => {
    const user = await e2e.seed.user('Local');
    const { context, page } = await e2e.newPage();
    await page.goto('/sign-in');
    await page.getByLabel('E-mail address').fill(user.email);
    await page.getByRole('button', { name: 'Continue' }).click();
    const password = page.getByLabel('Password');
    await password.waitFor();
    await password.fill(user.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${e2e.base}/`);
    expect((await session(page))?.user).toMatchObject({ email: user.email });
    await context.close();
  });
});
