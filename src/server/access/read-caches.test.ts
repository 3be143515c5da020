import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { sql } from 'kysely';
import { createCard, seedBoard, share } from '../../../test/factories.js';
import { createTestDatabase, dialects } from '../../../test/databases.js';
import { BASE_URL, eachDialect, startApp, type TestContext, type TestUser } from '../../../test/harness.js';
import { Viewer } from '../../../test/realtime-client.js';
import { hashKey } from '../auth/actor.js';
import { LISTEN_CONNECTION_NAME } from '../db/dialects/pg-listen.js';
import { readCachesOf } from './read-caches.js';

const origin = { origin: BASE_URL };

/** What a user notices of the read path: the card names of an area, or the status of the refusal. */
async function listCards(t: Pick<TestContext, 'inject'>, as: { key: string }, areaId: number): Promise<string[] | number> {
  const res = await t.inject(as, { method: 'GET', url: `/api/data/cards?areaId=${areaId}` });
  return res.statusCode === 200 ? res.json<{ cards: Array<{ name: string }> }>().cards.map((c) => c.name) : res.statusCode;
}

const auth = (t: Pick<TestContext, 'app'>, cookie: string, url: string, payload: object = {}) =>
  t.app.inject({ method: 'POST', url: `/api/auth/${url}`, headers: { cookie, ...origin }, payload });

const keyId = async (t: Pick<TestContext, 'db'>, key: string) =>
  (await t.db.selectFrom('apikey').select('id').where('keyHash', '=', hashKey(key)).executeTakeFirstOrThrow()).id;

async function makeAdmin(t: TestContext): Promise<TestUser> {
  const boss = await t.signUp('Boss');
  await t.db.updateTable('user').set({ role: 'admin' }).where('id', '=', boss.id).execute();
  return boss;
}

/** Polls until `read` answers `expected`, within a bound (another process hears of a change by NOTIFY). */
async function eventually<T>(read: () => T | Promise<T>, expected: T, withinMs = 3000): Promise<void> {
  const deadline = Date.now() + withinMs;
  let last: T = await read();
  while (JSON.stringify(last) !== JSON.stringify(expected) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 20));
    last = await read();
  }
  expect(last).toEqual(expected);
}

/** The caches serve only once the invalidation listener is connected (at once on SQLite). */
async function cachesLive(t: Pick<TestContext, 'db'>): Promise<void> {
  await eventually(() => readCachesOf(t.db)?.boards.live === true && readCachesOf(t.db)?.actors.live === true, true);
}

