import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe } from 'vitest';
import type { DialectName } from '../src/server/db/dialect.js';
import {
  confirmAddress,
  createArea,
  createBoard,
  createCard,
  createLabel,
  invite,
  mailLink,
  seedBoard,
  updateCard,
} from '../test/factories.js';
import { browserTestsEnabled, cookieFor, launchBrowser, newPage } from './browser.js';
import { addressVerified, apiUser, startServer, unverifyAddress, type ApiUser, type Server } from './support.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export interface E2EOptions {
  /** SQLite unless said; PostgreSQL runs only when TEST_DATABASE_URL names a server. */
  dialect?: DialectName;
  /** Settings for the server; a function is read in `beforeAll`, after the hooks declared before the suite. */
  env?: Record<string, string> | (() => Record<string, string>);
}

export interface PageOptions {
  /** Signed in as this account (its session cookie in the new context); signed out without it. */
  as?: { cookie: string };
  width?: number;
  height?: number;
  colorScheme?: 'light' | 'dark';
}

/**
 * What a browser test arranges its world with. Accounts are made through the
 * sign-up API; everything else goes through test/factories.ts, as API requests
 * to the running app made by the account named first.
 */
export interface Seed {
  /**
   * An account with its address confirmed through the mailed link, as its
   * owner would (an unconfirmed account may not make API keys, calendar
   * feeds, webhooks or public links); `{ verified: false }` leaves it unconfirmed.
   */
  user(name: string, options?: { verified?: boolean }): Promise<ApiUser>;
  /** A private kanban board unless `fields` say otherwise. */
  board(owner: ApiUser, name: string, fields?: Record<string, unknown>): Promise<Json>;
  area(owner: ApiUser, boardId: number, name: string): Promise<Json>;
  /** A card made with its name, then edited to `fields` (due date, assignees, labels…) as a user would. */
  card(owner: ApiUser, areaId: number, name: string, fields?: Record<string, unknown>): Promise<Json>;
  label(owner: ApiUser, boardId: number, name: string): Promise<Json>;
  /** The owner invites an existing account to the board (so it is notified). */
  invite(owner: ApiUser, boardId: number, member: ApiUser, permission: 'read' | 'edit'): Promise<void>;
  /** A board whose areas hold the named cards: `{ Todo: ['a', 'b'], Done: [] }`. */
  boardWith(
    owner: ApiUser,
    name: string,
    layout: Record<string, string[]>,
    fields?: Record<string, unknown>,
  ): Promise<{ board: Json; areas: Record<string, Json>; cards: Record<string, Json> }>;
}

export interface E2E {
  /** The running server (app, db, dataDir); set by `beforeAll`, so read it inside hooks and tests. */
  readonly server: Server;
  readonly browser: Browser;
  /** The server's address, `http://127.0.0.1:port`. */
  readonly base: string;
  /** A fresh browser context and its page, 1400×900 and light unless said. */
  newPage(options?: PageOptions): Promise<{ context: BrowserContext; page: Page }>;
  seed: Seed;
  /** The first link matching `pattern` in a mail to `to`. */
  mailLink(to: string, pattern: RegExp): Promise<string>;
  verifyAddress(user: ApiUser): Promise<void>;
}

/** One Chromium per test file, however many servers its suites start. */
let shared: { browser: Promise<Browser>; users: number } | null = null;

function acquireBrowser(): Promise<Browser> {
  shared ??= { browser: launchBrowser(), users: 0 };
  shared.users++;
  return shared.browser;
}

async function releaseBrowser(): Promise<void> {
  if (!shared || --shared.users > 0) return;
  const { browser } = shared;
  shared = null;
  await (await browser).close();
}

/**
 * Starts a server (on a fresh database) and the shared browser before the
 * enclosing suite's tests and stops them after. Call it inside a `describe`;
 * `describeE2E` does that and skips where the tests cannot run.
 */
export function useE2E(options: E2EOptions = {}): E2E {
  let server: Server | undefined;
  let browser: Browser | undefined;
  const started = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`the ${what} is not started yet: read it inside a hook or a test`);
    return value;
  };
  const running = () => started(server, 'server');

  beforeAll(async () => {
    const env = typeof options.env === 'function' ? options.env() : (options.env ?? {});
    server = await startServer(env, options.dialect ?? 'sqlite');
    browser = await acquireBrowser();
  }, 180_000);

  afterAll(async () => {
    if (browser) await releaseBrowser();
    await server?.close();
  });

  const verified = new Set<string>();
  const confirm = async (user: ApiUser) => {
    if (verified.has(user.id)) return;
    // The instance's first account counts as confirmed: no mail comes for it.
    if (!(await addressVerified(running(), user))) await confirmAddress(running(), user);
    verified.add(user.id);
  };
  const seed: Seed = {
    async user(name, { verified = true } = {}) {
      const user = await apiUser(running(), name);
      if (verified) await confirm(user);
      else await unverifyAddress(running(), user);
      return user;
    },
    board: (owner, name, fields = {}) => createBoard(running(), owner, { name, ...fields }),
    area: (owner, boardId, name) => createArea(running(), owner, boardId, name),
    async card(owner, areaId, name, fields = {}) {
      const card = await createCard(running(), owner, areaId, name);
      if (Object.keys(fields).length > 0) await updateCard(running(), owner, card.id as number, fields);
      return card;
    },
    label: (owner, boardId, name) => createLabel(running(), owner, boardId, name),
    async invite(owner, boardId, member, permission) {
      await invite(running(), owner, boardId, member, permission);
    },
    boardWith: (owner, name, layout, fields = {}) => seedBoard(running(), owner, layout, { name, ...fields }),
  };

  return {
    get server() {
      return running();
    },
    get browser() {
      return started(browser, 'browser');
    },
    get base() {
      return running().baseUrl;
    },
    async newPage({ as, width = 1400, height = 900, colorScheme = 'light' } = {}) {
      const base = running().baseUrl;
      const opened = await newPage(started(browser, 'browser'), base, width, height, colorScheme);
      if (as) await opened.context.addCookies([cookieFor(as, base)]);
      return opened;
    },
    seed,
    mailLink: (to, pattern) => mailLink(running(), to, pattern),
    verifyAddress: confirm,
  };
}

/**
 * A browser test suite with its own server and the browser (see `useE2E`).
 * It runs where Chromium is (and always in CI); a PostgreSQL suite runs only
 * when TEST_DATABASE_URL is set and says so in its name when skipped.
 */
export function describeE2E(name: string, suite: (e2e: E2E) => void): void;
export function describeE2E(name: string, options: E2EOptions, suite: (e2e: E2E) => void): void;
export function describeE2E(
  name: string,
  ...rest: [suite: (e2e: E2E) => void] | [options: E2EOptions, suite: (e2e: E2E) => void]
): void {
  const [options, suite] = rest.length === 1 ? [{}, rest[0]] : rest;
  if (options.dialect !== 'postgres') {
    describe.runIf(browserTestsEnabled)(name, () => suite(useE2E(options)));
    return;
  }
  const reason = !browserTestsEnabled
    ? 'no Chromium'
    : !process.env.TEST_DATABASE_URL
      ? 'TEST_DATABASE_URL is not set (point it at a PostgreSQL server to run it)'
      : null;
  if (reason) {
    const notice = `${name} [postgres] — skipped: ${reason}`;
    // A skipped file alone shows no suite names: the reason is said once, where the run is read.
    if (browserTestsEnabled) console.warn(`Browser test "${notice}"`);
    describe.skip(notice, () => suite(useE2E(options)));
  } else describe(`${name} [postgres]`, () => suite(useE2E(options)));
}
