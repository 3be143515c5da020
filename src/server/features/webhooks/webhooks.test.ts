import { afterAll, beforeAll, expect, it } from 'vitest';
import { createArea, createCard, seedBoard } from '../../../../test/factories.js';
import { eachDialect, type TestContext, type TestUser } from '../../../../test/harness.js';
import { FAILURE_LIMIT, FIRST_RETRY_MS } from './deliver.js';
import { pruneDeliveries } from './retention.js';
import { Receiver, verifySignature } from '../../../../test/webhook-receiver.js';

const create = (t: TestContext, user: TestUser, payload: object) =>
  t.inject(user, { method: 'POST', url: '/api/data/webhook', payload });

async function addWebhook(t: TestContext, user: TestUser, payload: object) {
  const res = await create(t, user, payload);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ webhook: { id: number; secret: string; events: string[]; active: boolean } }>().webhook;
}

const deliveries = (t: TestContext, webhookId: number) =>
  t.db.selectFrom('webhook_deliveries').selectAll().where('webhookId', '=', webhookId).orderBy('id').execute();

/** Runs the job runner at `at` (the clock the jobs see). */
async function runJobsAt(t: TestContext, at: Date) {
  t.setTime(at);
  await t.app.jobs.runDue();
}

const SECOND = 1000;