eachDialect('read caches: a repeated read costs no query, and every change is seen at once', (t) => {
  beforeAll(() => cachesLive(t));
  afterEach(() => vi.restoreAllMocks());

  it('answers a repeated read of an unchanged area without a database query, and a write at once', async () => {
    const owner = await t.signUp();
    const { areas } = await seedBoard(t, owner, { A: ['one'] });
    expect(await listCards(t, owner, areas.A!.id)).toEqual(['one']);
    const queries = vi.spyOn(t.db, 'executeQuery');
    expect(await listCards(t, owner, areas.A!.id)).toEqual(['one']);
    expect(queries).not.toHaveBeenCalled();
    vi.restoreAllMocks();
    await createCard(t, owner, areas.A!.id, 'two');
    expect(await listCards(t, owner, areas.A!.id)).toEqual(['one', 'two']);
  });

  it('refuses a removed member at once, and changed nothing when the removal was refused', async () => {
    const owner = await t.signUp();
    const member = await t.signUp();
    const { board, areas } = await seedBoard(t, owner, { A: ['one'] });
    await share(t, board.id, member, 'read');
    expect(await listCards(t, member, areas.A!.id)).toEqual(['one']);
    // A reader cannot remove the owner's other members: refused, and the member still reads.
    const stranger = await t.signUp();
    const refused = await t.inject(stranger, {
      method: 'DELETE',
      url: `/api/data/invite?boardId=${board.id}&userId=${member.id}`,
    });
    expect(refused.statusCode).toBe(404);
    expect(await listCards(t, member, areas.A!.id)).toEqual(['one']);
    const removed = await t.inject(owner, { method: 'DELETE', url: `/api/data/invite?boardId=${board.id}&userId=${member.id}` });
    expect(removed.statusCode, removed.body).toBe(200);
    expect(await listCards(t, member, areas.A!.id)).toBe(404);
  });

  it('refuses a non-member at once when a public board turns private', async () => {
    const owner = await t.signUp();
    const reader = await t.signUp();
    const board = await t.createBoard(owner, { status: 'public' });
    const area = (
      await t.inject(owner, { method: 'POST', url: '/api/data/area', payload: { boardId: board.id, name: 'A' } })
    ).json().area as { id: number };
    await createCard(t, owner, area.id, 'open');
    expect(await listCards(t, reader, area.id)).toEqual(['open']);
    const turnPrivate = (as: TestUser) =>
      t.inject(as, {
        method: 'POST',
        url: '/api/data/board',
        payload: { id: board.id, userId: as.id, name: 'Board', style: 'kanban', status: 'private' },
      });
    expect((await turnPrivate(reader)).statusCode).toBe(403);
    expect(await listCards(t, reader, area.id)).toEqual(['open']);
    const turned = await turnPrivate(owner);
    expect(turned.statusCode, turned.body).toBe(200);
    expect(await listCards(t, reader, area.id)).toBe(404);
    expect(await listCards(t, owner, area.id)).toEqual(['open']);
  });

  it('refuses a deleted key at once, and keeps serving the account’s other key', async () => {
    const user = await t.signUp();
    const other = { key: await t.createKey(user) };
    const { areas } = await seedBoard(t, user, { A: ['one'] });
    for (const k of [user, other]) expect(await listCards(t, k, areas.A!.id)).toEqual(['one']);
    expect(readCachesOf(t.db)!.actors.get(hashKey(user.key))).toBeDefined();
    expect((await auth(t, user.cookie, 'api-key/delete', { keyId: await keyId(t, user.key) })).statusCode).toBe(200);
    expect(await listCards(t, user, areas.A!.id)).toBe(403);
    expect(await listCards(t, other, areas.A!.id)).toEqual(['one']);
  });

  it('refuses the key of a banned account at once; a refused ban changed nothing', async () => {
    const boss = await makeAdmin(t);
    const user = await t.signUp();
    const { areas } = await seedBoard(t, user, { A: ['one'] });
    expect(await listCards(t, user, areas.A!.id)).toEqual(['one']);
    const notAllowed = await auth(t, user.cookie, 'admin/ban-user', { userId: boss.id });
    expect(notAllowed.statusCode).toBe(403);
    expect(await listCards(t, user, areas.A!.id)).toEqual(['one']);
    expect((await auth(t, boss.cookie, 'admin/ban-user', { userId: user.id })).statusCode).toBe(200);
    expect(await listCards(t, user, areas.A!.id)).toBe(403);
  });

  it('names a renamed account by its new name in the events its key causes', async () => {
    const user = await t.signUp('Old name');
    const { board, areas } = await seedBoard(t, user, { A: [] });
    expect(await listCards(t, user, areas.A!.id)).toEqual([]);
    const viewer = await Viewer.connect(await t.listen(), { cookie: user.cookie });
    try {
      viewer.send({ type: 'subscribe', boardId: board.id });
      await viewer.next('subscribed');
      expect((await auth(t, user.cookie, 'update-user', { name: 'New name' })).statusCode).toBe(200);
      await createCard(t, user, areas.A!.id, 'by key');
      const created = await viewer.next('event', (e) => e.name === 'card.created');
      expect(created.actor).toEqual({ id: user.id, name: 'New name' });
    } finally {
      viewer.close();
    }
  });
});

