import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BASE_URL, eachDialect, sessionCookie, type TestContext, type TestUser } from '../../../../test/harness.js';
import { createMailer } from '../../mail/mailer.js';
import { listOutbox, readOutboxMail } from '../../mail/outbox.js';

const origin = { origin: BASE_URL };

/** The mails queued for an address (the job runner sends them). */
async function queuedMailsTo(t: TestContext, address: string): Promise<Array<{ subject: string; text: string }>> {
  const jobs = await t.db.selectFrom('jobs').select(['payload']).where('kind', '=', 'mail').orderBy('id').execute();
  return jobs
    .map((job) => JSON.parse(job.payload) as { to: string; subject: string; text: string })
    .filter((m) => m.to === address);
}

async function verifiedInDb(t: TestContext, id: string): Promise<boolean> {
  const row = await t.db.selectFrom('user').select(['emailVerified']).where('id', '=', id).executeTakeFirstOrThrow();
  return row.emailVerified === true || row.emailVerified === 1;
}

/** A sign-up through better-auth as the web app makes it, nothing confirmed by the test. */
async function rawSignUp(t: TestContext, name: string): Promise<TestUser> {
  const email = `${name.toLowerCase().replace(/\W+/g, '-')}-${Date.now()}@example.test`;
  const password = 'correct horse battery';
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/auth/sign-up/email',
    headers: origin,
    payload: { name, email, password },
  });
  expect(res.statusCode).toBe(200);
  return { id: res.json<{ user: { id: string } }>().user.id, name, email, password, cookie: sessionCookie(res), key: '' };
}

eachDialect('mail on a fresh install, and the administrators’ mail section', (t) => {
  let admin: TestUser;
  let member: TestUser;

  it('the first account of the instance is its administrator with a confirmed address, and is mailed no link; the next is not', async () => {
    admin = await rawSignUp(t, 'First');
    expect(await verifiedInDb(t, admin.id)).toBe(true);
    const session = await t.inject({ cookie: admin.cookie }, { method: 'GET', url: '/api/auth/get-session' });
    expect(session.json().user).toMatchObject({ emailVerified: true, role: 'admin' });
    expect(await queuedMailsTo(t, admin.email)).toEqual([]);
    // A confirmed address may make an API key at once.
    admin.key = await t.createKey(admin);

    member = await rawSignUp(t, 'Second');
    expect(await verifiedInDb(t, member.id)).toBe(false);
    const mails = await queuedMailsTo(t, member.email);
    expect(mails.map((m) => m.subject)).toEqual(['Confirm your e-mail address']);
  });

  it('refuses every mail route to an account that is not an administrator, and to nobody', async () => {
    const routes = [
      { method: 'GET' as const, url: '/api/data/admin/mail' },
      { method: 'GET' as const, url: '/api/data/admin/mail/outbox/2026-01-01T00-00-00-000Z-0123abcd.eml' },
      { method: 'POST' as const, url: '/api/data/admin/mail/test', payload: {} },
      { method: 'POST' as const, url: '/api/data/admin/accounts/verify', payload: { userId: member.id } },
      { method: 'POST' as const, url: '/api/data/admin/accounts/verification-mail', payload: { userId: member.id } },
    ];
    for (const route of routes) {
      expect((await t.inject({ cookie: member.cookie }, { ...route, headers: origin })).statusCode, route.url).toBe(403);
      expect([401, 403], route.url).toContain((await t.inject(null, { ...route, headers: origin })).statusCode);
    }
    expect(await verifiedInDb(t, member.id)).toBe(false);
  });

  it('says mail goes to the outbox, sends a test mail there and reads it back', async () => {
    const before = await t.inject(admin, { method: 'GET', url: '/api/data/admin/mail' });
    expect(before.statusCode).toBe(200);
    expect(before.json().transport).toEqual({ kind: 'outbox', directory: path.join(t.config.dataDir, 'outbox') });

    const sent = await t.inject(admin, { method: 'POST', url: '/api/data/admin/mail/test', payload: {} });
    expect(sent.statusCode).toBe(200);
    expect(sent.json()).toMatchObject({ to: admin.email, transport: { kind: 'outbox' } });

    const after = (await t.inject(admin, { method: 'GET', url: '/api/data/admin/mail' })).json();
    expect(after.outbox.total).toBe(before.json().outbox.total + 1);
    const entry = after.outbox.mails[0];
    expect(entry).toMatchObject({ to: admin.email, subject: 'Test mail from Tavla' });

    const mail = await t.inject(admin, { method: 'GET', url: `/api/data/admin/mail/outbox/${entry.id}` });
    expect(mail.statusCode).toBe(200);
    expect(mail.json().text).toContain(`First sent this test mail from the administration page of Tavla at ${BASE_URL}.`);
    for (const id of ['..%2F..%2Ftavla.db', 'nothing.eml', '2026-01-01T00-00-00-000Z-0123abcd.eml']) {
      expect((await t.inject(admin, { method: 'GET', url: `/api/data/admin/mail/outbox/${id}` })).statusCode, id).toBe(404);
    }
  });

  it('mails an unconfirmed account its link again, and confirms an address by hand; a confirmed one gets no mail', async () => {
    const queued = (await queuedMailsTo(t, member.email)).length;
    const again = await t.inject(admin, {
      method: 'POST',
      url: '/api/data/admin/accounts/verification-mail',
      payload: { userId: member.id },
    });
    expect(again.statusCode).toBe(200);
    expect(await queuedMailsTo(t, member.email)).toHaveLength(queued + 1);

    const verified = await t.inject(admin, {
      method: 'POST',
      url: '/api/data/admin/accounts/verify',
      payload: { userId: member.id },
    });
    expect(verified.statusCode).toBe(200);
    expect(verified.json()).toEqual({ id: member.id, emailVerified: true });
    expect(await verifiedInDb(t, member.id)).toBe(true);
    const session = await t.inject({ cookie: member.cookie }, { method: 'GET', url: '/api/auth/get-session' });
    expect(session.json().user.emailVerified).toBe(true);

    const refused = await t.inject(admin, {
      method: 'POST',
      url: '/api/data/admin/accounts/verification-mail',
      payload: { userId: member.id },
    });
    expect(refused.statusCode).toBe(409);
    expect(await queuedMailsTo(t, member.email)).toHaveLength(queued + 1);
    expect(
      (await t.inject(admin, { method: 'POST', url: '/api/data/admin/accounts/verify', payload: { userId: 'nobody' } }))
        .statusCode,
    ).toBe(404);
    expect((await t.inject(admin, { method: 'POST', url: '/api/data/admin/accounts/verify', payload: {} })).statusCode).toBe(400);
  });

  it('lists each account’s verification state for the admin page', async () => {
    const res = await t.inject(
      { cookie: admin.cookie },
      { method: 'GET', url: '/api/auth/admin/list-users?limit=10&sortBy=createdAt&sortDirection=asc' },
    );
    expect(res.statusCode).toBe(200);
    const users = res.json<{ users: Array<{ id: string; emailVerified: boolean }> }>().users;
    expect(users.find((u) => u.id === admin.id)?.emailVerified).toBe(true);
  });
});

