import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe } from 'vitest';
import { buildApp } from '../src/server/app.js';
import { loadConfig, type Config } from '../src/server/config.js';
import { openDatabase, type Database, type Db } from '../src/server/db/database.js';
import type { DialectName } from '../src/server/db/dialect.js';
import { migrate } from '../src/server/db/migrations/index.js';
import { createTestDatabase, dialects } from './databases.js';
import { cheapPasswordHashing } from './password-hashing.js';

export const BASE_URL = 'http://localhost:3000';

export interface TestUser {
  id: string;
  name: string;
  email: string;
  password: string;
  /** The session cookie, `name=value`. */
  cookie: string;
  /** A full-access API key. */
  key: string;
}

/** How a request authenticates: as a user (by their key), with a raw key or cookie, or not at all. */
export type As = TestUser | { key: string } | { cookie: string } | null;

export interface TestContext {
  dialect: DialectName;
  app: FastifyInstance;
  database: Database;
  db: Db;
  config: Config;
  inject(as: As, options: InjectOptions): Promise<LightMyRequestResponse>;
  /** A new account; `verified: false` leaves its address unconfirmed and, as the service requires, without a key (`key` is ''). */
  signUp(name?: string, options?: { verified?: boolean }): Promise<TestUser>;
  createKey(user: TestUser, readOnly?: boolean): Promise<string>;
  createBoard(user: TestUser, fields?: Record<string, unknown>): Promise<{ id: number; [k: string]: unknown }>;
  /** Starts listening on a free port (once) and answers the base address. */
  listen(): Promise<string>;
  /** Sets the time the job runner sees; null goes back to the real clock. */
  setTime(time: Date | null): void;
}

export interface HarnessOptions {
  env?: Record<string, string>;
  heartbeatMs?: number;
  /** pino options (e.g. a `stream` to read the log); none = silence. */
  logger?: object;
  /**
   * better-auth's own password hash (scrypt N=16384) instead of the tests'
   * cheaper one (test/password-hashing.ts); the service always uses its own.
   */
  realPasswordHashing?: boolean;
}

let counter = 0;

/** Builds the app on a fresh database for every dialect under test and runs `suite` against each. */
export function eachDialect(name: string, suite: (t: TestContext) => void, options: HarnessOptions = {}): void {
  for (const dialect of dialects) {
    describe(`${name} [${dialect}]`, () => {
      const t = { dialect } as TestContext;
      let drop = (): Promise<void> => Promise.resolve();
      beforeAll(async () => {
        const testDb = await createTestDatabase(dialect, { migrated: true });
        drop = testDb.drop;
        Object.assign(t, await startApp(dialect, testDb.url, testDb.dataDir, options));
      }, 60_000);
      afterAll(async () => {
        await t.app?.close();
        await t.database?.close();
        await drop();
      });
      suite(t);
    });
  }
}

export async function startApp(dialect: DialectName, url: string, dataDir: string, options: HarnessOptions = {}) {
  const config = loadConfig({
    DATA_DIR: dataDir,
    DATABASE_URL: url,
    BASE_URL,
    AUTH_SECRET: 'test-secret-test-secret-test-secret-0123',
    SIGNIN_RATE_LIMIT: '100000',
    ...options.env,
  });
  const database = openDatabase(config.databaseUrl, { snapshotConnections: config.exportsPerInstance });
  await migrate(database.db, database.dialect);
  let time: Date | null = null;
  const clock = () => time ?? new Date();
  const app = await buildApp({
    config,
    database,
    clock,
    ...(options.heartbeatMs ? { heartbeatMs: options.heartbeatMs } : {}),
    ...(options.logger ? { logger: options.logger } : {}),
    ...(options.realPasswordHashing ? {} : { passwordHashing: cheapPasswordHashing }),
  });
  await app.ready();

  const inject: TestContext['inject'] = (as, opts) => {
    const headers: Record<string, string> = { ...(opts.headers as Record<string, string> | undefined) };
    if (as && 'key' in as && as.key !== '') headers['x-api-key'] = as.key;
    else if (as && 'cookie' in as) headers.cookie = as.cookie;
    return app.inject({ ...opts, headers });
  };

  const createKey = async (user: TestUser, readOnly = false) => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/auth/api-key/create',
      headers: { cookie: user.cookie, origin: new URL(config.baseUrl).origin },
      payload: { name: 'test key', readOnly },
    });
    if (res.statusCode !== 200) throw new Error(`api key: ${res.statusCode} ${res.body}`);
    return res.json<{ key: string }>().key;
  };

  const signUp = async (name = `User ${++counter}`, { verified = true } = {}) => {
    const email = `user${++counter}-${Date.now()}@example.test`;
    const password = 'correct horse battery';
    const res = await app.inject({
      method: 'POST',
      url: '/api/auth/sign-up/email',
      headers: { origin: new URL(config.baseUrl).origin },
      payload: { name, email, password },
    });
    if (res.statusCode !== 200) throw new Error(`sign-up: ${res.statusCode} ${res.body}`);
    const user = { id: res.json<{ user: { id: string } }>().user.id, name, email, password, cookie: sessionCookie(res), key: '' };
    if (!verified) {
      // The instance's first account counts as confirmed: a test that asks for an unconfirmed one gets one all the same.
      await database.db
        .updateTable('user')
        .set({ emailVerified: database.dialect.true === true ? false : 0 })
        .where('id', '=', user.id)
        .execute();
      return user;
    }
    // As if the mailed link had been followed: only a confirmed address may make keys.
    await database.db.updateTable('user').set({ emailVerified: database.dialect.true }).where('id', '=', user.id).execute();
    user.key = await createKey(user);
    return user;
  };

  const createBoard = async (user: TestUser, fields: Record<string, unknown> = {}) => {
    const res = await inject(user, {
      method: 'POST',
      url: '/api/data/board',
      payload: { userId: user.id, name: 'Board', style: 'kanban', status: 'private', ...fields },
    });
    if (res.statusCode !== 200) throw new Error(`board: ${res.statusCode} ${res.body}`);
    return res.json<{ board: { id: number } }>().board;
  };

  let address: Promise<string> | undefined;
  const listen = () => (address ??= app.listen({ port: 0, host: '127.0.0.1' }));

  const setTime = (next: Date | null) => {
    time = next;
  };

  return { dialect, app, database, db: database.db, config, inject, signUp, createKey, createBoard, listen, setTime };
}

/** `name=value` of the session cookie a response set. */
export function sessionCookie(res: LightMyRequestResponse): string {
  const cookie = res.cookies.find((c) => c.name.endsWith('session_token'));
  if (!cookie) throw new Error('no session cookie in the response');
  return `${cookie.name}=${cookie.value}`;
}
