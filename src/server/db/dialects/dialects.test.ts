import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, dialects, type TestDatabase } from '../../../../test/databases.js';
import { openDatabase, type Database, type Db } from '../database.js';
import { nowIso } from '../dialect.js';
import { migrate } from '../migrations/index.js';
import { dialectFor, dialectOf, type Listener } from './index.js';
import { LISTEN_CONNECTION_NAME } from './pg-listen.js';

/** Waits for `check` to hold, up to `ms`. */
async function until(check: () => boolean | Promise<boolean>, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

async function seed(db: Db): Promise<{ boardIds: number[]; cards: Record<string, number> }> {
  const at = nowIso();
  await db
    .insertInto('user')
    .values({
      id: 'u1',
      name: 'Ann',
      email: 'ann@example.com',
      emailVerified: 0,
      image: null,
      createdAt: at,
      updatedAt: at,
      role: null,
      banned: null,
      banReason: null,
      banExpires: null,
      language: null,
    })
    .execute();
  const boardIds: number[] = [];
  for (const name of ['One', 'Two', 'Three']) {
    const board = await db
      .insertInto('boards')
      .values({
        ownerId: 'u1',
        name,
        style: 'kanban',
        status: 'private',
        image: null,
        color: null,
        archivedAt: null,
        createdAt: at,
        updatedAt: at,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    boardIds.push(board.id);
  }
  const area = await db
    .insertInto('areas')
    .values({ boardId: boardIds[0]!, name: 'To do', sort: 0, archivedAt: null, createdAt: at, updatedAt: at })
    .returning('id')
    .executeTakeFirstOrThrow();
  const cards: Record<string, number> = {};
  const rows = [
    { key: 'inContent', name: 'Groceries', content: 'buy apples and pears' },
    { key: 'inName', name: 'Apples harvest', content: 'in autumn' },
    { key: 'none', name: 'Taxes', content: 'file them' },
  ];
  for (const [sort, row] of rows.entries()) {
    const card = await db
      .insertInto('cards')
      .values({
        areaId: area.id,
        boardId: boardIds[0]!,
        name: row.name,
        content: row.content,
        sort,
        dueDate: null,
        repeatEvery: null,
        repeatAnchor: null,
        repeatAreaId: null,
        archivedAt: null,
        createdAt: at,
        updatedAt: at,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    cards[row.key] = card.id;
  }
  return { boardIds, cards };
}

for (const name of dialects) {
  describe(`the ${name} dialect`, () => {
    let testDb: TestDatabase;
    let database: Database;
    let seeded: Awaited<ReturnType<typeof seed>>;

    beforeAll(async () => {
      testDb = await createTestDatabase(name);
      database = openDatabase(testDb.url);
      await migrate(database.db, database.dialect);
      seeded = await seed(database.db);
    });
    afterAll(async () => {
      await database.close();
      await testDb.drop();
    });

    it('is the one the address names, and the one a handle and its transactions speak', async () => {
      expect(database.dialect).toBe(dialectFor(testDb.url));
      expect(database.dialect.name).toBe(name);
      expect(dialectOf(database.db)).toBe(database.dialect);
      const inside = await database.db.transaction().execute((trx) => Promise.resolve(dialectOf(trx)));
      expect(inside).toBe(database.dialect);
    });

    it('stores its true in a boolean column and reads it back as true', async () => {
      await database.db.updateTable('user').set({ emailVerified: database.dialect.true }).where('id', '=', 'u1').execute();
      const row = await database.db
        .selectFrom('user')
        .select('id')
        .where(sql<boolean>`${sql.ref('emailVerified')} = ${database.dialect.true}`)
        .execute();
      expect(row).toEqual([{ id: 'u1' }]);
    });

    it('finds cards by word prefix, a name hit first, and nothing else', async () => {
      const db = database.db;
      const hits = await db
        .selectFrom(database.dialect.cardHits(db, ['appl']).as('hits'))
        .select(['hits.id'])
        .orderBy('hits.rank')
        .orderBy('hits.id')
        .execute();
      expect(hits.map((h) => h.id)).toEqual([seeded.cards.inName, seeded.cards.inContent]);
      const both = await db
        .selectFrom(database.dialect.cardHits(db, ['apples', 'autumn']).as('hits'))
        .select('hits.id')
        .execute();
      expect(both.map((h) => h.id)).toEqual([seeded.cards.inName]);
      const none = await db
        .selectFrom(database.dialect.cardHits(db, ['zebra']).as('hits'))
        .select('hits.id')
        .execute();
      expect(none).toEqual([]);
    });

    it('builds JSON objects and ordered arrays in SQL, an empty array for no rows', async () => {
      const { json } = database.dialect;
      const from = '(SELECT 2 AS x UNION ALL SELECT 1 AS x) AS t';
      const empty = '(SELECT 1 AS x) AS t WHERE t.x > 1';
      const text = json.text(
        json.object({ list: json.array('t.x', 't.x', from), none: json.array('t.x', 't.x', empty), name: "'a'" }),
      );
      const { rows } = await sql<{ value: string }>`SELECT ${sql.raw(text)} AS value`.execute(database.db);
      expect(JSON.parse(rows[0]!.value)).toEqual({ list: [1, 2], none: [], name: 'a' });
    });

    it('queues writes per board where the database commits several at once, all together on one connection', () => {
      const { dialect } = database;
      if (name === 'postgres') expect([dialect.writeQueue(1), dialect.writeQueue(2)]).toEqual([1, 2]);
      else expect(dialect.writeQueue(1)).toBe(dialect.writeQueue(2));
    });

    it('reads one moment in a snapshot while others write', async () => {
      const count = async (db: Db) =>
        Number(
          (
            await db
              .selectFrom('boards')
              .select((eb) => eb.fn.countAll().as('n'))
              .executeTakeFirstOrThrow()
          ).n,
        );
      const before = await count(database.db);
      const seen = await database.snapshot(async (snap) => {
        const first = await count(snap);
        const at = nowIso();
        await database.db
          .insertInto('boards')
          .values({
            ownerId: 'u1',
            name: 'Later',
            style: 'kanban',
            status: 'private',
            image: null,
            color: null,
            archivedAt: null,
            createdAt: at,
            updatedAt: at,
          })
          .execute();
        return [first, await count(snap)];
      });
      expect(seen).toEqual([before, before]);
      expect(await count(database.db)).toBe(before + 1);
    });

    it.runIf(name === 'postgres')('locks rows for update, and skip locked passes over them', async () => {
      const { db, dialect } = database;
      const [locked, ...others] = seeded.boardIds;
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let lockTaken!: () => void;
      const taken = new Promise<void>((resolve) => (lockTaken = resolve));
      const holder = db.transaction().execute(async (trx) => {
        await trx
          .selectFrom('boards')
          .select('id')
          .where('id', '=', locked!)
          .$call((q) => dialect.lockForUpdate(q))
          .execute();
        lockTaken();
        await held;
      });
      await taken;
      const free = await db.transaction().execute((trx) =>
        trx
          .selectFrom('boards')
          .select('id')
          .where('id', 'in', seeded.boardIds)
          .orderBy('id')
          .$call((q) => dialect.skipLocked(q))
          .execute(),
      );
      expect(free.map((r) => r.id)).toEqual(others);
      // A plain lock waits for the holder: it gets the row only once the holder is done.
      let waited = false;
      const waiter = db.transaction().execute(async (trx) => {
        await trx
          .selectFrom('boards')
          .select('id')
          .where('id', '=', locked!)
          .$call((q) => dialect.lockForUpdate(q))
          .execute();
        waited = true;
      });
      const waiting = sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_stat_activity
        WHERE wait_event_type = 'Lock' AND datname = current_database()`;
      await until(async () => (await waiting.execute(db)).rows[0]!.n >= 1);
      expect(waited).toBe(false);
      release();
      await Promise.all([holder, waiter]);
      expect(waited).toBe(true);
    });

    it.runIf(name === 'sqlite')('adds no row locks (one writer at a time) and claims rows as they are', async () => {
      const { db, dialect } = database;
      const query = db.selectFrom('boards').select('id').where('id', 'in', seeded.boardIds).orderBy('id');
      expect(dialect.lockForUpdate(query).compile().sql).toBe(query.compile().sql);
      expect((await dialect.skipLocked(query).execute()).map((r) => r.id)).toEqual(seeded.boardIds);
    });

    it('announces to listeners only what commits, or says there are none', async () => {
      const { db, dialect } = database;
      const heard: Array<[string, unknown]> = [];
      let connected = false;
      const listener = dialect.listen(testDb.url, ['tavla_test_a', 'tavla_test_b'], {
        message: (channel, payload) => heard.push([channel, JSON.parse(payload)]),
        connected: () => {
          connected = true;
          return Promise.resolve();
        },
        warn: () => undefined,
      });
      if (name === 'sqlite') {
        expect(listener).toBeNull();
        expect(await dialect.notify(db, 'tavla_test_a', { n: 1 })).toBe(false);
        return;
      }
      try {
        await until(() => connected);
        await db
          .transaction()
          .execute(async (trx) => {
            expect(await dialect.notify(trx, 'tavla_test_a', { n: 'rolled back' })).toBe(true);
            throw new Error('roll back');
          })
          .catch(() => undefined);
        await db.transaction().execute((trx) => dialect.notify(trx, 'tavla_test_a', { n: 1 }));
        await dialect.notify(db, 'tavla_test_b', { n: 2 });
        await dialect.notify(db, 'tavla_test_other', { n: 3 });
        // What the listener sends itself arrives in order, after what was already announced.
        await listener!.send('tavla_test_b', JSON.stringify({ n: 4 }));
        await listener!.send('tavla_test_a', JSON.stringify({ n: 5 }));
        await until(() => heard.length >= 4);
        expect(heard).toEqual([
          ['tavla_test_a', { n: 1 }],
          ['tavla_test_b', { n: 2 }],
          ['tavla_test_b', { n: 4 }],
          ['tavla_test_a', { n: 5 }],
        ]);
      } finally {
        await listener?.stop();
      }
    });

    it.runIf(name === 'postgres')(
      'shares one listening connection among its callers, each hearing its own channels',
      async () => {
        const { db, dialect } = database;
        const listeners = sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_stat_activity
        WHERE application_name = ${LISTEN_CONNECTION_NAME} AND datname = current_database()`;
        const connections = async () => (await listeners.execute(db)).rows[0]!.n;
        /** `failing`: how many times its `connected` rejects before it succeeds. */
        const caller = (channels: string[], failing = 0) => {
          const seen = { heard: [] as Array<[string, unknown]>, states: [] as string[], warnings: [] as string[] };
          const listener = dialect.listen(testDb.url, channels, {
            message: (channel, payload) => seen.heard.push([channel, JSON.parse(payload)]),
            connected: () => {
              if (failing-- > 0) {
                seen.states.push('failed');
                throw new Error('could not catch up');
              }
              seen.states.push('connected');
            },
            lost: () => seen.states.push('lost'),
            warn: (_error, message) => seen.warnings.push(message),
          })!;
          return { ...seen, listener };
        };
        const one = caller(['tavla_test_one', 'tavla_test_both']);
        const two = caller(['tavla_test_two', 'tavla_test_both']);
        const callers = [one, two];
        const stopped: Listener[] = [];
        try {
          await until(() => one.states.length === 1 && two.states.length === 1);
          expect(await connections()).toBe(1);

          for (const channel of ['tavla_test_one', 'tavla_test_two', 'tavla_test_both'])
            await dialect.notify(db, channel, { on: channel });
          await until(() => one.heard.length >= 2 && two.heard.length >= 2);
          expect(one.heard).toEqual([
            ['tavla_test_one', { on: 'tavla_test_one' }],
            ['tavla_test_both', { on: 'tavla_test_both' }],
          ]);
          expect(two.heard).toEqual([
            ['tavla_test_two', { on: 'tavla_test_two' }],
            ['tavla_test_both', { on: 'tavla_test_both' }],
          ]);

          // Killed under both: each is told it was lost, then connected again (to catch up), on one new connection.
          await sql`SELECT pg_terminate_backend(pid) FROM pg_stat_activity
          WHERE application_name = ${LISTEN_CONNECTION_NAME} AND datname = current_database()`.execute(db);
          await until(() => one.states.length === 3 && two.states.length === 3);
          expect(one.states).toEqual(['connected', 'lost', 'connected']);
          expect(two.states).toEqual(['connected', 'lost', 'connected']);
          expect(await connections()).toBe(1);
          // The shared connection's trouble is logged once, not once per caller.
          expect([...one.warnings, ...two.warnings]).toEqual(['listener connection lost; reconnecting']);

          // One that comes while the connection is up is told it is connected only once its LISTEN holds.
          const three = caller(['tavla_test_three'], 1);
          callers.push(three);
          await until(() => three.states.length === 1);
          await dialect.notify(db, 'tavla_test_three', { n: 0 });
          await until(() => three.heard.length === 1);
          // Its failed catch-up is tried again for it alone: the others keep the connection.
          await until(() => three.states.length === 2);
          expect(three.states).toEqual(['failed', 'connected']);
          expect(three.warnings).toEqual(['listener could not catch up; retrying']);
          expect([one.states.length, two.states.length]).toEqual([3, 3]);
          expect(await connections()).toBe(1);
          await three.listener.stop();
          stopped.push(three.listener);

          await one.listener.stop();
          stopped.push(one.listener);
          one.heard.length = 0;
          two.heard.length = 0;
          await dialect.notify(db, 'tavla_test_one', { n: 1 });
          await dialect.notify(db, 'tavla_test_both', { n: 2 });
          await two.listener.send('tavla_test_two', JSON.stringify({ n: 3 }));
          await until(() => two.heard.length >= 2);
          expect(two.heard).toEqual([
            ['tavla_test_both', { n: 2 }],
            ['tavla_test_two', { n: 3 }],
          ]);
          expect(one.heard).toEqual([]);
          expect(await connections()).toBe(1);

          await two.listener.stop();
          stopped.push(two.listener);
          await until(async () => (await connections()) === 0);
        } finally {
          for (const { listener } of callers) if (!stopped.includes(listener)) await listener.stop();
        }
      },
    );

    it('reads a query through a server cursor in batches where there is one', async () => {
      const { db, dialect } = database;
      const query = db.selectFrom('cards').select('id').orderBy('id');
      await db.transaction().execute(async (trx) => {
        const cursor = dialectOf(trx).cursor<{ id: number }>(trx, query, 2);
        if (name === 'sqlite') return expect(cursor).toBeNull();
        expect(cursor).not.toBeNull();
        const first = await cursor!.next();
        const second = await cursor!.next();
        await cursor!.close();
        expect([...first, ...second].map((r) => r.id)).toEqual(Object.values(seeded.cards).sort((a, b) => a - b));
        expect(first).toHaveLength(2);
      });
      expect(dialect).toBe(dialectOf(db));
    });
  });
}
