import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { seedBoard } from '../../test/factories.js';
import { BASE_URL, eachDialect, type TestContext } from '../../test/harness.js';
import { multipart } from '../../test/multipart.js';
import { loadConfig } from './config.js';
import { enqueue } from './jobs/runner.js';

const modeOf = (file: string) => statSync(file).mode & 0o777;

const mailJobs = (t: TestContext) => t.db.selectFrom('jobs').select(['payload', 'doneAt']).where('kind', '=', 'mail').execute();

/** Invites an address without an account (a mail with an invitation link) and asks for a password reset (a mail with a reset link). */
async function mailLinks(t: TestContext) {
  const owner = await t.signUp();
  const board = await t.createBoard(owner);
  const invited = await t.inject(owner, {
    method: 'POST',
    url: '/api/data/invite',
    payload: { boardId: board.id, mail: `guest.${randomBytes(4).toString('hex')}@example.test`, permission: 'edit' },
  });
  expect(invited.statusCode).toBe(200);
  const reset = await t.app.inject({
    method: 'POST',
    url: '/api/auth/request-password-reset',
    headers: { origin: BASE_URL },
    payload: { email: owner.email, redirectTo: '/reset-password' },
  });
  expect(reset.statusCode).toBe(200);
  await vi.waitFor(async () => {
    const payloads = (await mailJobs(t)).filter((j) => j.doneAt === null).map((j) => j.payload);
    expect(payloads.some((p) => p.includes('/invite/'))).toBe(true);
    expect(payloads.some((p) => p.includes('/reset-password/'))).toBe(true);
  });
}

const outboxFiles = (t: TestContext) => {
  const outbox = path.join(t.config.dataDir, 'outbox');
  try {
    return readdirSync(outbox).map((f) => path.join(outbox, f));
  } catch {
    return [];
  }
};

eachDialect('secrets at rest: mail jobs', (t) => {
  it('keeps no invitation or reset link in a mail job once it is sent', async () => {
    await mailLinks(t);
    await t.app.jobs.runDue();
    const jobs = await mailJobs(t);
    expect(jobs.length).toBeGreaterThanOrEqual(2);
    for (const job of jobs) expect(job).toEqual({ payload: '{}', doneAt: expect.anything() as unknown });
    // They did go out.
    const sent = outboxFiles(t).map((f) => readFileSync(f, 'utf8').replace(/=\r?\n/g, ''));
    expect(sent.some((m) => m.includes(`${BASE_URL}/invite/`))).toBe(true);
    expect(sent.some((m) => m.includes('/api/auth/reset-password/'))).toBe(true);
  });

  it('empties the payload of a job given up after its last attempt', async () => {
    t.app.jobs.register('doomed', () => Promise.reject(new Error('mail server says no')));
    await enqueue(t.db, 'doomed', 'doomed:1', { link: `${BASE_URL}/invite/secret` }, new Date());
    await t.db.updateTable('jobs').set({ attempts: 9 }).where('key', '=', 'doomed:1').execute();
    await t.app.jobs.runDue();
    const job = await t.db.selectFrom('jobs').selectAll().where('key', '=', 'doomed:1').executeTakeFirstOrThrow();
    expect(job.doneAt).not.toBeNull();
    expect(job.payload).toBe('{}');
    expect(job.lastError).toBe('mail server says no');
  });
});

const logged: string[] = [];

eachDialect(
  'secrets at rest: request log',
  (t) => {
    it('logs the paths of token links with the token left out', async () => {
      const secret = () => randomBytes(32).toString('hex');
      const secrets: string[] = [];
      const urls = [
        (s: string) => `/api/invitations/${s}`,
        (s: string) => `/invite/${s}`,
        (s: string) => `/api/auth/reset-password/${s}?callbackURL=%2Freset-password`,
        (s: string) => `/reset-password?token=${s}`,
        (s: string) => `/api/auth/verify-email?token=${s}&callbackURL=%2F`,
        (s: string) => `/api/ical/${s}`,
        (s: string) => `/p/${s}`,
      ].map((url) => {
        const s = secret();
        secrets.push(s);
        return url(s);
      });
      const accept = secret();
      secrets.push(accept);
      const before = logged.length;
      for (const url of urls) await t.app.inject({ method: 'GET', url });
      await t.app.inject({ method: 'POST', url: `/api/invitations/${accept}/accept`, payload: {} });
      await t.app.inject({ method: 'GET', url: '/api/health?probe=1' });

      const log = logged.slice(before).join('');
      for (const s of secrets) expect(log).not.toContain(s);
      const paths = logged
        .slice(before)
        .map((line) => (JSON.parse(line) as { req?: { url: string } }).req?.url)
        .filter((url) => url !== undefined);
      expect(paths).toEqual([
        '/api/invitations/[redacted]',
        '/invite/[redacted]',
        '/api/auth/reset-password/[redacted]?callbackURL=%2Freset-password',
        '/reset-password?token=[redacted]',
        '/api/auth/verify-email?token=[redacted]&callbackURL=%2F',
        '/api/ical/[redacted]',
        '/p/[redacted]',
        '/api/invitations/[redacted]/accept',
        '/api/health?probe=1',
      ]);
    });
  },
  { logger: { level: 'info', stream: { write: (line: string) => void logged.push(line) } } },
);

eachDialect('secrets at rest: files', (t) => {
  it('keeps the database, uploads and mails readable by the service account only', async () => {
    if (t.dialect === 'sqlite') {
      for (const file of readdirSync(t.config.dataDir).filter((f) => f.startsWith('tavla.db'))) {
        expect([file, modeOf(path.join(t.config.dataDir, file))]).toEqual([file, 0o600]);
      }
    }

    const owner = await t.signUp();
    const { cards } = await seedBoard(t, owner, { A: ['with a file'] });
    const upload = await t.inject(owner, {
      method: 'POST',
      url: '/api/data/attachment',
      ...multipart([
        { name: 'cardId', value: String(cards['with a file']!.id) },
        { name: 'file', filename: 'notes.txt', type: 'text/plain', data: 'private notes' },
      ]),
    });
    expect(upload.statusCode).toBe(200);
    const uploads = path.join(t.config.dataDir, 'uploads');
    expect(modeOf(uploads)).toBe(0o700);
    const stored = readdirSync(uploads, { recursive: true, withFileTypes: true });
    expect(stored.filter((e) => e.isFile()).length).toBeGreaterThan(0);
    for (const entry of stored) {
      expect([entry.name, modeOf(path.join(entry.parentPath, entry.name))]).toEqual([entry.name, entry.isFile() ? 0o600 : 0o700]);
    }

    await mailLinks(t);
    await t.app.jobs.runDue();
    const mails = outboxFiles(t);
    expect(mails.length).toBeGreaterThan(0);
    expect(modeOf(path.join(t.config.dataDir, 'outbox'))).toBe(0o700);
    for (const mail of mails) expect(modeOf(mail)).toBe(0o600);
  });
});

describe('DATA_DIR', () => {
  it('is made 0700, with the generated auth secret 0600, when the service creates it', () => {
    const parent = mkdtempSync(path.join(os.tmpdir(), 'tavla-datadir-'));
    try {
      const dataDir = path.join(parent, 'new', 'data');
      loadConfig({ DATA_DIR: dataDir });
      expect(modeOf(dataDir)).toBe(0o700);
      expect(modeOf(path.join(parent, 'new'))).toBe(0o700);
      expect(modeOf(path.join(dataDir, 'auth-secret'))).toBe(0o600);
    } finally {
      rmSync(parent, { recursive: true, force: true });
    }
  });
});
