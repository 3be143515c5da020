import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { DialectName } from '../src/server/db/dialect.js';

/**
 * SQLite always; PostgreSQL too when TEST_DATABASE_URL names a server (any
 * database on it: each test file makes its own and drops it afterwards).
 */
export const dialects: DialectName[] = process.env.TEST_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];

if (process.env.CI && !process.env.TEST_DATABASE_URL) {
  throw new Error('CI must test PostgreSQL too: set TEST_DATABASE_URL');
}

export interface TestDatabase {
  url: string;
  dataDir: string;
  drop: () => Promise<void>;
}

export async function createTestDatabase(dialect: DialectName): Promise<TestDatabase> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tavla-test-'));
  const removeDir = () => rmSync(dataDir, { recursive: true, force: true });
  if (dialect === 'sqlite') {
    return { url: `sqlite://${path.join(dataDir, 'tavla.db')}`, dataDir, drop: () => Promise.resolve(removeDir()) };
  }
  const server = process.env.TEST_DATABASE_URL!;
  const name = `tavla_test_${randomBytes(6).toString('hex')}`;
  await adminQuery(server, `CREATE DATABASE ${name}`);
  const url = new URL(server);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    dataDir,
    drop: async () => {
      await adminQuery(server, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      removeDir();
    },
  };
}

async function adminQuery(server: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: server });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}
