import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { OIDC_CLIENT, startIdp, type Idp } from '../test/oidc-provider.js';
import {
  accessibilityProblems,
  browserTestsEnabled,
  launchBrowser,
  newPage,
  screenshot,
  settle,
  startServer,
  type Server,
} from './support.js';

const PEOPLE = [
  { sub: 'ada', email: 'ada@corp.example', emailVerified: true, name: 'Ada Lovelace' },
  { sub: 'eve', email: 'eve@corp.example', emailVerified: false, name: 'Eve' },
];

/** A Tavla configured for a real OpenID provider (started by the test), the provider told where Tavla lives. */
async function withProvider(env: Record<string, string> = {}) {
  const idp = await startIdp(PEOPLE);
  const server = await startServer({
    OIDC_ISSUER: idp.issuer,
    OIDC_CLIENT_ID: OIDC_CLIENT.id,
    OIDC_CLIENT_SECRET: OIDC_CLIENT.secret,
    OIDC_NAME: 'Corp ID',
    ...env,
  });
  idp.register(`${server.baseUrl}/api/auth/callback/oidc`);
  return { idp, server };
}

/** On the provider's own (development) login page: any password goes. */
async function logInAtProvider(page: Page, idp: Idp, login: string) {
  await page.waitForURL(`${idp.issuer}/**`);
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill('anything');
  await page.locator('button[type="submit"]').click();
}

describe.runIf(browserTestsEnabled)('single sign-on in the browser', () => {
  let browser: Browser;
  let idp: Idp;
  let server: Server;

  beforeAll(async () => {
    ({ idp, server } = await withProvider());
    browser = await launchBrowser();
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await idp?.close();
  });

  test('the whole redirect flow makes the account and signs it in, back where it started', async () => {
    const { context, page } = await newPage(browser, server.baseUrl);
    await page.goto('/sign-in?next=%2Fsettings');
    const button = page.getByRole('button', { name: 'Sign in with Corp ID' });
    await button.waitFor();
    // Password sign-in is still offered beside it.
    await page.getByLabel('Password').waitFor();
    expect(await accessibilityProblems(page, 'sign-in with SSO')).toEqual([]);
    await settle(page);
    await screenshot(page, 'sign-in-sso-1400-light');

    await button.click();
    await logInAtProvider(page, idp, 'ada');
    await page.waitForURL(`${server.baseUrl}/settings`);
    const session = (await (await page.request.get('/api/auth/get-session')).json()) as {
      user: { email: string; name: string; emailVerified: boolean };
    };
    expect(session.user).toMatchObject({ email: 'ada@corp.example', name: 'Ada Lovelace', emailVerified: true });
    await context.close();
  });

  test('an address the provider has not verified makes no account, and the page says why', async () => {
    const { context, page } = await newPage(browser, server.baseUrl);
    await page.goto('/sign-in');
    await page.getByRole('button', { name: 'Sign in with Corp ID' }).click();
    await logInAtProvider(page, idp, 'eve');
    await page.waitForURL(`${server.baseUrl}/sign-in?**`);
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
  let browser: Browser;
  let idp: Idp;
  let server: Server;

  beforeAll(async () => {
    ({ idp, server } = await withProvider({ OIDC_ONLY: 'true' }));
    await idp.close();
    browser = await launchBrowser();
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  test('no password form or sign-up, and a provider that does not answer gets a clear message', async () => {
    const { context, page } = await newPage(browser, server.baseUrl, 390, 800);
    await page.goto('/sign-up');
    await page.waitForURL(`${server.baseUrl}/sign-in`);
    const button = page.getByRole('button', { name: 'Sign in with Corp ID' });
    await button.waitFor();
    expect(await page.getByLabel('Password').count()).toBe(0);
    expect(await page.getByRole('link', { name: /account/i }).count()).toBe(0);

    await button.click();
    await expect
      .poll(() => page.getByRole('alert').textContent())
      .toBe('Corp ID cannot be reached right now. Try again in a moment, or ask your administrator.');
    expect(page.url()).toBe(`${server.baseUrl}/sign-in`);
    expect(await accessibilityProblems(page, 'sign-in SSO only, provider down')).toEqual([]);
    await settle(page);
    await screenshot(page, 'sign-in-sso-only-390-light');
    await context.close();
  });
});
