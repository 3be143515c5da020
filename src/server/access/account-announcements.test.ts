import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, dialects, type TestDatabase } from '../../../test/databases.js';
import { account, healthy, start, stop, type ServerProcess } from '../../../test/processes.js';
import { Viewer } from '../../../test/realtime-client.js';
import { CLOSE_CREDENTIAL_ENDED } from '../../shared/events.js';
import { ACCOUNT_CHANGES, REVOCATIONS } from '../db/channels.js';

async function until(condition: () => boolean | Promise<boolean>, withinMs: number, what: string): Promise<void> {
  const deadline = Date.now() + withinMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`not within ${withinMs} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/**
 * PostgreSQL, two real processes: a ban, a removal, a demotion or an ended
 * session is announced by the database in the transaction that makes it, so
 * the other process hears it at the commit, whoever commits. Changes are made
 * here with plain SQL too: a writer that commits and then dies (or a `psql`
 * prompt) announces nothing of its own, and the other process must still act
 * long before its caches' 30 s backstop.
 */
describe.runIf(dialects.includes('postgres'))('account changes are announced in their transaction [postgres]', () => {
  let database: TestDatabase;
  const servers: ServerProcess[] = [];
  let client: pg.Client;
  let listener: pg.Client;
  const heard: Array<{ channel: string; payload: unknown }> = [];
  const open: Viewer[] = [];

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    for (let i = 0; i < 2; i++) servers.push(await start(database.url));
    await Promise.all(servers.map((s) => healthy(s.url, 100_000)));
    client = new pg.Client({ connectionString: database.url });
    await client.connect();
    listener = new pg.Client({ connectionString: database.url });
    await listener.connect();
    listener.on('notification', (n) => void heard.push({ channel: n.channel, payload: JSON.parse(n.payload ?? 'null') }));
    await listener.query(`LISTEN ${REVOCATIONS.name}`);
    await listener.query(`LISTEN ${ACCOUNT_CHANGES.name}`);
  }, 120_000);

  afterAll(async () => {
    for (const v of open) v.close();
    await listener?.end();
    await client?.end();
    for (const s of servers) await stop(s);
    await database?.drop();
  });

  const a = () => servers[0]!;
  const b = () => servers[1]!;

  /** What the listener heard up to a marker sent now (notifications arrive in commit order). */
  const heardUntilMarker = async () => {
    const marker = { userId: `marker-${Date.now()}-${heard.length}` };
    await client.query('select pg_notify($1, $2)', [REVOCATIONS.name, JSON.stringify(marker)]);
    await until(() => heard.some((h) => JSON.stringify(h.payload) === JSON.stringify(marker)), 3000, 'the marker');
    return heard.splice(0).slice(0, -1);
  };

  let admin: Awaited<ReturnType<typeof account>>;
  beforeAll(async () => {
    // The first account of the instance administers it.
    admin = await account(a().url, 'boss@example.test');
  });

  const adminCall = (path: string, body: object) =>
    fetch(`${a().url}/api/auth/admin/${path}`, {
      method: 'POST',
      headers: { cookie: admin.cookie, origin: a().url, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const boards = async (url: string, key: string) =>
    (await fetch(`${url}/api/data/boards`, { method: 'POST', headers: { 'x-api-key': key } })).status;
  const exportStatus = async (url: string, key: string) => {
    const res = await fetch(`${url}/api/data/export`, { headers: { 'x-api-key': key } });
    await res.arrayBuffer();
    return res.status;
  };
  /** A victim whose key B has cached, with a socket on B by key and one by cookie. */
  const victimOnB = async (email: string) => {
    const victim = await account(a().url, email);
    expect(await boards(b().url, victim.key)).toBe(200);
    const byKey = await Viewer.connect(b().url, { 'x-api-key': victim.key });
    const byCookie = await Viewer.connect(b().url, { cookie: victim.cookie });
    open.push(byKey, byCookie);
    return { ...victim, byKey, byCookie };
  };

  it('heard at the commit of a plain SQL change, whoever makes it, and never after a rollback', async () => {
    const victim = await account(a().url, 'plain@example.test');
    const sessions = (
      await client.query<{ id: string }>('select id from "session" where "userId" = $1 order by id', [victim.userId])
    ).rows.map((r) => r.id);
    await heardUntilMarker();

    await client.query('begin');
    await client.query('update "user" set banned = true where id = $1', [victim.userId]);
    await client.query('delete from "session" where id = $1', [sessions[0]]);
    await client.query('rollback');
    expect(await heardUntilMarker()).toEqual([]);

    await client.query('update "user" set role = $2 where id = $1', [victim.userId, 'admin']);
    await client.query('update "user" set "updatedAt" = now() where id = $1', [victim.userId]);
    await client.query('update "user" set banned = true where id = $1', [victim.userId]);
    await client.query('delete from "session" where "userId" = $1', [victim.userId]);
    await client.query('delete from "user" where id = $1', [victim.userId]);
    const committed = await heardUntilMarker();
    // The sessions go in the table's order, not by id.
    const ended = committed.slice(2, -1).sort((x, y) => JSON.stringify(x).localeCompare(JSON.stringify(y)));
    expect([...committed.slice(0, 2), ...ended, ...committed.slice(-1)]).toEqual([
      { channel: ACCOUNT_CHANGES.name, payload: { userId: victim.userId } },
      // (The second update changed nothing an actor carries: nothing is said.)
      { channel: REVOCATIONS.name, payload: { userId: victim.userId } },
      ...sessions
        .map((sessionId) => ({ channel: REVOCATIONS.name, payload: { userId: victim.userId, sessionId } }))
        .sort((x, y) => JSON.stringify(x).localeCompare(JSON.stringify(y))),
      { channel: REVOCATIONS.name, payload: { userId: victim.userId } },
    ]);
  });

  it('a ban committed with no process to announce it closes the sockets on B and refuses the next request there', async () => {
    const victim = await victimOnB('banned-by-sql@example.test');
    const started = Date.now();
    await client.query('update "user" set banned = true where id = $1', [victim.userId]);
    for (const v of [victim.byKey, victim.byCookie]) expect((await v.waitClosed(3000)).code).toBe(CLOSE_CREDENTIAL_ENDED);
    await until(async () => (await boards(b().url, victim.key)) === 403, 1000, 'the key refused on B');
    // Well before the caches' 30 s lifetime: the database told B at the commit.
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('a demotion committed with no process to announce it takes the role away on B at once', async () => {
    const victim = await account(a().url, 'demoted-by-sql@example.test');
    await client.query('update "user" set role = $2 where id = $1', [victim.userId, 'admin']);
    await until(async () => (await exportStatus(b().url, victim.key)) === 200, 3000, 'the promoted key exporting on B');
    // B has the key's actor cached, role and all.
    expect(await exportStatus(b().url, victim.key)).toBe(200);
    await client.query('update "user" set role = $2 where id = $1', [victim.userId, 'user']);
    await until(async () => (await exportStatus(b().url, victim.key)) === 403, 3000, 'the demoted key refused on B');
  });

  it('a ban, a removal, a demotion and revoked sessions made on A reach B: sockets close, the next request is refused', async () => {
    const banned = await victimOnB('banned@example.test');
    expect((await adminCall('ban-user', { userId: banned.userId })).status).toBe(200);
    for (const v of [banned.byKey, banned.byCookie]) expect((await v.waitClosed(3000)).code).toBe(CLOSE_CREDENTIAL_ENDED);
    await until(async () => (await boards(b().url, banned.key)) === 403, 1000, 'the banned key refused on B');
    expect((await adminCall('unban-user', { userId: banned.userId })).status).toBe(200);
    await until(async () => (await boards(b().url, banned.key)) === 200, 1000, 'the unbanned key served on B');

    const removed = await victimOnB('removed@example.test');
    expect((await adminCall('remove-user', { userId: removed.userId })).status).toBe(200);
    for (const v of [removed.byKey, removed.byCookie]) expect((await v.waitClosed(3000)).code).toBe(CLOSE_CREDENTIAL_ENDED);
    expect(await boards(b().url, removed.key)).toBe(403);

    const signedOut = await victimOnB('sessions-revoked@example.test');
    expect((await adminCall('revoke-user-sessions', { userId: signedOut.userId })).status).toBe(200);
    expect(await signedOut.byCookie.waitClosed(3000)).toEqual({ code: CLOSE_CREDENTIAL_ENDED, reason: 'Session ended' });
    // A key is not a session: it goes on.
    expect(signedOut.byKey.closed).toBeNull();
    expect(await boards(b().url, signedOut.key)).toBe(200);

    const demoted = await account(a().url, 'demoted@example.test');
    expect((await adminCall('set-role', { userId: demoted.userId, role: 'admin' })).status).toBe(200);
    await until(async () => (await exportStatus(b().url, demoted.key)) === 200, 3000, 'the promoted key exporting on B');
    expect((await adminCall('set-role', { userId: demoted.userId, role: 'user' })).status).toBe(200);
    await until(async () => (await exportStatus(b().url, demoted.key)) === 403, 1000, 'the demoted key refused on B');
  });
});
