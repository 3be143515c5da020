/// <reference lib="dom" />
// Functions passed to page.evaluate run in the browser: they see the DOM.
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { createTestDatabase } from '../test/databases.js';
import { startApp } from '../test/harness.js';
import type { DialectName } from '../src/server/db/dialect.js';
import { projectRoot } from '../src/server/version.js';
import { ensureWebBuilt } from './web-build.js';

export { CHROMIUM, browserTestsEnabled, cookieFor, dragByMouse, launchBrowser, newPage, openBoard } from './browser.js';

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export type Server = Awaited<ReturnType<typeof startServer>>;

/**
 * The real server on a free port, with a fresh database (SQLite unless
 * `dialect` says PostgreSQL, which needs TEST_DATABASE_URL) and data folder,
 * serving the built app; `env` adds settings (LANGUAGE=de, say).
 */
export async function startServer(env: Record<string, string> = {}, dialect: DialectName = 'sqlite') {
  await ensureWebBuilt();
  const database = await createTestDatabase(dialect, { migrated: true });
  const { dataDir } = database;
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  try {
    const t = await startApp(dialect, database.url, dataDir, {
      env: { BASE_URL: baseUrl, SIGNIN_RATE_LIMIT: '100000', ...env },
    });
    await t.app.listen({ port, host: '127.0.0.1' });
    await t.app.jobs.start(200);
    return {
      ...t,
      baseUrl,
      dataDir,
      async close() {
        await t.app.close();
        await t.database.close();
        await database.drop();
      },
    };
  } catch (error) {
    await database.drop();
    throw error;
  }
}

export const screenshotDir = path.join(projectRoot, 'e2e/screenshots');

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(screenshotDir, { recursive: true });
  await page.screenshot({ path: path.join(screenshotDir, `${name}.png`) });
}

/** Signs up through the API inside the browser context (its session cookie stays there). */
export async function signUpVia(page: Page, baseUrl: string, name: string, email: string, password = 'correct horse battery') {
  const response = await page.request.post(`${baseUrl}/api/auth/sign-up/email`, {
    data: { name, email, password },
    headers: { origin: baseUrl },
  });
  if (!response.ok()) throw new Error(`sign-up failed: ${response.status()} ${await response.text()}`);
  return ((await response.json()) as { user: { id: string } }).user.id;
}

export interface ApiUser {
  id: string;
  name: string;
  email: string;
  password: string;
  /** `name=value` of the session cookie. */
  cookie: string;
  /** A JSON request as this user (cookie and a same-origin `Origin`). */
  call<T = unknown>(method: string, url: string, body?: unknown): Promise<T>;
}

let accounts = 0;

/** An account made through the HTTP API, for arranging what a test needs quickly. */
export async function apiUser(server: Server, name: string): Promise<ApiUser> {
  const email = `user${++accounts}-${Date.now()}@example.test`;
  const password = 'correct horse battery';
  const response = await fetch(`${server.baseUrl}/api/auth/sign-up/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: server.baseUrl },
    body: JSON.stringify({ name, email, password }),
  });
  if (!response.ok) throw new Error(`sign-up: ${response.status} ${await response.text()}`);
  const id = ((await response.json()) as { user: { id: string } }).user.id;
  const setCookie = response.headers.getSetCookie().find((c) => c.includes('session_token'));
  if (!setCookie) throw new Error('no session cookie');
  const cookie = setCookie.split(';')[0]!;
  const call = async <T>(method: string, url: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${server.baseUrl}${url}`, {
      method,
      headers: { cookie, origin: server.baseUrl, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? null : JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
    return (await res.json()) as T;
  };
  return { id, name, email, password, cookie, call };
}

/** Whether the account's address is confirmed, as the database says. */
export async function addressVerified(server: Server, user: { id: string }): Promise<boolean> {
  const row = await server.db.selectFrom('user').select('emailVerified').where('id', '=', user.id).executeTakeFirst();
  return row?.emailVerified === true || row?.emailVerified === 1;
}

/** Leaves the account's address unconfirmed (the instance's first account would count as confirmed). */
export async function unverifyAddress(server: Server, user: { id: string }): Promise<void> {
  const unconfirmed = server.database.dialect.true === true ? false : 0;
  await server.db.updateTable('user').set({ emailVerified: unconfirmed }).where('id', '=', user.id).execute();
}

const require = createRequire(import.meta.url);
const axeSource = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

interface AxeResult {
  violations: { id: string; impact: string | null; help: string; nodes: { target: unknown[] }[] }[];
}

/** axe-core's WCAG 2 A/AA checks on the page as it is; answers the serious and critical findings. */
export async function accessibilityProblems(page: Page, screen: string): Promise<string[]> {
  // Mid fade-in, text is half transparent and its contrast fails by chance.
  await animationsDone(page);
  // Evaluated through the DevTools protocol: the app's CSP rightly refuses injected script tags.
  await page.evaluate(axeSource);
  const result = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(context: Document, options: object): Promise<AxeResult> } }).axe;
    return axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa'] } });
  });
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${screen}: ${v.id} (${v.impact}) ${v.help} — ${v.nodes
          .map((n) => JSON.stringify(n.target))
          .slice(0, 3)
          .join(', ')}`,
    );
}

/**
 * Waits until every CSS animation and transition running now has ended
 * (spinners and shimmers never end and are left out), so that what a test
 * measures or counts is the resting state and not a frame of the way there.
 */
export async function animationsDone(page: Page): Promise<void> {
  await page.evaluate(async () => {
    const running = () =>
      document
        .getAnimations()
        .filter((animation) => animation.playState === 'running' && animation.effect?.getComputedTiming().endTime !== Infinity);
    // Until a frame passes with none running: one that ends may start the next (a toast after a list's change).
    for (let round = 0; round < 20; round++) {
      let now = running();
      if (now.length === 0) {
        await new Promise((resolve) => requestAnimationFrame(resolve));
        now = running();
        if (now.length === 0) return;
      }
      await Promise.all(now.map((animation) => animation.finished.catch(() => undefined)));
    }
  });
}

/** Fonts loaded and animations over, before a screenshot or a measurement. */
export async function settle(page: Page): Promise<void> {
  await page.evaluate(() => document.fonts.ready);
  await animationsDone(page);
}
