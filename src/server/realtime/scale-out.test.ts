import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, dialects, type TestDatabase } from '../../../test/databases.js';
import { Viewer } from '../../../test/realtime-client.js';
import { account, healthy, start, stop, type ServerProcess } from '../../../test/processes.js';
import { CLOSE_CREDENTIAL_ENDED } from '../../shared/events.js';

/**
 * Two real server processes on one PostgreSQL database: an event written
 * through one reaches a viewer on the other, and so does a revocation.
 */
describe.runIf(dialects.includes('postgres'))('scale-out over PostgreSQL [postgres]', () => {
  let database: TestDatabase;
  const servers: ServerProcess[] = [];

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    // Both start at once: the migration lock lets one of them create the schema.
    for (let i = 0; i < 2; i++) servers.push(await start(database.url));
    await Promise.all(servers.map((s) => healthy(s.url, 100_000)));
  }, 120_000);

  afterAll(async () => {
    for (const s of servers) await stop(s);
    await database?.drop();
  });

  it('delivers an API write on one process to a viewer on the other, in order', async () => {
    const [a, b] = servers as [(typeof servers)[0], (typeof servers)[0]];
    const { key, userId } = await account(a.url);
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
      name: 'Shared',
      style: 'kanban',
      status: 'private',
    });
    const { area } = await call(a.url, 'POST', '/api/data/area', { boardId: board.id, name: 'Todo' });

    const onA = await Viewer.connect(a.url, { 'x-api-key': key });
    const onB = await Viewer.connect(b.url, { 'x-api-key': key });
    for (const v of [onA, onB]) v.send({ type: 'subscribe', boardId: board.id });
    const { version } = await onA.next('subscribed');
    await onB.next('subscribed');

    await call(b.url, 'POST', '/api/data/card', { areaId: area.id, name: 'written on B' });
    await call(a.url, 'POST', '/api/data/card', { areaId: area.id, name: 'written on A' });
    for (const viewer of [onA, onB]) {
      const first = await viewer.next('event');
      const second = await viewer.next('event');
      expect([first.version, second.version]).toEqual([version + 1, version + 2]);
      expect([first, second].map((e) => (e.data as { card: { name: string } }).card.name)).toEqual([
        'written on B',
        'written on A',
      ]);
    }
    onA.close();
    onB.close();
  });

  it('closes a socket on one process when its key is deleted or its session signs out on the other', async () => {
    const [a, b] = servers as [(typeof servers)[0], (typeof servers)[0]];
    const { key, cookie } = await account(a.url, 'revoked@example.test');
    const byKey = await Viewer.connect(b.url, { 'x-api-key': key });
    const byCookie = await Viewer.connect(b.url, { cookie });
    const headers = { cookie, origin: a.url, 'content-type': 'application/json' };

    const { apiKeys } = (await (await fetch(`${a.url}/api/auth/api-key/list`, { headers })).json()) as {
      apiKeys: Array<{ id: string }>;
    };
    const deleted = await fetch(`${a.url}/api/auth/api-key/delete`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ keyId: apiKeys[0]!.id }),
    });
    expect(deleted.status).toBe(200);
    expect(await byKey.waitClosed(3000)).toEqual({ code: CLOSE_CREDENTIAL_ENDED, reason: 'API key deleted' });
    expect(byCookie.closed).toBeNull();

    expect((await fetch(`${a.url}/api/auth/sign-out`, { method: 'POST', headers, body: '{}' })).status).toBe(200);
    expect(await byCookie.waitClosed(3000)).toEqual({ code: CLOSE_CREDENTIAL_ENDED, reason: 'Session ended' });
  });
});