/** Two apps on one PostgreSQL database: what one process changes, the other's caches drop on NOTIFY. */
describe.runIf(dialects.includes('postgres'))('read caches across processes [postgres]', () => {
  let a: TestContext;
  let b: TestContext;
  let drop = (): Promise<void> => Promise.resolve();

  beforeAll(async () => {
    const database = await createTestDatabase('postgres');
    drop = database.drop;
    a = await startApp('postgres', database.url, database.dataDir);
    b = await startApp('postgres', database.url, database.dataDir);
    await cachesLive(a);
    await cachesLive(b);
  }, 60_000);

  afterAll(async () => {
    for (const t of [a, b]) {
      await t?.app.close();
      await t?.database.close();
    }
    await drop();
  });

  it('refuses on B a key deleted on A, as soon as the notification arrives', async () => {
    const user = await a.signUp();
    const { areas } = await seedBoard(a, user, { A: ['one'] });
    expect(await listCards(b, user, areas.A!.id)).toEqual(['one']);
    expect(readCachesOf(b.db)!.actors.get(hashKey(user.key))).toBeDefined();
    expect((await auth(a, user.cookie, 'api-key/delete', { keyId: await keyId(a, user.key) })).statusCode).toBe(200);
    await eventually(() => listCards(b, user, areas.A!.id), 403);
  });

  it('refuses on B the key of an account banned on A', async () => {
    const boss = await makeAdmin(a);
    const user = await a.signUp();
    const { areas } = await seedBoard(a, user, { A: ['one'] });
    expect(await listCards(b, user, areas.A!.id)).toEqual(['one']);
    expect((await auth(a, boss.cookie, 'admin/ban-user', { userId: user.id })).statusCode).toBe(200);
    await eventually(() => listCards(b, user, areas.A!.id), 403);
  });

  it('shows on B a write, a removed member and a rename made on A', async () => {
    const owner = await a.signUp('Owner before');
    const member = await a.signUp();
    const { board, areas } = await seedBoard(a, owner, { A: ['one'] });
    await share(a, board.id, member, 'read');
    expect(await listCards(b, member, areas.A!.id)).toEqual(['one']);
    expect(await listCards(b, owner, areas.A!.id)).toEqual(['one']);

    await createCard(a, owner, areas.A!.id, 'two');
    await eventually(() => listCards(b, member, areas.A!.id), ['one', 'two']);

    expect((await auth(a, owner.cookie, 'update-user', { name: 'Owner after' })).statusCode).toBe(200);
    await eventually(() => readCachesOf(b.db)!.actors.get(hashKey(owner.key)) === undefined, true);
    // B's next write by the owner's key names the owner by the new name.
    const viewer = await Viewer.connect(await b.listen(), { cookie: owner.cookie });
    try {
      viewer.send({ type: 'subscribe', boardId: board.id });
      await viewer.next('subscribed');
      await createCard(b, owner, areas.A!.id, 'three');
      expect((await viewer.next('event', (e) => e.name === 'card.created')).actor).toEqual({ id: owner.id, name: 'Owner after' });
    } finally {
      viewer.close();
    }

    await a.inject(owner, { method: 'DELETE', url: `/api/data/invite?boardId=${board.id}&userId=${member.id}` });
    await eventually(() => listCards(b, member, areas.A!.id), 404);
  });

  it('empties the caches and stops serving from them while the listener reconnects', async () => {
    const user = await a.signUp();
    const { areas } = await seedBoard(a, user, { A: ['one'] });
    expect(await listCards(b, user, areas.A!.id)).toEqual(['one']);
    expect(readCachesOf(b.db)!.actors.size).toBeGreaterThan(0);
    await sql`select pg_terminate_backend(pid) from pg_stat_activity where application_name = ${LISTEN_CONNECTION_NAME} and datname = current_database()`.execute(
      a.db,
    );
    await eventually(() => readCachesOf(b.db)!.actors.live, false);
    expect(readCachesOf(b.db)!.actors.size).toBe(0);
    expect(readCachesOf(b.db)!.boards.size).toBe(0);
    // Meanwhile reads go to the database and are right.
    await createCard(a, user, areas.A!.id, 'while down');
    expect(await listCards(b, user, areas.A!.id)).toEqual(['one', 'while down']);
    await cachesLive(b);
    expect(await listCards(b, user, areas.A!.id)).toEqual(['one', 'while down']);
  });
});