eachDialect(
  'the mail section with SMTP_URL',
  (t) => {
    it('names the SMTP server without its credentials, and a test mail that fails says why (502)', async () => {
      const admin = await t.signUp('Admin');
      const overview = await t.inject(admin, { method: 'GET', url: '/api/data/admin/mail' });
      expect(overview.statusCode).toBe(200);
      expect(overview.json()).toEqual({
        transport: { kind: 'smtp', host: 'smtp://127.0.0.1:1' },
        outbox: { total: 0, mails: [] },
      });
      expect(overview.body).not.toContain('secret');
      const sent = await t.inject(admin, { method: 'POST', url: '/api/data/admin/mail/test', payload: {} });
      expect(sent.statusCode).toBe(502);
      expect(sent.json().error).toMatch(/^The mail could not be sent: /);
    });
  },
  { env: { SMTP_URL: 'smtp://mailer:secret@127.0.0.1:1' } },
);

describe('the outbox reader', () => {
  it('decodes encoded subjects and quoted-printable text, newest first', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tavla-outbox-'));
    const silent = { info: () => undefined } as unknown as Parameters<typeof createMailer>[1];
    const mailer = createMailer({ smtpUrl: null, dataDir, baseUrl: BASE_URL }, silent);
    try {
      const long = `Potvrďte adresu: ${BASE_URL}/api/auth/verify-email?token=${'x'.repeat(120)}&callbackURL=%2F — 100 % hotovo`;
      await mailer.send({ to: 'eva@example.test', subject: 'Zkušební e-mail z Tavla', text: long, html: '<p>html</p>' });
      await new Promise((resolve) => setTimeout(resolve, 5));
      await mailer.send({ to: 'adam@example.test', subject: 'Second', text: 'plain', html: '<p>plain</p>' });
      const { total, mails } = await listOutbox(dataDir, 10);
      expect(total).toBe(2);
      expect(mails.map((m) => m.subject)).toEqual(['Second', 'Zkušební e-mail z Tavla']);
      const mail = await readOutboxMail(dataDir, mails[1]!.id);
      expect(mail).toMatchObject({ to: 'eva@example.test', subject: 'Zkušební e-mail z Tavla', text: long });
      expect(await readOutboxMail(dataDir, '../x.eml')).toBeUndefined();
    } finally {
      mailer.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
