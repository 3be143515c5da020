import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/databases.js';
import { BASE_URL, eachDialect, sessionCookie } from '../../../test/harness.js';
import { startS3 } from '../../../test/s3-server.js';
import { catchMail } from '../../../test/smtp.js';
import { Readable } from 'node:stream';
import { fileStore } from '../files/store.js';
import { projectRoot } from '../version.js';

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

const PASSWORD = 'a long new password';

/** Each `tavla` run starts a Node process that loads the service's code: seconds apiece on a loaded machine. */
const SLOW = 240_000;

/** `npx tavla …` as an operator runs it: the real launcher in a child process, its exit code and both streams. */
function tavla(env: Record<string, string>, args: string[], input = ''): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(projectRoot, 'bin/tavla.mjs'), ...args], {
      cwd: projectRoot,
      env: { ...process.env, SMTP_URL: '', ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
    child.stdin.end(input);
  });
}

/** A failure is one line on stderr, never a stack trace. */
function oneLineError(ran: Ran): void {
  expect(ran.stderr.trim().split('\n')).toHaveLength(1);
  expect(ran.stderr).toMatch(/^tavla: /);
  expect(ran.stderr).not.toMatch(/\n\s+at /);
}

const smtp = await catchMail();

describe('tavla without a command or with a wrong one', () => {
  it(
    'lists the commands for --help (exit 0), and says how to use it on stderr for nothing or an unknown command (exit 2)',
    async () => {
      const help = await tavla({}, ['--help']);
      expect(help.code).toBe(0);
      for (const name of [
        'user create',
        'user list',
        'user set-password',
        'user promote',
        'user demote',
        'backup',
        'restore',
        'migrate',
        'doctor',
      ])
        expect(help.stdout).toContain(name);
      const none = await tavla({}, []);
      expect(none.code).toBe(2);
      expect(none.stdout).toBe('');
      expect(none.stderr).toContain('Usage: tavla <command>');
      const unknown = await tavla({}, ['frobnicate']);
      expect(unknown.code).toBe(2);
      oneLineError(unknown);
    },
    SLOW,
  );

  it(
    'describes each command for its --help, without touching a database',
    async () => {
      const ran = await tavla({ DATABASE_URL: 'postgres://127.0.0.1:1/none' }, ['user', 'set-password', '--help']);
      expect(ran.code).toBe(0);
      expect(ran.stdout).toContain('Usage: tavla user set-password --email <address>');
      expect(ran.stdout).toContain('standard input');
    },
    SLOW,
  );
});

