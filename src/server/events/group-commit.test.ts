import { sql } from 'kysely';
import { afterEach, expect, it } from 'vitest';
import { assertStoredOrder, cardNames, seedBoard, share } from '../../../test/factories.js';
import { eachDialect, type TestUser } from '../../../test/harness.js';
import { Viewer } from '../../../test/realtime-client.js';
import type { Actor } from '../auth/actor.js';
import { loadCard } from '../features/cards/cards.service.js';
import { ahead } from '../db/ahead.js';
import { conflict } from '../http/errors.js';
import type { BoardEvent } from '../../shared/events.js';
import { writeBoard } from './board-write.js';
import { observeBatches, observePipes, type PipeCounts } from './group-commit.js';

eachDialect('group commit', (t) => {
  const open: Viewer[] = [];
  const stops: Array<() => void> = [];
  afterEach(() => {
    for (const v of open.splice(0)) v.close();
    for (const stop of stops.splice(0)) stop();
  });
  const watch = async (user: TestUser, boardId: number) => {
    const viewer = await Viewer.connect(await t.listen(), { cookie: user.cookie });
    open.push(viewer);
    viewer.send({ type: 'subscribe', boardId });
    return { viewer, version: (await viewer.next('subscribed', (m) => m.boardId === boardId)).version };
  };
  const actorOf = (user: TestUser): Actor => ({
    id: user.id,
    name: user.name,
    image: null,
    role: 'user',
    via: 'key',
    readOnly: false,
  });
  const batchSizes = () => {
    const sizes: number[] = [];
    stops.push(observeBatches((n) => sizes.push(n)));
    return sizes;
  };
  const storedVersion = async (boardId: number) =>
    Number((await t.db.selectFrom('boards').select('version').where('id', '=', boardId).executeTakeFirstOrThrow()).version);
  const storedEventVersions = async (boardId: number, after: number) =>
    (
      await t.db
        .selectFrom('board_events')
        .select('version')
        .where('boardId', '=', boardId)
        .where('version', '>', after)
        .orderBy('version')
        .execute()
    ).map((r) => Number(r.version));
  /** A write that renames a card, as an edit through the write path would. */
  const rename = (user: TestUser, boardId: number, cardId: number, name: string, then?: () => void) =>
    writeBoard(t.app.deps, actorOf(user), { boardId, subject: 'Card' }, 'edit', async ({ trx, emit }) => {
      const row = await trx.updateTable('cards').set({ name }).where('id', '=', cardId).returningAll().executeTakeFirstOrThrow();
      emit('card.updated', { card: await loadCard(trx, row) });
      then?.();
      return name;
    });
  const settle = (promises: Array<Promise<unknown>>) =>
    Promise.all(
      promises.map((p) =>
        p.then(
          (value) => ({ value }),
          (error: { status?: number }) => ({ status: error.status }),
        ),
      ),
    );

  it('commits writes arriving together in one batch: a refused or failing write is undone alone, the others keep consecutive versions', async () => {
    const owner = await t.signUp();
    const editor = await t.signUp();
    const reader = await t.signUp();
    const stranger = await t.signUp();
    const { board, areas, cards } = await seedBoard(t, owner, { A: ['c0', 'c1', 'c2', 'c3', 'c4', 'c5', 'c6', 'c7', 'c8'] });
    await share(t, board.id, editor, 'edit');
    await share(t, board.id, reader, 'read');
    const { viewer, version } = await watch(owner, board.id);
    const sizes = batchSizes();

    const id = (n: number) => cards[`c${n}`]!.id;
    // Started in one tick, all of them wait for the same batch.
    const outcomes = await settle([
      rename(owner, board.id, id(0), 'r0'),
      rename(editor, board.id, id(1), 'r1'),
      rename(reader, board.id, id(2), 'refused'),
      rename(owner, board.id, id(3), 'r3'),
      rename(owner, board.id, id(4), 'thrown', () => {
        throw conflict('changed its mind');
      }),
      rename(stranger, board.id, id(5), 'refused'),
      rename(editor, board.id, id(6), 'r6'),
      rename(owner, board.id, id(7), 'r7'),
    ]);

    expect(sizes).toContain(8);
    expect(outcomes).toEqual([
      { value: 'r0' },
      { value: 'r1' },
      { status: 403 },
      { value: 'r3' },
      { status: 409 },
      { status: 404 },
      { value: 'r6' },
      { value: 'r7' },
    ]);
    expect(await cardNames(t, owner, areas.A!.id)).toEqual(['r0', 'r1', 'c2', 'r3', 'c4', 'c5', 'r6', 'r7', 'c8']);
    const expected = [version + 1, version + 2, version + 3, version + 4, version + 5];
    expect(await storedVersion(board.id)).toBe(version + 5);
    expect(await storedEventVersions(board.id, version)).toEqual(expected);

    const events: BoardEvent[] = [];
    for (let i = 0; i < 5; i++) events.push(await viewer.next('event'));
    expect(events.map((e) => e.version)).toEqual(expected);
    expect(events.map((e) => (e.data as { card: { name: string } }).card.name)).toEqual(['r0', 'r1', 'r3', 'r6', 'r7']);
    expect(events.map((e) => e.actor?.id)).toEqual([owner.id, editor.id, owner.id, editor.id, owner.id]);
    // Each exactly once: nothing more arrives (the next write's event comes next, not a repeat).
    await rename(owner, board.id, id(8), 'r8');
    expect((await viewer.next('event')).version).toBe(version + 6);
  });

  it('a write whose statement sent ahead fails is undone alone with its own error; the rest of its batch commits', async () => {
    const owner = await t.signUp();
    const { board, areas, cards } = await seedBoard(t, owner, { A: ['a', 'b', 'c', 'd'] });
    const { viewer, version } = await watch(owner, board.id);
    const sizes = batchSizes();
    /** Renames a card, then writes a history entry of a card that does not exist, sent ahead: nobody waits for its answer (db/ahead.ts). */
    const failing = (cardId: number, then?: () => void) =>
      writeBoard(t.app.deps, actorOf(owner), { boardId: board.id, subject: 'Card' }, 'edit', async ({ trx, emit }) => {
        const row = await trx
          .updateTable('cards')
          .set({ name: 'lost' })
          .where('id', '=', cardId)
          .returningAll()
          .executeTakeFirstOrThrow();
        emit('card.updated', { card: await loadCard(trx, row) });
        const entry = sql`insert into card_activity ("cardId", "type", "createdAt") values (${-row.id}, 'x', ${row.updatedAt})`;
        await sql`${entry}${ahead}`.execute(trx);
        then?.();
        return 'lost';
      });
    const outcomes = await Promise.allSettled([
      rename(owner, board.id, cards.a!.id, 'r0'),
      // On PostgreSQL its error arrives after the write's work has returned.
      failing(cards.b!.id),
      rename(owner, board.id, cards.c!.id, 'r2'),
      // Thrown while the failed statement's answer is still on its way (on PostgreSQL).
      failing(cards.d!.id, () => {
        throw conflict('changed its mind');
      }),
    ]);

    expect(sizes).toContain(4);
    expect(outcomes[0]).toEqual({ status: 'fulfilled', value: 'r0' });
    expect(outcomes[1]).toMatchObject({ status: 'rejected', reason: { message: expect.stringMatching(/foreign key/i) } });
    expect(outcomes[2]).toEqual({ status: 'fulfilled', value: 'r2' });
    // SQLite runs the entry at once, so the entry's error comes first there; on PostgreSQL the write's own.
    const own = t.dialect === 'sqlite' ? { message: expect.stringMatching(/foreign key/i) } : { status: 409 };
    expect(outcomes[3]).toMatchObject({ status: 'rejected', reason: own });
    expect(await cardNames(t, owner, areas.A!.id)).toEqual(['r0', 'b', 'r2', 'd']);
    expect(await storedVersion(board.id)).toBe(version + 2);
    expect(await storedEventVersions(board.id, version)).toEqual([version + 1, version + 2]);
    const names = [await viewer.next('event'), await viewer.next('event')].map(
      (e) => (e.data as { card: { name: string } }).card.name,
    );
    expect(names).toEqual(['r0', 'r2']);
  });

  it('a COMMIT that fails fails every write of its batch, and nothing of it is stored or sent', async () => {
    const owner = await t.signUp();
    const { board, areas, cards } = await seedBoard(t, owner, { A: ['a', 'b', 'c'] });
    // Checked only at COMMIT: a row pointing at no board passes every statement and fails the commit.
    await sql`create table if not exists gc_deferred (ref integer references boards(id) deferrable initially deferred)`.execute(
      t.db,
    );
    const { viewer, version } = await watch(owner, board.id);
    const sizes = batchSizes();

    const outcomes = await settle([
      rename(owner, board.id, cards.a!.id, 'lost a'),
      writeBoard(t.app.deps, actorOf(owner), board.id, 'edit', async ({ trx }) => {
        await sql`insert into gc_deferred (ref) values (${-1})`.execute(trx);
      }),
      rename(owner, board.id, cards.b!.id, 'lost b'),
    ]);

    expect(sizes).toContain(3);
    expect(outcomes.map((o) => 'value' in o)).toEqual([false, false, false]);
    expect(await cardNames(t, owner, areas.A!.id)).toEqual(['a', 'b', 'c']);
    expect(await storedVersion(board.id)).toBe(version);
    expect(await storedEventVersions(board.id, version)).toEqual([]);
    // The board still takes writes, and the viewer's next event is the next version: none of the batch reached it.
    await rename(owner, board.id, cards.c!.id, 'kept c');
    const next = await viewer.next('event');
    expect(next.version).toBe(version + 1);
    expect((next.data as { card: { name: string } }).card.name).toBe('kept c');
  });

  it('concurrent moves through the API: wrong fromAreaId (409) and read-only members (403) change nothing, the rest all land', async () => {
    const owner = await t.signUp();
    const reader = await t.signUp();
    const names = Array.from({ length: 12 }, (_, i) => `m${i}`);
    const { board, areas, cards } = await seedBoard(t, owner, { A: names, B: [] });
    await share(t, board.id, reader, 'read');
    const { viewer, version } = await watch(owner, board.id);
    const A = areas.A!.id;
    const B = areas.B!.id;
    const move = (user: TestUser, name: string, fromAreaId: number) =>
      t.inject(user, {
        method: 'POST',
        url: '/api/data/cardMove',
        payload: { cardId: cards[name]!.id, fromAreaId, toAreaId: B, newIndex: 0 },
      });

    const plan = names.map((name, i) =>
      i % 4 === 1 ? move(owner, name, B) : i % 4 === 3 ? move(reader, name, A) : move(owner, name, A),
    );
    const statuses = (await Promise.all(plan)).map((r) => r.statusCode);

    expect(statuses).toEqual(names.map((_, i) => (i % 4 === 1 ? 409 : i % 4 === 3 ? 403 : 200)));
    const moved = names.filter((_, i) => i % 2 === 0);
    expect(await cardNames(t, owner, A)).toEqual(names.filter((_, i) => i % 2 === 1));
    expect((await cardNames(t, owner, B)).sort()).toEqual([...moved].sort());
    await assertStoredOrder(t, board.id);

    const events: BoardEvent[] = [];
    for (let i = 0; i < moved.length; i++) events.push(await viewer.next('event'));
    expect(events.map((e) => e.version)).toEqual(moved.map((_, i) => version + 1 + i));
    expect(events.every((e) => e.name === 'card.moved')).toBe(true);
    expect(new Set(events.map((e) => (e.data as { cardId: number }).cardId))).toEqual(new Set(moved.map((n) => cards[n]!.id)));
    expect(await storedVersion(board.id)).toBe(version + moved.length);
  });

  it('writes sent back to back (PostgreSQL): a failed statement, a write that must take the long way and a finish that throws are undone alone; the rest commit in arrival order with consecutive versions', async () => {
    const owner = await t.signUp();
    const { board, areas, cards } = await seedBoard(t, owner, { A: ['a', 'b', 'c', 'd', 'e', 'g', 'f'] });
    const A = areas.A!.id;
    const { viewer, version } = await watch(owner, board.id);
    const sizes = batchSizes();
    const pipes: PipeCounts[] = [];
    stops.push(observePipes((counts) => pipes.push({ ...counts })));
    const renamed = (
      cardId: number,
      emit: (name: 'card.moved', data: { cardId: number; fromAreaId: number; toAreaId: number; newIndex: number }) => void,
    ) => emit('card.moved', { cardId, fromAreaId: A, toAreaId: A, newIndex: 0 });
    /** Renames a card: as one statement sent with the others, or (`work`) one by one; `quick` decides what the statement does. */
    const write = (cardId: number, name: string, how: 'rename' | 'fails' | 'changes nothing' | 'finish throws' = 'rename') => {
      const rename = (db: typeof t.db, id: number) =>
        db.updateTable('cards').set({ name }).where('id', '=', id).returning('name');
      const failing = (db: typeof t.db) =>
        db.insertInto('card_activity').values({ cardId: -1, type: 'x', createdAt: new Date().toISOString() }).returning('id');
      return writeBoard(
        t.app.deps,
        actorOf(owner),
        { boardId: board.id, subject: 'Card' },
        'edit',
        async ({ trx, emit }) => {
          if (how === 'fails') await failing(trx).execute();
          if (how === 'finish throws') throw conflict('changed its mind');
          await rename(trx, cardId).execute();
          renamed(cardId, emit);
          return how === 'changes nothing' ? `${name} (long way)` : name;
        },
        {
          quick: {
            tells: [],
            statements: ({ trx }) => [
              how === 'fails' ? failing(trx).compile() : rename(trx, how === 'changes nothing' ? -1 : cardId).compile(),
            ],
            answered: (rows) => (rows.length > 0 ? rows : undefined),
            finish: ({ emit }) => {
              if (how === 'finish throws') throw conflict('changed its mind');
              renamed(cardId, emit);
              return name;
            },
          },
        },
      );
    };

    const outcomes = await Promise.allSettled([
      write(cards.a!.id, 'r0'),
      write(cards.b!.id, 'r1', 'fails'),
      write(cards.c!.id, 'r2'),
      write(cards.d!.id, 'r3', 'changes nothing'),
      write(cards.e!.id, 'r4'),
      write(cards.g!.id, 'r5', 'finish throws'),
      write(cards.f!.id, 'r6'),
    ]);

    expect(sizes).toContain(7);
    expect(outcomes.map((o) => (o.status === 'fulfilled' ? o.value : 'failed'))).toEqual([
      'r0',
      'failed',
      'r2',
      'r3 (long way)',
      'r4',
      'failed',
      'r6',
    ]);
    expect(outcomes[1]).toMatchObject({ reason: { message: expect.stringMatching(/foreign key/i) } });
    expect(outcomes[5]).toMatchObject({ reason: { status: 409 } });
    expect(await cardNames(t, owner, A)).toEqual(['r0', 'b', 'r2', 'r3', 'r4', 'g', 'r6']);
    const expected = [1, 2, 3, 4, 5].map((n) => version + n);
    expect(await storedVersion(board.id)).toBe(version + 5);
    expect(await storedEventVersions(board.id, version)).toEqual(expected);
    const events: BoardEvent[] = [];
    for (let i = 0; i < 5; i++) events.push(await viewer.next('event'));
    expect(events.map((e) => e.version)).toEqual(expected);
    expect(events.map((e) => (e.data as { cardId: number }).cardId)).toEqual(
      [cards.a, cards.c, cards.d, cards.e, cards.f].map((c) => c!.id),
    );
    const sent = pipes.reduce((sum, p) => sum + p.sent, 0);
    const exchanges = pipes.reduce((sum, p) => sum + p.windows, 0);
    if (t.dialect === 'postgres') {
      // Several writes went in one exchange, and the three that went wrong took others back with them.
      expect(sent).toBeGreaterThan(exchanges);
      expect(pipes.reduce((sum, p) => sum + p.undone, 0)).toBeGreaterThanOrEqual(3);
    } else expect(sent).toBe(0);
  });

  it('concurrent moves through the API on a board nobody else joined (sent back to back on PostgreSQL): wrong fromAreaId (409) changes nothing, the rest all land in order', async () => {
    const owner = await t.signUp();
    const names = Array.from({ length: 16 }, (_, i) => `m${i}`);
    const { board, areas, cards } = await seedBoard(t, owner, { A: names, B: [] });
    const { viewer, version } = await watch(owner, board.id);
    const A = areas.A!.id;
    const B = areas.B!.id;
    const move = (name: string, fromAreaId: number, toAreaId: number, newIndex: number) =>
      t.inject(owner, {
        method: 'POST',
        url: '/api/data/cardMove',
        payload: { cardId: cards[name]!.id, fromAreaId, toAreaId, newIndex },
      });
    // Between the areas, and reorders within A; every fourth names the wrong area.
    const plan = names.map((name, i) =>
      i % 4 === 1 ? move(name, B, A, 0) : i % 4 === 2 ? move(name, A, A, 15) : move(name, A, B, i % 3),
    );
    const statuses = (await Promise.all(plan)).map((r) => r.statusCode);

    expect(statuses).toEqual(names.map((_, i) => (i % 4 === 1 ? 409 : 200)));
    const moved = names.filter((_, i) => i % 4 === 0 || i % 4 === 3);
    expect((await cardNames(t, owner, B)).sort()).toEqual([...moved].sort());
    expect((await cardNames(t, owner, A)).sort()).toEqual(names.filter((n) => !moved.includes(n)).sort());
    await assertStoredOrder(t, board.id);
    const changed = names.filter((_, i) => i % 4 !== 1).length;
    const events: BoardEvent[] = [];
    for (let i = 0; i < changed; i++) events.push(await viewer.next('event'));
    expect(events.map((e) => e.version)).toEqual(events.map((_, i) => version + 1 + i));
    expect(await storedVersion(board.id)).toBe(version + changed);
  });
});
