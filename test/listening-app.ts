import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { DialectName } from '../src/server/db/dialect.js';
import { createTestDatabase } from './databases.js';
import { startApp, type TestContext } from './harness.js';

/**
 * A port nobody listens on now, for an app that must know its own address
 * (BASE_URL: a provider's callback, ACS or redirect goes there) before it is built.
 */
export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const p = (s.address() as { port: number }).port;
      s.close(() => resolve(p));
    });
  });
}

/**
 * The app on a real port of its own, for an identity provider that sends a
 * browser back to it: `env` is given the app's address, `beforeListen` tells
 * the provider where the app lives.
 */
export async function startListeningApp(
  dialect: DialectName,
  env: (base: string) => Record<string, string>,
  beforeListen: (t: TestContext) => void = () => {},
) {
  const testDb = await createTestDatabase(dialect);
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const t = await startApp(dialect, testDb.url, testDb.dataDir, { env: { BASE_URL: base, ...env(base) } });
  beforeListen(t);
  await t.app.listen({ port, host: '127.0.0.1' });
  return {
    t,
    base,
    async close() {
      await t.app.close();
      await t.database.close();
      await testDb.drop();
    },
  };
}

/** An `SSO_CONFIG` file holding `config`; its path. */
export function writeSsoConfig(config: object): string {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'tavla-sso-')), 'sso.json');
  writeFileSync(file, JSON.stringify(config));
  return file;
}