eachDialect('tavla', (t) => {
  let env: Record<string, string>;
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'tavla-cli-'));
  const extra: TestDatabase[] = [];
  beforeAll(() => {
    env = {
      DATABASE_URL: t.config.databaseUrl,
      DATA_DIR: t.config.dataDir,
      BASE_URL,
      AUTH_SECRET: t.config.authSecret,
    };
  });
  afterAll(async () => {
    for (const db of extra) await db.drop();
    rmSync(scratch, { recursive: true, force: true });
  });
  const fresh = async () => {
    const db = await createTestDatabase(t.dialect);
    extra.push(db);
    return { ...env, DATABASE_URL: db.url, DATA_DIR: db.dataDir };
  };
  const signIn = (email: string, password: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      headers: { origin: new URL(BASE_URL).origin },
      payload: { email, password },
    });
  const listUsers = (cookie: string) => t.app.inject({ method: 'GET', url: '/api/auth/admin/list-users', headers: { cookie } });

  it(
    'user create: the first account administers the instance, a later one is ordinary with its confirmation mail queued',
    async () => {
      const first = await tavla(env, ['user', 'create', '--email', 'Owner@Example.test', '--name', 'Owner'], `${PASSWORD}\n`);
      expect(first.stderr).toBe('');
      expect(first.code).toBe(0);
      expect(first.stdout).toMatch(/^Created owner@example\.test \(admin, address confirmed\)/);
      const second = await tavla(env, ['user', 'create', '--email', 'member@example.test', '--name', 'Member'], PASSWORD);
      expect(second.code).toBe(0);
      expect(second.stdout).toContain('(user, address unconfirmed: a confirmation mail is queued)');
      const mails = await t.db.selectFrom('jobs').select('payload').where('kind', '=', 'mail').execute();
      expect(mails.map((m) => JSON.stringify(m.payload)).some((p) => p.includes('member@example.test'))).toBe(true);
      // The password works with the service's own sign-in (better-auth's hash).
      expect((await signIn('owner@example.test', PASSWORD)).statusCode).toBe(200);
    },
    SLOW,
  );

  it(
    'user create: a missing option is a usage error (2), an address taken or a short password a failure (1), nothing made',
    async () => {
      const before = await t.db.selectFrom('user').select('id').execute();
      const usage = await tavla(env, ['user', 'create', '--email', 'x@example.test'], PASSWORD);
      expect(usage.code).toBe(2);
      oneLineError(usage);
      expect(usage.stderr).toContain('--name is required');
      const taken = await tavla(env, ['user', 'create', '--email', 'member@example.test', '--name', 'Again'], PASSWORD);
      expect(taken.code).toBe(1);
      oneLineError(taken);
      const short = await tavla(env, ['user', 'create', '--email', 'short@example.test', '--name', 'Short'], 'short');
      expect(short.code).toBe(1);
      expect(short.stderr).toContain('at least 8 characters');
      expect(await t.db.selectFrom('user').select('id').execute()).toHaveLength(before.length);
    },
    SLOW,
  );

  it(
    'user list: every account, oldest first, as lines or JSON',
    async () => {
      const lines = await tavla(env, ['user', 'list']);
      expect(lines.code).toBe(0);
      expect(
        lines.stdout
          .split('\n')
          .filter(Boolean)
          .map((l) => l.split('\t').slice(0, 3)),
      ).toEqual([
        ['owner@example.test', 'admin', 'confirmed'],
        ['member@example.test', 'user', 'unconfirmed'],
      ]);
      const json = await tavla(env, ['user', 'list', '--json']);
      expect((JSON.parse(json.stdout) as Array<{ email: string; role: string }>).map((a) => [a.email, a.role])).toEqual([
        ['owner@example.test', 'admin'],
        ['member@example.test', 'user'],
      ]);
      const wrong = await tavla(env, ['user', 'list', '--jsn']);
      expect(wrong.code).toBe(2);
    },
    SLOW,
  );

  it(
    "user set-password: the new password works, the old one does not, the account's sessions and API keys end",
    async () => {
      const user = await t.signUp('Forgetful');
      expect((await t.inject({ cookie: user.cookie }, { method: 'GET', url: '/api/auth/get-session' })).json()).not.toBeNull();
      // Used once, so that the service holds the key's actor in its cache.
      expect((await t.inject({ key: user.key }, { method: 'GET', url: '/api/data/notifications' })).statusCode).toBe(200);
      const ran = await tavla(env, ['user', 'set-password', '--email', user.email], `${PASSWORD}\n`);
      expect(ran.stderr).toBe('');
      expect(ran.code).toBe(0);
      expect((await t.inject({ cookie: user.cookie }, { method: 'GET', url: '/api/auth/get-session' })).json()).toBeNull();
      expect(await t.db.selectFrom('session').select('id').where('userId', '=', user.id).execute()).toEqual([]);
      expect(await t.db.selectFrom('apikey').select('id').where('userId', '=', user.id).execute()).toEqual([]);
      if (t.dialect === 'postgres') {
        // Another process was told at the commit: the key's cached actor went at once (on SQLite, within the cache's 30 s).
        expect((await t.inject({ key: user.key }, { method: 'GET', url: '/api/data/notifications' })).statusCode).toBe(403);
      }
      expect((await signIn(user.email, user.password)).statusCode).toBe(401);
      expect((await signIn(user.email, PASSWORD)).statusCode).toBe(200);
    },
    SLOW,
  );

  it(
    'user set-password: an unknown address fails (1), no address is a usage error (2)',
    async () => {
      const unknown = await tavla(env, ['user', 'set-password', '--email', 'nobody@example.test'], PASSWORD);
      expect(unknown.code).toBe(1);
      oneLineError(unknown);
      expect(unknown.stderr).toContain('No account with the address nobody@example.test');
      const usage = await tavla(env, ['user', 'set-password'], PASSWORD);
      expect(usage.code).toBe(2);
    },
    SLOW,
  );

  it(
    'user promote and demote: the role the service sees changes; the last administrator stays one',
    async () => {
      const member = await signIn('member@example.test', PASSWORD);
      // The member's password was set at creation: sign in with it.
      expect(member.statusCode).toBe(200);
      const cookie = sessionCookie(member);
      expect((await listUsers(cookie)).statusCode).toBe(403);
      const promoted = await tavla(env, ['user', 'promote', '--email', 'member@example.test']);
      expect(promoted.code).toBe(0);
      expect(promoted.stdout).toContain('member@example.test is now an administrator');
      expect((await listUsers(cookie)).statusCode).toBe(200);

      expect((await tavla(env, ['user', 'demote', '--email', 'owner@example.test'])).code).toBe(0);
      const last = await tavla(env, ['user', 'demote', '--email', 'member@example.test']);
      expect(last.code).toBe(1);
      expect(last.stderr).toContain('last administrator');
      expect((await listUsers(cookie)).statusCode).toBe(200);
      const unknown = await tavla(env, ['user', 'promote', '--email', 'nobody@example.test']);
      expect(unknown.code).toBe(1);
      expect((await tavla(env, ['user', 'promote'])).code).toBe(2);
    },
    SLOW,
  );

  it(
    'backup writes the instance export; restore loads it into an empty database and refuses a full one',
    async () => {
      const owner = await t.signUp('Backed up');
      await t.createBoard(owner, { name: 'Kept' });
      const file = path.join(scratch, 'backup.zip');
      const backedUp = await tavla(env, ['backup', file]);
      expect(backedUp.stderr).toBe('');
      expect(backedUp.code).toBe(0);
      expect(statSync(file).size).toBeGreaterThan(0);
      const again = await tavla(env, ['backup', file]);
      expect(again.code).toBe(1);
      expect(again.stderr).toContain('--force');
      expect((await tavla(env, ['backup'])).code).toBe(2);

      const target = await fresh();
      const restored = await tavla(target, ['restore', file]);
      expect(restored.stderr).toBe('');
      expect(restored.code).toBe(0);
      const listed = await tavla(target, ['user', 'list']);
      expect(listed.stdout).toContain(owner.email);
      const full = await tavla(target, ['restore', file]);
      expect(full.code).toBe(1);
      expect(full.stderr).toContain('not empty');
      expect((await tavla(target, ['restore', path.join(scratch, 'missing.zip')])).code).toBe(2);
    },
    SLOW,
  );

  it(
    'migrate brings an empty database up to date, then has nothing to do; commands on it refuse until then',
    async () => {
      const target = await fresh();
      const early = await tavla(target, ['user', 'list']);
      expect(early.code).toBe(1);
      expect(early.stderr).toContain('tavla migrate');
      const ran = await tavla(target, ['migrate']);
      expect(ran.code).toBe(0);
      expect(ran.stdout).toMatch(/^Migrated/);
      const again = await tavla(target, ['migrate']);
      expect(again.stdout).toBe('The database is up to date\n');
      expect((await tavla(target, ['migrate', 'now'])).code).toBe(2);
      expect((await tavla({ ...target, DATABASE_URL: 'postgres://tavla@127.0.0.1:1/none' }, ['migrate'])).code).toBe(1);
    },
    SLOW,
  );

  it(
    'doctor: every check ok with SMTP answering (exit 0); a mail server that does not answer fails it (exit 1)',
    async () => {
      const good = await tavla({ ...env, SMTP_URL: `smtp://127.0.0.1:${smtp.port}` }, ['doctor']);
      expect(good.code).toBe(0);
      const levels = Object.fromEntries(
        good.stdout
          .trim()
          .split('\n')
          .map((line) => line.split(/\s+/).slice(0, 2).reverse()),
      );
      expect(levels).toEqual({
        configuration: 'ok',
        version: 'ok',
        BASE_URL: 'ok',
        AUTH_SECRET: 'ok',
        database: 'ok',
        migrations: 'ok',
        files: 'ok',
        bucket: 'ok',
        SMTP: 'ok',
      });
      const broken = await tavla({ ...env, SMTP_URL: 'smtp://127.0.0.1:1' }, ['doctor']);
      expect(broken.code).toBe(1);
      expect(broken.stdout).toMatch(/^fail\s+SMTP\s+127\.0\.0\.1:1/m);
    },
    SLOW,
  );

  it(
    'doctor: an invalid setting, an unreachable database or an unwritable DATA_DIR each fail it',
    async () => {
      const config = await tavla({ ...env, LANGUAGE: 'xx' }, ['doctor']);
      expect(config.code).toBe(1);
      expect(config.stdout).toMatch(/^fail\s+configuration\s+.*LANGUAGE must be one of/m);
      const database = await tavla({ ...env, DATABASE_URL: 'postgres://tavla@127.0.0.1:1/none' }, ['doctor']);
      expect(database.code).toBe(1);
      expect(database.stdout).toMatch(/^fail\s+database/m);
      expect(database.stdout).not.toMatch(/migrations/);
      const unsetEnv = { ...env, BASE_URL: '', AUTH_SECRET: '' };
      const warned = await tavla(unsetEnv, ['doctor']);
      expect(warned.stdout).toMatch(/^warn\s+BASE_URL/m);
      expect(warned.stdout).toMatch(/^warn\s+AUTH_SECRET/m);
      expect(warned.stdout).toMatch(/^warn\s+SMTP\s+SMTP_URL not set/m);
      expect(warned.code).toBe(0);
      const missing = path.join(scratch, 'no-such-dir', 'deeper');
      const files = await tavla({ ...env, DATA_DIR: missing, DATABASE_URL: env.DATABASE_URL! }, ['doctor']);
      expect(files.stdout).toMatch(/^fail\s+files\s+DATA_DIR .* does not exist/m);
      expect(files.code).toBe(1);
      expect(existsSync(missing)).toBe(false);
    },
    SLOW,
  );

  it(
    'files move-to-s3: a usage error (2) without a bucket; with one, copies each stored file, again skips it, --remove empties the disk',
    async () => {
      const dataDir = mkdtempSync(path.join(scratch, 'data-'));
      const none = await tavla({ ...env, DATA_DIR: dataDir }, ['files', 'move-to-s3']);
      expect(none.code).toBe(2);
      expect(none.stderr).toContain('S3_BUCKET is not set');
      const disk = fileStore({ dataDir, s3: null });
      const saved = await disk.save(Readable.from([Buffer.from('%PDF-1.4 a stored file')]), {
        limitBytes: 1024,
        extension: () => 'pdf',
      });
      const s3 = await startS3();
      try {
        const withBucket = { ...env, DATA_DIR: dataDir, ...s3.env };
        const first = await tavla(withBucket, ['files', 'move-to-s3']);
        // (On Node 20 the AWS SDK warns on stderr that its 2027 releases need Node 22.)
        expect(first.stderr).not.toContain(saved.storedName);
        expect(first.code).toBe(0);
        expect(first.stdout).toContain('1 files: 1 copied, 0 already there, 0 failed');
        expect(s3.storedNames()).toEqual([saved.storedName]);
        const again = await tavla(withBucket, ['files', 'move-to-s3', '--remove']);
        expect(again.code).toBe(0);
        expect(again.stdout).toContain('1 files: 0 copied, 1 already there, 0 failed, 1 removed from disk');
        expect(await disk.existing([saved.storedName])).toEqual(new Set());
      } finally {
        await s3.close();
      }
    },
    SLOW,
  );
});
