import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestDatabase, dialects, type TestDatabase } from '../../../../test/databases.js';
import { account, healthy, start, stop, type ServerProcess } from '../../../../test/processes.js';
import { Receiver, verifySignature } from '../../../../test/webhook-receiver.js';

/** Two real server processes on one PostgreSQL database, both running the job runner: every event reaches the receiver once, in order, one at a time. */
describe.runIf(dialects.includes('postgres'))('webhooks across processes [postgres]', () => {
  let database: TestDatabase;
  let receiver: Receiver;
  const servers: ServerProcess[] = [];

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    receiver = await Receiver.start();
    for (let i = 0; i < 2; i++) servers.push(await start(database.url, { WEBHOOK_ALLOW_PRIVATE: 'true' }));
    await Promise.all(servers.map((s) => healthy(s.url)));
  }, 60_000);

  afterAll(async () => {
    for (const s of servers) await stop(s);
    await receiver?.close();
    await database?.drop();
  });

  it('delivers each event written on either process exactly once, in version order', async () => {
    const [a, b] = servers as [ServerProcess, ServerProcess];
    const { key, userId } = await account(a.url, 'hooks@example.test');
    const call = async (base: string, method: string, url: string, body?: object) => {
      const res = await fetch(base + url, {
        method,
        headers: { 'x-api-key': key, ...(body ? { 'content-type': 'application/json' } : {}) },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      expect(res.status).toBe(200);
      return (await res.json()) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    };
    const { board } = await call(a.url, 'POST', '/api/data/board', {
      userId,
      name: 'Hooked',
      style: 'kanban',
      status: 'private',
    });
    const { area } = await call(a.url, 'POST', '/api/data/area', { boardId: board.id, name: 'Todo' });
    const { webhook } = await call(b.url, 'POST', '/api/data/webhook', { boardId: board.id, url: receiver.url });

    const count = 12;
    // Answers that take a while, so that a second request of the webhook would overlap the first.
    receiver.delayMs = 50;
    await Promise.all(
      Array.from({ length: count }, (_, i) =>
        call(i % 2 === 0 ? a.url : b.url, 'POST', '/api/data/card', { areaId: area.id, name: `card ${i}` }),
      ),
    );
    await vi.waitFor(
      async () => {
        const { deliveries } = await call(a.url, 'GET', `/api/data/webhook-deliveries?id=${webhook.id}`);
        expect(deliveries).toHaveLength(count);
        expect(deliveries.every((d: { status: string }) => d.status === 'delivered')).toBe(true);
      },
      { timeout: 30_000, interval: 250 },
    );

    expect(receiver.received).toHaveLength(count);
    // Each process has several delivery slots, yet the webhook never had two requests at once.
    expect(receiver.maxInFlight).toBe(1);
    const ids = receiver.received.map((r) => r.headers['x-tavla-delivery']);
    expect(new Set(ids).size).toBe(count);
    const versions = receiver.bodies().map((body) => body.version as number);
    expect(versions).toEqual([...versions].sort((x, y) => x - y));
    expect(new Set(versions).size).toBe(count);
    for (const r of receiver.received)
      expect(verifySignature(webhook.secret, r.headers['x-tavla-signature'] as string, r.body)).toBe(true);
  }, 60_000);
});