eachDialect(
  'webhooks',
  (t) => {
    let receiver: Receiver;
    beforeAll(async () => {
      receiver = await Receiver.start();
    });
    afterAll(async () => {
      t.setTime(null);
      await receiver.close();
    });
    const fresh = () => {
      receiver.received.length = 0;
      receiver.status = () => 200;
    };

    it('creates, lists without the secret, and deletes a webhook (owner only)', async () => {
      const owner = await t.signUp();
      const { board } = await seedBoard(t, owner, { A: [] });
      const created = await addWebhook(t, owner, { boardId: board.id, url: receiver.url, events: ['card.moved'] });
      expect(created).toMatchObject({ boardId: board.id, url: receiver.url, events: ['card.moved'], active: true });
      expect(created.secret).toMatch(/^[0-9a-f]{64}$/);

      const list = await t.inject(owner, { method: 'GET', url: `/api/data/webhook?boardId=${board.id}` });
      expect(list.statusCode).toBe(200);
      const { webhooks } = list.json<{ webhooks: Array<Record<string, unknown>> }>();
      expect(webhooks).toEqual([{ ...created, secret: undefined }].map(({ secret: _s, ...rest }) => rest));
      expect(list.body).not.toContain(created.secret);

      const removed = await t.inject(owner, { method: 'DELETE', url: `/api/data/webhook?id=${created.id}` });
      expect(removed.json()).toEqual({ success: true });
      expect(await t.db.selectFrom('webhooks').selectAll().where('id', '=', created.id).execute()).toEqual([]);
    });

    it('refuses members without ownership, strangers, and bad input, changing nothing', async () => {
      const owner = await t.signUp();
      const editor = await t.signUp();
      const stranger = await t.signUp();
      const { board } = await seedBoard(t, owner, { A: [] });
      await t.inject(owner, {
        method: 'POST',
        url: '/api/data/invite',
        payload: { boardId: board.id, userId: editor.id, permission: 'edit' },
      });
      const hook = await addWebhook(t, owner, { boardId: board.id, url: receiver.url });
      const before = await t.db.selectFrom('webhooks').selectAll().orderBy('id').execute();

      expect((await create(t, editor, { boardId: board.id, url: receiver.url })).statusCode).toBe(403);
      const foreign = await create(t, stranger, { boardId: board.id, url: receiver.url });
      expect([foreign.statusCode, foreign.json()]).toEqual([404, { error: 'Board not found' }]);
      expect((await t.inject(editor, { method: 'GET', url: `/api/data/webhook?boardId=${board.id}` })).statusCode).toBe(403);
      expect((await t.inject(editor, { method: 'DELETE', url: `/api/data/webhook?id=${hook.id}` })).statusCode).toBe(403);
      const gone = await t.inject(stranger, { method: 'DELETE', url: `/api/data/webhook?id=${hook.id}` });
      expect([gone.statusCode, gone.json()]).toEqual([404, { error: 'Webhook not found' }]);
      const history = await t.inject(stranger, { method: 'GET', url: `/api/data/webhook-deliveries?id=${hook.id}` });
      expect(history.statusCode).toBe(404);

      for (const url of [
        'not a url',
        'ftp://example.com/',
        'https://user:pass@example.com/',
        'javascript:alert(1)',
        'file:///etc/passwd',
      ]) {
        const res = await create(t, owner, { boardId: board.id, url });
        expect([url, res.statusCode]).toEqual([url, 400]);
        expect(typeof res.json<{ error: string }>().error).toBe('string');
      }
      expect((await create(t, owner, { boardId: board.id, url: receiver.url, events: ['card.exploded'] })).statusCode).toBe(400);
      expect(await t.db.selectFrom('webhooks').selectAll().orderBy('id').execute()).toEqual(before);
    });

    it('POSTs each event signed, with the body and headers described, after the commit', async () => {
      fresh();
      const owner = await t.signUp();
      const { board, areas } = await seedBoard(t, owner, { A: [] });
      const hook = await addWebhook(t, owner, { boardId: board.id, url: receiver.url });
      const card = await createCard(t, owner, areas.A!.id as number, 'signed');
      await runJobsAt(t, new Date());

      expect(receiver.received).toHaveLength(1);
      const [request] = receiver.received;
      const body = JSON.parse(request!.body) as Record<string, unknown>;
      const stored = await deliveries(t, hook.id);
      expect(body).toEqual({
        deliveryId: stored[0]!.id,
        boardId: board.id,
        version: stored[0]!.version,
        name: 'card.created',
        actor: { id: owner.id, name: owner.name },
        data: { card: expect.objectContaining({ id: card.id, name: 'signed' }) },
        createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      });
      expect(request!.headers['content-type']).toBe('application/json');
      expect(request!.headers['x-tavla-event']).toBe('card.created');
      expect(request!.headers['x-tavla-delivery']).toBe(String(stored[0]!.id));
      expect(verifySignature(hook.secret, request!.headers['x-tavla-signature'] as string, request!.body)).toBe(true);
      expect(verifySignature('another secret', request!.headers['x-tavla-signature'] as string, request!.body)).toBe(false);
      expect(stored[0]).toMatchObject({ status: 'delivered', attempts: 1, responseStatus: 200 });
      // The version is the one viewers got: the board's event log holds the same event.
      const logged = await t.db
        .selectFrom('board_events')
        .select('name')
        .where('boardId', '=', board.id)
        .where('version', '=', body.version as number)
        .executeTakeFirstOrThrow();
      expect(logged.name).toBe('card.created');
      // Delivered once: running the jobs again sends nothing.
      await runJobsAt(t, new Date(Date.now() + 3600_000));
      expect(receiver.received).toHaveLength(1);
    });

    it('sends only the events a webhook asked for; none after it is deleted', async () => {
      fresh();
      const owner = await t.signUp();
      const { board } = await seedBoard(t, owner, { A: [] });
      const hook = await addWebhook(t, owner, { boardId: board.id, url: receiver.url, events: ['area.created'] });
      const area = await createArea(t, owner, board.id, 'Filtered');
      await createCard(t, owner, area.id as number, 'not asked for');
      await runJobsAt(t, new Date());
      expect(receiver.bodies().map((b) => b.name)).toEqual(['area.created']);
      expect((await deliveries(t, hook.id)).map((d) => d.event)).toEqual(['area.created']);

      await t.inject(owner, { method: 'DELETE', url: `/api/data/webhook?id=${hook.id}` });
      await createArea(t, owner, board.id, 'After');
      await runJobsAt(t, new Date());
      expect(receiver.received).toHaveLength(1);
    });

    it('retries a failing receiver with growing delays under the same delivery id, then gives up after 24 hours', async () => {
      fresh();
      receiver.status = () => 500;
      const owner = await t.signUp();
      const { board, areas } = await seedBoard(t, owner, { A: [] });
      const hook = await addWebhook(t, owner, { boardId: board.id, url: receiver.url });
      await createCard(t, owner, areas.A!.id as number, 'unlucky');
      const start = new Date(Date.now() + SECOND);

      await runJobsAt(t, start);
      expect(receiver.received).toHaveLength(1);
      let at = start.getTime();
      const gaps: number[] = [];
      for (let attempt = 1; attempt <= 4; attempt++) {
        const [delivery] = await deliveries(t, hook.id);
        const next = Date.parse(new Date(delivery!.nextAttemptAt).toISOString());
        gaps.push(next - at);
        // Just before the retry is due nothing is sent; at its time it is.
        await runJobsAt(t, new Date(next - SECOND));
        expect(receiver.received).toHaveLength(attempt);
        await runJobsAt(t, new Date(next));
        expect(receiver.received).toHaveLength(attempt + 1);
        at = next;
      }
      expect(gaps).toEqual([FIRST_RETRY_MS, 2 * FIRST_RETRY_MS, 4 * FIRST_RETRY_MS, 8 * FIRST_RETRY_MS]);
      const ids = new Set(receiver.received.map((r) => r.headers['x-tavla-delivery']));
      expect(ids.size).toBe(1);
      expect((await deliveries(t, hook.id))[0]).toMatchObject({ status: 'pending', attempts: 5, responseStatus: 500 });

      await runJobsAt(t, new Date(start.getTime() + 25 * 3600_000));
      expect((await deliveries(t, hook.id))[0]).toMatchObject({ status: 'failed', attempts: 6 });
      const sent = receiver.received.length;
      await runJobsAt(t, new Date(start.getTime() + 30 * 3600_000));
      expect(receiver.received).toHaveLength(sent);
    });

    it('keeps the order of versions per webhook: a newer event waits for an older one being retried', async () => {
      fresh();
      let failOnce = true;
      receiver.status = () => (failOnce ? ((failOnce = false), 503) : 200);
      const owner = await t.signUp();
      const { board, areas } = await seedBoard(t, owner, { A: [] });
      await addWebhook(t, owner, { boardId: board.id, url: receiver.url });
      for (const name of ['one', 'two', 'three']) await createCard(t, owner, areas.A!.id as number, name);
      const start = new Date(Date.now() + SECOND);
      await runJobsAt(t, start);
      expect(receiver.received).toHaveLength(1);
      for (let s = 1; s <= 40 && receiver.received.length < 4; s++) await runJobsAt(t, new Date(start.getTime() + s * SECOND));
      const names = receiver.bodies().map((b) => (b.data as { card: { name: string } }).card.name);
      expect(names).toEqual(['one', 'one', 'two', 'three']);
      const versions = receiver.bodies().map((b) => b.version as number);
      expect(versions).toEqual([...versions].sort((a, b) => a - b));
    });

    it(`turns a webhook off after ${FAILURE_LIMIT} failures in a row and tells the owner`, async () => {
      fresh();
      receiver.status = () => 500;
      const owner = await t.signUp();
      const { board, areas } = await seedBoard(t, owner, { A: [] });
      const hook = await addWebhook(t, owner, { boardId: board.id, url: receiver.url });
      // The first failures of a long outage, without living through them.
      await t.db
        .updateTable('webhooks')
        .set({ failures: FAILURE_LIMIT - 2 })
        .where('id', '=', hook.id)
        .execute();
      await createCard(t, owner, areas.A!.id as number, 'first');
      await createCard(t, owner, areas.A!.id as number, 'second');
      const start = new Date(Date.now() + SECOND);
      await runJobsAt(t, start);
      const notes = () =>
        t.db
          .selectFrom('notifications')
          .selectAll()
          .where('userId', '=', owner.id)
          .where('type', '=', 'webhook_disabled')
          .execute();
      expect(await notes()).toHaveLength(0);
      await runJobsAt(t, new Date(start.getTime() + FIRST_RETRY_MS));
      expect(receiver.received).toHaveLength(2);

      const row = await t.db.selectFrom('webhooks').selectAll().where('id', '=', hook.id).executeTakeFirstOrThrow();
      expect([row.active, row.failures]).toEqual([0, FAILURE_LIMIT]);
      expect((await deliveries(t, hook.id)).map((d) => d.status)).toEqual(['failed', 'failed']);
      const [note] = await notes();
      expect(note).toMatchObject({ boardId: board.id, cardId: null, actorId: null });
      expect(note!.message).toContain(receiver.url);
      const listed = await t.inject(owner, { method: 'GET', url: `/api/data/webhook?boardId=${board.id}` });
      expect(listed.json<{ webhooks: Array<{ active: boolean }> }>().webhooks[0]!.active).toBe(false);

      // An inactive webhook gets nothing more.
      await createCard(t, owner, areas.A!.id as number, 'third');
      await runJobsAt(t, new Date(start.getTime() + 3600_000));
      expect(receiver.received).toHaveLength(2);
      expect(await deliveries(t, hook.id)).toHaveLength(2);
    });

    it('lists the last 50 deliveries, newest first, and redelivers one as a new delivery', async () => {
      fresh();
      const owner = await t.signUp();
      const stranger = await t.signUp();
      const { board, areas } = await seedBoard(t, owner, { A: [] });
      const hook = await addWebhook(t, owner, { boardId: board.id, url: receiver.url, events: ['card.created'] });
      await createCard(t, owner, areas.A!.id as number, 'again');
      await runJobsAt(t, new Date());
      const [first] = await deliveries(t, hook.id);

      const refused = await t.inject(stranger, {
        method: 'POST',
        url: '/api/data/webhook-redeliver',
        payload: { deliveryId: first!.id },
      });
      expect([refused.statusCode, refused.json()]).toEqual([404, { error: 'Delivery not found' }]);
      expect(await deliveries(t, hook.id)).toHaveLength(1);

      const again = await t.inject(owner, {
        method: 'POST',
        url: '/api/data/webhook-redeliver',
        payload: { deliveryId: first!.id },
      });
      expect(again.statusCode).toBe(200);
      const { delivery } = again.json<{ delivery: { id: number; status: string; event: string } }>();
      expect(delivery).toMatchObject({
        status: 'pending',
        event: 'card.created',
        attempts: 0,
        responseStatus: null,
        deliveredAt: null,
      });
      expect(delivery.id).not.toBe(first!.id);
      await runJobsAt(t, new Date());
      const [a, b] = receiver.bodies();
      expect(b).toEqual({ ...a, deliveryId: delivery.id });

      for (let i = 0; i < 50; i++) await createCard(t, owner, areas.A!.id as number, `bulk ${i}`);
      const list = await t.inject(owner, { method: 'GET', url: `/api/data/webhook-deliveries?id=${hook.id}` });
      expect(list.statusCode).toBe(200);
      const listed = list.json<{ deliveries: Array<Record<string, unknown>> }>().deliveries;
      expect(listed).toHaveLength(50);
      const all = await deliveries(t, hook.id);
      expect(listed.map((d) => d.id)).toEqual(
        all
          .map((d) => d.id)
          .reverse()
          .slice(0, 50),
      );
      expect(Object.keys(listed.at(-1)!).sort()).toEqual(
        ['attempts', 'createdAt', 'deliveredAt', 'event', 'id', 'responseStatus', 'status'].sort(),
      );
      expect(listed.find((d) => d.id === first!.id)).toBeUndefined();
      await runJobsAt(t, new Date());
    });

    it('forgets finished deliveries once their events have left the event log, and keeps pending ones', async () => {
      const owner = await t.signUp();
      const board = await t.createBoard(owner);
      const hook = await addWebhook(t, owner, { boardId: board.id, url: receiver.url });
      const now = Date.now();
      const row = (status: string, daysAgo: number) => ({
        webhookId: hook.id,
        boardId: board.id,
        version: 1,
        event: 'card.created',
        status,
        nextAttemptAt: new Date(now + 86_400_000).toISOString(),
        createdAt: new Date(now - daysAgo * 86_400_000).toISOString(),
      });
      await t.db
        .insertInto('webhook_deliveries')
        .values([row('delivered', 8), row('failed', 8), row('pending', 8), row('delivered', 1)])
        .execute();
      expect(await pruneDeliveries(t.db, new Date(now))).toBe(2);
      expect((await deliveries(t, hook.id)).map((d) => d.status)).toEqual(['pending', 'delivered']);
    });
  },
  { env: { WEBHOOK_ALLOW_PRIVATE: 'true' } },
);

