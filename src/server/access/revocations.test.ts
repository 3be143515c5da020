import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedBoard } from '../../../test/factories.js';
import { BASE_URL, eachDialect, type TestContext } from '../../../test/harness.js';
import { hashKey } from '../auth/actor.js';
import { REVOCATIONS } from '../db/channels.js';
import { readCachesOf } from './read-caches.js';

const auth = (t: Pick<TestContext, 'app'>, cookie: string, url: string, payload: object = {}) =>
  t.app.inject({ method: 'POST', url: `/api/auth/${url}`, headers: { cookie, origin: BASE_URL }, payload });

const keyId = async (t: Pick<TestContext, 'db'>, key: string) =>
  (await t.db.selectFrom('apikey').select('id').where('keyHash', '=', hashKey(key)).executeTakeFirstOrThrow()).id;

async function until(condition: () => boolean | Promise<boolean>, withinMs = 3000): Promise<void> {
  const deadline = Date.now() + withinMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not reached');
    await new Promise((r) => setTimeout(r, 20));
  }
}

eachDialect('revocations evict only what they name', (t) => {
  beforeAll(() => until(() => readCachesOf(t.db)?.actors.live === true));

  const read = async (key: string, areaId: number) =>
    (await t.inject({ key }, { method: 'GET', url: `/api/data/cards?areaId=${areaId}` })).statusCode;

  it('a deleted key loses its cached actor; the account’s other key and a signed-out session leave the rest cached', async () => {
    const user = await t.signUp();
    const other = await t.createKey(user);
    const { areas } = await seedBoard(t, user, { A: ['one'] });
    for (const key of [user.key, other]) expect(await read(key, areas.A!.id)).toBe(200);
    const cached = (key: string) => readCachesOf(t.db)!.actors.get(hashKey(key)) !== undefined;
    expect([cached(user.key), cached(other)]).toEqual([true, true]);

    expect((await auth(t, user.cookie, 'api-key/delete', { keyId: await keyId(t, user.key) })).statusCode).toBe(200);
    expect([cached(user.key), cached(other)]).toEqual([false, true]);
    expect(await read(user.key, areas.A!.id)).toBe(403);

    // Another session of the account signs out: no key actor is about that session.
    const second = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      headers: { origin: BASE_URL },
      payload: { email: user.email, password: user.password },
    });
    const cookie = second.headers['set-cookie']!.toString().split(';')[0]!;
    expect((await auth(t, cookie, 'sign-out')).statusCode).toBe(200);
    expect(cached(other)).toBe(true);
    expect(await read(other, areas.A!.id)).toBe(200);
  });
});

/** PostgreSQL: what another process hears of a deleted key, on the revocation channel. */
describe.skipIf(!process.env.TEST_DATABASE_URL)('a deleted key is announced in its transaction [postgres]', () => {
  const t = {} as TestContext;
  let listener: pg.Client;
  const heard: string[] = [];
  let drop = (): Promise<void> => Promise.resolve();

  beforeAll(async () => {
    const { createTestDatabase } = await import('../../../test/databases.js');
    const { startApp } = await import('../../../test/harness.js');
    const database = await createTestDatabase('postgres');
    drop = database.drop;
    Object.assign(t, await startApp('postgres', database.url, database.dataDir));
    listener = new pg.Client({ connectionString: database.url });
    await listener.connect();
    listener.on('notification', (n) => void heard.push(n.payload ?? ''));
    await listener.query(`LISTEN ${REVOCATIONS.name}`);
  }, 60_000);

  afterAll(async () => {
    await listener?.end();
    await t.app?.close();
    await t.database?.close();
    await drop();
  });

  /** What the listener heard up to a marker sent now: notifications arrive in commit order. */
  const heardUntilMarker = async (): Promise<string[]> => {
    const marker = JSON.stringify({ userId: `marker-${heard.length}` });
    await sql`select pg_notify(${REVOCATIONS.name}, ${marker})`.execute(t.db);
    await until(() => heard.includes(marker));
    return heard.splice(0).slice(0, -1);
  };

  it('rolled back, nobody hears of it and the key still works; committed, it is heard before the answer comes', async () => {
    const user = await t.signUp();
    const id = await keyId(t, user.key);
    const { areas } = await seedBoard(t, user, { A: [] });
    await heardUntilMarker();

    // A deferred check that fails the deleting transaction at its COMMIT: everything in it is undone.
    await sql`create function refuse_key_delete() returns trigger language plpgsql as $$ begin raise exception 'refused'; end $$`.execute(
      t.db,
    );
    await sql`create constraint trigger refuse_key_delete after delete on apikey deferrable initially deferred
              for each row execute function refuse_key_delete()`.execute(t.db);
    const refused = await auth(t, user.cookie, 'api-key/delete', { keyId: id });
    expect(refused.statusCode).toBe(500);
    expect(refused.body).not.toContain('refused');
    expect(await heardUntilMarker()).toEqual([]);
    const status = (await t.inject(user, { method: 'GET', url: `/api/data/cards?areaId=${areas.A!.id}` })).statusCode;
    expect(status).toBe(200);

    await sql`drop trigger refuse_key_delete on apikey`.execute(t.db);
    await sql`drop function refuse_key_delete()`.execute(t.db);
    expect((await auth(t, user.cookie, 'api-key/delete', { keyId: id })).statusCode).toBe(200);
    // Sent in the transaction, it was delivered at the commit: before the marker sent after the answer.
    expect((await heardUntilMarker()).map((p) => JSON.parse(p) as unknown)).toEqual([{ userId: user.id, keyId: id }]);
  });
});
