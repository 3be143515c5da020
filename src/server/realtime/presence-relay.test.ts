import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, dialects, type TestDatabase } from '../../../test/databases.js';
import { startApp, type TestUser } from '../../../test/harness.js';
import { Viewer } from '../../../test/realtime-client.js';
import type { PresenceRelay } from './presence-relay.js';

type App = Awaited<ReturnType<typeof startApp>>;

/**
 * Two app instances on one PostgreSQL database stand for two processes: a
 * viewer on each sees the other in presence, and loses them when they leave
 * or their process dies. (On SQLite there is one process and nothing to relay.)
 */
describe.runIf(dialects.includes('postgres'))('presence across processes [postgres]', () => {
  let database: TestDatabase;
  let a: App;
  let b: App;
  const open: Viewer[] = [];

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    // heartbeatMs 1000: presence is announced every second and a silent process is dropped after 3.
    a = await startApp('postgres', database.url, database.dataDir, { heartbeatMs: 1000 });
    b = await startApp('postgres', database.url, database.dataDir, { heartbeatMs: 1000 });
  }, 60_000);

  afterAll(async () => {
    for (const t of [a, b]) {
      await t?.app.close();
      await t?.database.close();
    }
    await database?.drop();
  });

  afterEach(() => {
    for (const v of open.splice(0)) v.close();
  });

  const watch = async (t: App, user: TestUser, boardId: number) => {
    const viewer = await Viewer.connect(await t.listen(), { 'x-api-key': user.key });
    open.push(viewer);
    viewer.send({ type: 'subscribe', boardId });
    await viewer.next('subscribed', (m) => m.boardId === boardId);
    return viewer;
  };

  /** A board of Ada's (signed up on A) shared with Bo (signed up on B). */
  const sharedBoard = async () => {
    const ada = await a.signUp('Ada');
    const bo = await b.signUp('Bo');
    const board = await a.createBoard(ada);
    const invited = await a.inject(ada, {
      method: 'POST',
      url: '/api/data/invite',
      payload: { boardId: board.id, userId: bo.id, permission: 'edit' },
    });
    expect(invited.statusCode).toBe(200);
    return { ada, bo, boardId: board.id };
  };

  const names = (m: { viewers: Array<{ name: string }> }) => m.viewers.map((v) => v.name).sort();

  it('shows a viewer on each process the other, the card they open, and drops one who leaves', async () => {
    const { ada, bo, boardId } = await sharedBoard();
    const onA = await watch(a, ada, boardId);
    const onB = await watch(b, bo, boardId);

    const seenOnA = await onA.nextPresence((m) => m.viewers.length === 2, 5000);
    expect(names(seenOnA)).toEqual(['Ada', 'Bo']);
    const seenOnB = await onB.nextPresence((m) => m.viewers.length === 2, 5000);
    expect(names(seenOnB)).toEqual(['Ada', 'Bo']);

    const card = (
      await a
        .inject(ada, { method: 'POST', url: '/api/data/area', payload: { boardId, name: 'Todo' } })
        .then((r) =>
          a.inject(ada, { method: 'POST', url: '/api/data/card', payload: { areaId: r.json().area.id, name: 'Open me' } }),
        )
    ).json().card as { id: number };
    onB.send({ type: 'presence', boardId, cardId: card.id });
    await onA.nextPresence((m) => m.viewers.some((v) => v.id === bo.id && v.cardId === card.id), 5000);

    onB.close();
    const alone = await onA.nextPresence((m) => m.viewers.length === 1, 5000);
    expect(alone.viewers.map((v) => v.id)).toEqual([ada.id]);
  });

  it('counts an account viewing on both processes once', async () => {
    const { ada, bo, boardId } = await sharedBoard();
    const first = await watch(a, ada, boardId);
    await watch(b, ada, boardId);
    await watch(b, bo, boardId);
    const both = await first.nextPresence((m) => m.viewers.length === 2, 5000);
    expect(names(both)).toEqual(['Ada', 'Bo']);
    // Ada's second tab changes nothing: the latest presence still lists the same two.
    first.presences.length = 0;
    await watch(b, ada, boardId);
    await first.quiet('presence', 1000);
    expect(first.presences.map(names)).not.toContainEqual(['Ada']);
    expect(names(first.presences.at(-1) ?? both)).toEqual(['Ada', 'Bo']);
  });

  it('drops the viewers of a process that dies without a goodbye, within the TTL', async () => {
    const { ada, bo, boardId } = await sharedBoard();
    const onA = await watch(a, ada, boardId);
    await watch(b, bo, boardId);
    await onA.nextPresence((m) => m.viewers.length === 2, 5000);

    onA.presences.length = 0;
    // B goes silent as a SIGKILLed process would: its socket stays open, but it says nothing more.
    await (b.app.hub.remotePresence as PresenceRelay).halt();
    const started = Date.now();
    const alone = await onA.nextPresence((m) => m.viewers.length === 1, 8000);
    expect(alone.viewers.map((v) => v.id)).toEqual([ada.id]);
    // Dropped after the TTL (3 s), not at once: until then B counted as alive.
    expect(Date.now() - started).toBeGreaterThan(1000);
  });
});
