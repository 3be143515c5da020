import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { OIDC_CLIENT, startIdp, type Idp } from '../test/oidc-provider.js';
import { accessibilityProblems, browserTestsEnabled, screenshot, settle } from './support.js';
import { useE2E } from './use-e2e.js';

const PEOPLE = [
  { sub: 'ada', email: 'ada@corp.example', emailVerified: true, name: 'Ada Lovelace' },
  { sub: 'eve', email: 'eve@corp.example', emailVerified: false, name: 'Eve' },
];

/**
 * For the enclosing suite: a Tavla configured for a real OpenID provider
 * (started first, as the server's settings name it), the provider told where
 * Tavla lives.
 */
function withProvider(env: Record<string, string> = {}) {
  let idp!: Idp;
  beforeAll(async () => {
    idp = await startIdp(PEOPLE);
  });
  const e2e = useE2E({
    env: () => ({
      OIDC_ISSUER: idp.issuer,
      OIDC_CLIENT_ID: OIDC_CLIENT.id,
      OIDC_CLIENT_SECRET: OIDC_CLIENT.secret,
      OIDC_NAME: 'Corp ID',
      ...env,
    }),
  });
  beforeAll(() => idp.register(`${e2e.base}/api/auth/callback/oidc`));
  afterAll(() => idp.close());
  return { e2e, idp: () => idp };
}

/** On the provider's own (development) login page: any password goes. */
async function logInAtProvider(page: Page, idp: Idp, login: string) {
  await page.waitForURL(`${idp.issuer}/**`);
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill('anything');
  await page.locator('button[type="submit"]').click();
}

describe.runIf(browserTestsEnabled)('single sign-on in the browser', () => {
  const { e2e, idp } = withProvider();

  test('the whole redirect flow makes the account and signs it in, back where it started', async () => {
    const { context, page } = await e2e.newPage();
    await page.goto('/sign-in?next=%2Fsettings');
    const button = page.getByRole('button', { name: 'Sign in with Corp ID' });
    await button.waitFor();
    // Password sign-in is still offered beside it.
    await page.getByLabel('Password').waitFor();
    expect(await accessibilityProblems(page, 'sign-in with SSO')).toEqual([]);
    await settle(page);
    await screenshot(page, 'sign-in-sso-1400-light');

    await button.click();
    await logInAtProvider(page, idp(), 'ada');
    await page.waitForURL(`${e2e.base}/settings`);
    const session = (await (await page.request.get('/api/auth/get-session')).json()) as {
      user: { email: string; name: string; emailVerified: boolean };
    };
    expect(session.user).toMatchObject({ email: 'ada@corp.example', name: 'Ada Lovelace', emailVerified: true });
    await context.close();
  });

  test('an address the provider has not verified makes no account, and the page says why', async () => {
    const { context, page } = await e2e.newPage();
    await page.goto('/sign-in');
    await page.getByRole('button', { name: 'Sign in with Corp ID' }).click();
    await logInAtProvider(page, idp(), 'eve');
    await page.waitForURL(`${e2e.base}/sign-in?**`);
    await expect
      .poll(() => page.getByRole('alert').textContent())
      .toContain('Corp ID has not confirmed your e-mail address, so no account was created');
    const session = await (await page.request.get('/api/auth/get-session')).json();
    expect(session).toBeNull();
    expect(await accessibilityProblems(page, 'sign-in SSO refusal')).toEqual([]);
    await context.close();
  });
});

describe.runIf(browserTestsEnabled)('single sign-on only, with the provider down', () => {
  const { e2e, idp } = withProvider({ OIDC_ONLY: 'true' });
  beforeAll(() => idp().close());

  test('no password form or sign-up, and a provider that does not answer gets a clear message', async () => {
    const { context, page } = await e2e.newPage({ width: 390, height: 800 });
    await page.goto('/sign-up');
    await page.waitForURL(`${e2e.base}/sign-in`);
    const button = page.getByRole('button', { name: 'Sign in with Corp ID' });
    await button.waitFor();
    expect(await page.getByLabel('Password').count()).toBe(0);
    expect(await page.getByRole('link', { name: /account/i }).count()).toBe(0);

    await button.click();
    await expect
      .poll(() => page.getByRole('alert').textContent())
      .toBe('Corp ID cannot be reached right now. Try again in a moment, or ask your administrator.');
    expect(page.url()).toBe(`${e2e.base}/sign-in`);
    expect(await accessibilityProblems(page, 'sign-in SSO only, provider down')).toEqual([]);
    await settle(page);
    await screenshot(page, 'sign-in-sso-only-390-light');
    await context.close();
  });
});
