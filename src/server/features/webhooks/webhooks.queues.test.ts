import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, expect, it, vi } from 'vitest';
import { createCard, seedBoard } from '../../../../test/factories.js';
import { eachDialect, type TestContext, type TestUser } from '../../../../test/harness.js';
import { FAILURE_LIMIT } from './deliver.js';
import { Receiver } from '../../../../test/webhook-receiver.js';

const CONCURRENCY = 3;
const SLOW_MS = 600;
const poll = { timeout: 15_000, interval: 25 };

async function addWebhook(t: TestContext, user: TestUser, boardId: number, url: string) {
  const res = await t.inject(user, { method: 'POST', url: '/api/data/webhook', payload: { boardId, url } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ webhook: { id: number } }>().webhook;
}

const deliveries = (t: TestContext, webhookId: number) =>
  t.db.selectFrom('webhook_deliveries').selectAll().where('webhookId', '=', webhookId).orderBy('id').execute();

/** Slow receivers beside everything else the job runner does: each kind of work waits only for its own. */
eachDialect(
  'webhooks: slow receivers',
  (t) => {
    const receivers: Receiver[] = [];
    const receiver = async () => {
      const r = await Receiver.start();
      receivers.push(r);
      return r;
    };
    beforeAll(() => t.app.jobs.start(25));
    afterEach(() => {
      for (const r of receivers) {
        r.hold = false;
        r.release();
      }
    });
    afterAll(async () => {
      await t.app.jobs.stop();
      await Promise.all(receivers.map((r) => r.close()));
    });

    const mailsTo = (address: string) => {
      try {
        const outbox = path.join(t.config.dataDir, 'outbox');
        return readdirSync(outbox)
          .map((file) => readFileSync(path.join(outbox, file), 'utf8'))
          .filter((mail) => mail.toLowerCase().includes(`to: ${address}`));
      } catch {
        return [];
      }
    };

    it('sends an invitation mail at once while slow receivers hold every delivery slot', async () => {
      const slow = await receiver();
      slow.hold = true;
      const owner = await t.signUp();
      const { board, areas } = await seedBoard(t, owner, { A: [] });
      const hooks: Array<{ id: number }> = [];
      for (let i = 0; i < CONCURRENCY + 2; i++) hooks.push(await addWebhook(t, owner, board.id, `${slow.url}?n=${i}`));
      await createCard(t, owner, areas.A!.id as number, 'for every receiver');

      // Deliveries to different webhooks overlap, up to WEBHOOK_CONCURRENCY at once.
      await vi.waitFor(() => expect(slow.inFlight).toBe(CONCURRENCY), poll);

      const address = `invitee.${t.dialect}@example.test`;
      const invited = await t.inject(owner, {
        method: 'POST',
        url: '/api/data/invite',
        payload: { boardId: board.id, mail: address, permission: 'edit' },
      });
      expect(invited.json()).toEqual({ success: true });
      await vi.waitFor(() => expect(mailsTo(address)).toHaveLength(1), poll);
      // Sent while every delivery slot was still held by an unanswered receiver.
      expect(slow.inFlight).toBe(CONCURRENCY);
      expect(slow.received).toHaveLength(CONCURRENCY);

      slow.hold = false;
      slow.release();
      await vi.waitFor(async () => {
        for (const hook of hooks) expect((await deliveries(t, hook.id)).map((d) => d.status)).toEqual(['delivered']);
      }, poll);
      expect(slow.received).toHaveLength(hooks.length);
      expect(slow.maxInFlight).toBe(CONCURRENCY);
    });

    it("keeps one webhook's deliveries one at a time and in version order, while another webhook's go through", async () => {
      const held = await receiver();
      const quick = await receiver();
      held.hold = true;
      const owner = await t.signUp();
      const { board, areas } = await seedBoard(t, owner, { A: [] });
      const ordered = await addWebhook(t, owner, board.id, held.url);
      const other = await addWebhook(t, owner, board.id, quick.url);
      const names = ['one', 'two', 'three', 'four'];
      for (const name of names) await createCard(t, owner, areas.A!.id as number, name);

      // The other webhook gets all four while the first is held at its first delivery: slots were free, yet
      // the held webhook's second delivery did not start.
      await vi.waitFor(async () => {
        expect((await deliveries(t, other.id)).map((d) => d.status)).toEqual(names.map(() => 'delivered'));
      }, poll);
      expect(held.received).toHaveLength(1);
      expect(held.inFlight).toBe(1);

      for (let sent = 1; sent < names.length; sent++) {
        held.release();
        await vi.waitFor(() => expect(held.received).toHaveLength(sent + 1), poll);
        expect(held.inFlight).toBe(1);
      }
      held.release();
      await vi.waitFor(async () => {
        expect((await deliveries(t, ordered.id)).map((d) => d.status)).toEqual(names.map(() => 'delivered'));
      }, poll);
      expect(held.maxInFlight).toBe(1);
      const bodies = held.bodies();
      expect(bodies.map((b) => (b.data as { card: { name: string } }).card.name)).toEqual(names);
      const versions = bodies.map((b) => b.version as number);
      expect(versions).toEqual([...versions].sort((a, b) => a - b));
    });

    it('counts answers slower than WEBHOOK_SLOW_MS toward turning the webhook off, and a quick one starts the count again', async () => {
      const sluggish = await receiver();
      const owner = await t.signUp();
      const { board, areas } = await seedBoard(t, owner, { A: [] });
      const hook = await addWebhook(t, owner, board.id, sluggish.url);
      const row = () => t.db.selectFrom('webhooks').selectAll().where('id', '=', hook.id).executeTakeFirstOrThrow();
      const settled = (count: number) =>
        vi.waitFor(async () => {
          const rows = await deliveries(t, hook.id);
          expect(rows).toHaveLength(count);
          expect(rows.every((d) => d.status !== 'pending')).toBe(true);
        }, poll);

      sluggish.delayMs = SLOW_MS + 300;
      await createCard(t, owner, areas.A!.id as number, 'slow');
      await settled(1);
      // Delivered (the receiver has it), yet counted.
      expect((await deliveries(t, hook.id))[0]).toMatchObject({ status: 'delivered', responseStatus: 200 });
      expect(await row()).toMatchObject({ active: 1, failures: 1 });

      sluggish.delayMs = 0;
      await createCard(t, owner, areas.A!.id as number, 'quick');
      await settled(2);
      expect(await row()).toMatchObject({ active: 1, failures: 0 });

      // The slow answers of a long stretch, without living through them.
      await t.db
        .updateTable('webhooks')
        .set({ failures: FAILURE_LIMIT - 2 })
        .where('id', '=', hook.id)
        .execute();
      sluggish.delayMs = SLOW_MS + 300;
      await createCard(t, owner, areas.A!.id as number, 'slow again');
      await createCard(t, owner, areas.A!.id as number, 'and again');
      await settled(4);
      expect(await row()).toMatchObject({ active: 0, failures: FAILURE_LIMIT });
      expect(sluggish.received).toHaveLength(4);
      const notes = await t.db
        .selectFrom('notifications')
        .selectAll()
        .where('userId', '=', owner.id)
        .where('type', '=', 'webhook_disabled')
        .execute();
      expect(notes).toHaveLength(1);
      expect(notes[0]!.message).toContain(sluggish.url);

      // Turned off: nothing more is sent.
      await createCard(t, owner, areas.A!.id as number, 'after');
      const listed = await t.inject(owner, { method: 'GET', url: `/api/data/webhook?boardId=${board.id}` });
      expect(listed.json<{ webhooks: Array<{ active: boolean }> }>().webhooks[0]!.active).toBe(false);
      expect(await deliveries(t, hook.id)).toHaveLength(4);
    });
  },
  { env: { WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_CONCURRENCY: String(CONCURRENCY), WEBHOOK_SLOW_MS: String(SLOW_MS) } },
);