eachDialect('webhooks: addresses', (t) => {
  it('refuses loopback, private, link-local, metadata and other internal addresses (400, nothing stored)', async () => {
    const owner = await t.signUp();
    const board = await t.createBoard(owner);
    const urls = [
      'http://127.0.0.1/',
      'http://127.1.2.3:8080/x',
      'http://localhost:3000/',
      'http://0.0.0.0/',
      'http://10.1.2.3/',
      'http://172.16.0.1/',
      'http://192.168.1.1/',
      'http://100.64.0.1/',
      'http://100.100.100.200/',
      'http://169.254.169.254/latest/meta-data/',
      'http://2130706433/',
      'http://0x7f000001/',
      'http://[::1]/',
      'http://[::]/',
      'http://[::ffff:127.0.0.1]/',
      'http://[::ffff:a9fe:a9fe]/',
      'http://[64:ff9b::7f00:1]/',
      'http://[fe80::1]/',
      'http://[fd00:ec2::254]/',
      'http://[ff02::1]/',
      'http://224.0.0.1/',
      'http://[::ffff:808:808]/',
      'http://[::ffff:0:7f00:1]/',
      'http://[64:ff9b:1::a9fe:a9fe]/',
      'http://[64:ff9b:1::808:808]/',
      'http://[2002:a00:1::]/',
      'http://[2001::a9fe:a9fe]/',
    ];
    for (const url of urls) {
      const res = await create(t, owner, { boardId: board.id, url });
      expect([url, res.statusCode]).toEqual([url, 400]);
    }
    expect(await t.db.selectFrom('webhooks').selectAll().execute()).toEqual([]);
  });

  it('says the address is not allowed without naming what the name resolves to, nor whether it resolves', async () => {
    const owner = await t.signUp();
    const board = await t.createBoard(owner);
    const local = await create(t, owner, { boardId: board.id, url: 'http://localhost:8080/hook' });
    expect([local.statusCode, local.json()]).toEqual([
      400,
      { error: 'body: url: localhost is not allowed: webhooks may only be sent to hosts with public addresses' },
    ]);
    expect(local.body).not.toMatch(/127\.0\.0\.1|::1/);
    const nowhere = await create(t, owner, { boardId: board.id, url: 'http://nowhere.invalid/hook' });
    expect([nowhere.statusCode, nowhere.json()]).toEqual([
      400,
      { error: 'body: url: nowhere.invalid is not allowed: webhooks may only be sent to hosts with public addresses' },
    ]);
    expect(await t.db.selectFrom('webhooks').selectAll().execute()).toEqual([]);
  });

  it('checks the address again when it delivers, and sends nothing to a private one', async () => {
    const receiver = await Receiver.start();
    try {
      const owner = await t.signUp();
      const { board, areas } = await seedBoard(t, owner, { A: [] });
      // As if its name had resolved to a public address when it was added.
      await t.db
        .insertInto('webhooks')
        .values({
          boardId: board.id,
          url: receiver.url.replace('127.0.0.1', 'localhost'),
          events: null,
          secret: 's',
          createdAt: new Date().toISOString(),
        })
        .execute();
      await createCard(t, owner, areas.A!.id as number, 'kept in');
      t.setTime(new Date());
      await t.app.jobs.runDue();
      expect(receiver.received).toHaveLength(0);
      const [delivery] = await t.db.selectFrom('webhook_deliveries').selectAll().execute();
      expect(delivery).toMatchObject({ status: 'pending', attempts: 1, responseStatus: null });
      expect(delivery!.lastError).toBe('localhost is not allowed: webhooks may only be sent to hosts with public addresses');
    } finally {
      t.setTime(null);
      await receiver.close();
    }
  });
});
