import { afterEach, expect, it } from 'vitest';
import { createCard, createLabel, invite, seedBoard, snapshot, updateCard } from '../../../../test/factories.js';
import { eachDialect, type TestContext, type TestUser } from '../../../../test/harness.js';
import { forgetBases, snapshotInterval } from '../../events/snapshots.js';

type Json = Record<string, unknown>;

const EVERY = snapshotInterval.every;
afterEach(() => {
  snapshotInterval.every = EVERY;
});

/** The board as the present-state routes show it now, in the shape `board-at` answers, with its version. */
async function shown(t: TestContext, user: TestUser, boardId: number) {
  const get = async (url: string) => {
    const res = await t.inject(user, { method: 'GET', url });
    expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
    return res.json<Json>();
  };
  const { board } = await get(`/api/data/board?id=${boardId}&userId=${user.id}`);
  const { areas } = (await get(`/api/data/areas?boardId=${boardId}`)) as {
    areas: Array<{ id: number; name: string; sort: number }>;
  };
  const withCards = [];
  for (const area of areas) {
    const { cards } = (await get(`/api/data/cards?areaId=${area.id}`)) as { cards: Array<Json & { status: number }> };
    withCards.push({
      id: area.id,
      name: area.name,
      sort: area.sort,
      cards: cards.map((c) => ({
        id: c.id,
        name: c.name,
        content: c.content,
        sort: c.sort,
        labels: c.labels,
        assignees: c.assignees,
        dueDate: c.dueDate,
        done: c.status === 1,
        fields: c.fields,
      })),
    });
  }
  const { version } = await t.db.selectFrom('boards').select('version').where('id', '=', boardId).executeTakeFirstOrThrow();
  return { board, version, areas: withCards };
}

function boardAt(t: TestContext, user: TestUser, boardId: number, version: number | string) {
  const key = typeof version === 'number' ? 'version' : 'at';
  return t.inject(user, { method: 'GET', url: `/api/data/board-at?boardId=${boardId}&${key}=${encodeURIComponent(version)}` });
}

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((resolve) => setImmediate(resolve));
  }
  throw new Error('the state never came');
}

const snapshotVersions = (t: TestContext, boardId: number) =>
  t.db
    .selectFrom('board_snapshots')
    .select('version')
    .where('boardId', '=', boardId)
    .orderBy('version')
    .execute()
    .then((rows) => rows.map((r) => r.version));

eachDialect('board history', (t) => {
  it('rebuilds the board at every version exactly as the API showed it then, across snapshots', async () => {
    snapshotInterval.every = 7;
    const owner = await t.signUp('Owner');
    const helper = await t.signUp('Helper');
    const { board, areas, cards } = await seedBoard(t, owner, { Todo: ['a', 'b', 'c'], Doing: ['d'], Done: [] });
    const boardId = board.id as number;
    const states = [await shown(t, owner, boardId)];
    const step = async (change: () => Promise<unknown>) => {
      await change();
      states.push(await shown(t, owner, boardId));
    };
    const id = (name: string) => cards[name]!.id as number;
    const area = (name: string) => areas[name]!.id as number;
    const move = (cardId: number, fromAreaId: number, toAreaId: number, newIndex: number) =>
      t.inject(owner, { method: 'POST', url: '/api/data/cardMove', payload: { cardId, fromAreaId, toAreaId, newIndex } });

    await step(() => invite(t, owner, boardId, helper, 'edit'));
    const urgent = await createLabel(t, owner, boardId, 'urgent');
    await step(() => updateCard(t, owner, id('a'), { name: 'a renamed', content: '- [ ] one', labelIds: [urgent.id] }));
    await step(() => updateCard(t, owner, id('b'), { assignees: [helper.id], dueDate: '2026-12-01T09:00:00Z', status: 1 }));
    await step(() => move(id('a'), area('Todo'), area('Doing'), 1));
    await step(() => move(id('c'), area('Todo'), area('Todo'), 0));
    await step(() => t.inject(owner, { method: 'DELETE', url: '/api/data/card', payload: { cardID: id('d') } }));
    await step(() =>
      t.inject(owner, { method: 'POST', url: '/api/data/area', payload: { id: area('Done'), boardId, name: 'Finished' } }),
    );
    await step(() => createCard(t, owner, area('Done'), 'e'));
    await step(() => t.inject(owner, { method: 'DELETE', url: `/api/data/area?id=${area('Todo')}&boardId=${boardId}` }));
    await step(() =>
      t.inject(owner, {
        method: 'PATCH',
        url: '/api/data/board',
        payload: { boardId, areas: [{ id: area('Done') }, { id: area('Doing') }] },
      }),
    );
    await step(() => t.inject(owner, { method: 'POST', url: '/api/data/archive', payload: { type: 'area', id: area('Todo') } }));
    await step(() => t.inject(owner, { method: 'POST', url: '/api/data/archive', payload: { type: 'card', id: id('d') } }));
    // The label goes from the board when its last card drops it.
    await step(() => updateCard(t, owner, id('a'), { labelIds: [] }));
    await step(() =>
      t.inject(owner, { method: 'POST', url: '/api/data/board', payload: { id: boardId, name: 'Renamed board' } }),
    );
    await step(() => t.inject(helper, { method: 'PUT', url: '/api/data/profile', payload: { name: 'Helper Two' } }));

    const taken = await until(
      () => snapshotVersions(t, boardId),
      (versions) => versions.filter((v) => v > 1).length >= 2,
    );
    expect(taken[0]).toBe(1);
    const versions = new Set<number>();
    for (const state of states) {
      if (versions.has(state.version)) continue;
      versions.add(state.version);
      const res = await boardAt(t, owner, boardId, state.version);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json(), `version ${state.version}`).toEqual(state);
    }
    expect(versions.size).toBeGreaterThan(10);
  });

  it('finds the version of a moment, and lists changes newest first with who made them', async () => {
    const owner = await t.signUp('Owner');
    const { board, cards } = await seedBoard(t, owner, { Todo: ['a'] });
    const boardId = board.id as number;
    const before = await shown(t, owner, boardId);
    const { createdAt } = await t.db
      .selectFrom('board_events')
      .select('createdAt')
      .where('boardId', '=', boardId)
      .where('version', '=', before.version)
      .executeTakeFirstOrThrow();
    await until(
      () => Promise.resolve(Date.now()),
      (now) => now > new Date(createdAt).getTime() + 2,
    );
    await updateCard(t, owner, cards.a!.id as number, { name: 'b' });
    const moment = new Date(new Date(createdAt).getTime() + 1).toISOString();
    const res = await boardAt(t, owner, boardId, moment);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual(before);

    const history = await t.inject(owner, { method: 'GET', url: `/api/data/board-history?boardId=${boardId}&limit=2` });
    expect(history.statusCode).toBe(200);
    const entries = history.json().entries as Json[];
    expect(entries).toEqual([
      {
        version: before.version + 1,
        at: expect.stringMatching(/Z$/),
        actor: { id: owner.id, name: 'Owner' },
        name: 'card.updated',
        summary: 'b',
      },
      {
        version: before.version,
        at: expect.stringMatching(/Z$/),
        actor: { id: owner.id, name: 'Owner' },
        name: 'card.created',
        summary: 'a',
      },
    ]);
    const older = await t.inject(owner, {
      method: 'GET',
      url: `/api/data/board-history?boardId=${boardId}&before=${before.version}`,
    });
    expect((older.json().entries as Json[]).map((e) => e.version)).toEqual(
      Array.from({ length: before.version - 1 }, (_, i) => before.version - 1 - i),
    );
  });

  it('shows a member the history from when they joined, and nothing earlier', async () => {
    const owner = await t.signUp('Owner');
    const late = await t.signUp('Late');
    const { board, areas } = await seedBoard(t, owner, { Todo: ['secret plan'] });
    const boardId = board.id as number;
    // A member replays from the version the board had when they were added (as a resuming viewer does): the addition is theirs to see.
    const floor = await shown(t, owner, boardId);
    await invite(t, owner, boardId, late, 'read');
    const joined = await shown(t, owner, boardId);
    await createCard(t, owner, areas.Todo!.id as number, 'after');

    const history = (await t.inject(late, { method: 'GET', url: `/api/data/board-history?boardId=${boardId}` })).json();
    expect(history.entries.map((e: Json) => e.version)).toEqual([joined.version + 1, joined.version]);
    expect(history.entries[1].name).toBe('member.added');
    expect((await boardAt(t, late, boardId, floor.version)).json()).toEqual({ ...floor, board: joined.board });
    const refused = await boardAt(t, late, boardId, floor.version - 1);
    expect(refused.statusCode).toBe(403);
    expect(refused.body).not.toContain('secret plan');
    const early = await boardAt(t, late, boardId, new Date(Date.parse(String(board.createdAt ?? '2020-01-01'))).toISOString());
    expect([403, 410]).toContain(early.statusCode);
    const seen = await boardAt(t, late, boardId, joined.version);
    expect(seen.statusCode).toBe(200);
    expect(seen.json()).toEqual({ ...joined, board: (await shown(t, late, boardId)).board });
    const ownerHistory = (await t.inject(owner, { method: 'GET', url: `/api/data/board-history?boardId=${boardId}` })).json();
    expect(ownerHistory.entries.at(-1).version).toBe(1);
  });

  it('refuses what it cannot answer (400, 403, 404, 410) and changes nothing', async () => {
    const owner = await t.signUp('Owner');
    const reader = await t.signUp('Reader');
    const stranger = await t.signUp('Stranger');
    const { board, cards } = await seedBoard(t, owner, { Todo: ['a'] });
    const boardId = board.id as number;
    await invite(t, owner, boardId, reader, 'read');
    const cardID = cards.a!.id as number;
    const { version } = await shown(t, owner, boardId);
    const rows = await snapshot(t);
    const cases: Array<[TestUser, string, string, object | undefined, number]> = [
      [owner, 'GET', `/api/data/board-at?boardId=${boardId}`, undefined, 400],
      [owner, 'GET', `/api/data/board-at?boardId=${boardId}&version=1&at=2026-01-01T00:00:00Z`, undefined, 400],
      [owner, 'GET', `/api/data/board-at?boardId=${boardId}&version=-1`, undefined, 400],
      [owner, 'GET', `/api/data/board-at?boardId=${boardId}&at=yesterday`, undefined, 400],
      [owner, 'GET', `/api/data/board-history?boardId=${boardId}&limit=0`, undefined, 400],
      [owner, 'GET', `/api/data/board-history?boardId=abc`, undefined, 400],
      [stranger, 'GET', `/api/data/board-at?boardId=${boardId}&version=${version}`, undefined, 404],
      [stranger, 'GET', `/api/data/board-history?boardId=${boardId}`, undefined, 404],
      [owner, 'GET', `/api/data/board-at?boardId=${boardId}&version=${version + 1}`, undefined, 404],
      [owner, 'GET', `/api/data/board-at?boardId=${boardId}&version=0`, undefined, 410],
      [owner, 'POST', '/api/data/card-restore', { cardID }, 400],
      [owner, 'POST', '/api/data/card-restore', { cardID, version: 'x' }, 400],
      [reader, 'POST', '/api/data/card-restore', { cardID, version }, 403],
      [stranger, 'POST', '/api/data/card-restore', { cardID, version }, 404],
      [owner, 'POST', '/api/data/card-restore', { cardID: 999999, version }, 404],
      // The card did not exist yet at version 1 (the board's creation).
      [owner, 'POST', '/api/data/card-restore', { cardID, version: 1 }, 404],
    ];
    for (const [as, method, url, payload, status] of cases) {
      const res = await t.inject(as, { method: method, url, ...(payload ? { payload } : {}) });
      expect(res.statusCode, `${method} ${url} ${JSON.stringify(payload)}: ${res.body}`).toBe(status);
      expect(res.json().error).toEqual(expect.any(String));
    }
    expect(await snapshot(t)).toEqual(rows);

    // Changes pruned between the snapshot and the version asked for: refused, never a wrong board.
    await updateCard(t, owner, cardID, { name: 'b' });
    await t.db.deleteFrom('board_events').where('boardId', '=', boardId).where('version', '=', version).execute();
    const pruned = await boardAt(t, owner, boardId, version);
    expect(pruned.statusCode).toBe(410);
    expect(pruned.json().error).toEqual(expect.any(String));
    // The present is answered from the rows when its events are gone.
    await t.db.deleteFrom('board_events').where('boardId', '=', boardId).execute();
    const present = await shown(t, owner, boardId);
    expect((await boardAt(t, owner, boardId, present.version)).json()).toEqual(present);
  });

  it('restores a card as it was, as a new change; a label dropped since is made again', async () => {
    const owner = await t.signUp('Owner');
    const { board, areas, cards } = await seedBoard(t, owner, { Todo: ['a'], Done: [] });
    const boardId = board.id as number;
    const cardID = cards.a!.id as number;
    const label = await createLabel(t, owner, boardId, 'urgent');
    await updateCard(t, owner, cardID, { content: 'first', labelIds: [label.id], dueDate: '2026-12-24T10:00:00Z' });
    const then = await shown(t, owner, boardId);
    const past = then.areas[0]!.cards[0]!;
    await updateCard(t, owner, cardID, { name: 'changed', content: 'second', labelIds: [], dueDate: null, status: 1 });
    await t.inject(owner, {
      method: 'POST',
      url: '/api/data/cardMove',
      payload: { cardId: cardID, fromAreaId: areas.Todo!.id, toAreaId: areas.Done!.id, newIndex: 0 },
    });
    const res = await t.inject(owner, {
      method: 'POST',
      url: '/api/data/card-restore',
      payload: { cardID, version: then.version },
    });
    expect(res.statusCode, res.body).toBe(200);
    const card = res.json().card as Json & { labels: Array<{ name: string }> };
    expect(card).toMatchObject({
      name: 'a',
      content: 'first',
      dueDate: '2026-12-24T10:00:00.000Z',
      status: 0,
      area: areas.Done!.id,
    });
    expect(card.labels.map((l) => l.name)).toEqual(['urgent']);
    const now = await shown(t, owner, boardId);
    expect(now.version).toBeGreaterThan(then.version + 2);
    expect(now.areas[1]!.cards[0]).toEqual({ ...past, labels: card.labels, sort: 0 });
    const history = (await t.inject(owner, { method: 'GET', url: `/api/data/board-history?boardId=${boardId}&limit=1` })).json();
    expect(history.entries[0]).toMatchObject({ name: 'card.updated', summary: 'a', actor: { id: owner.id } });
  });

  it('rebuilds custom field values as they stood, forgets a deleted field, and restores a card’s values', async () => {
    snapshotInterval.every = 3;
    const owner = await t.signUp('Owner');
    const { board, cards } = await seedBoard(t, owner, { Todo: ['a', 'b'] });
    const boardId = board.id as number;
    const cardID = cards.a!.id as number;
    const field = async (payload: Json) => {
      const res = await t.inject(owner, { method: 'POST', url: '/api/data/field', payload: { boardId, ...payload } });
      expect(res.statusCode, res.body).toBe(200);
      return String((res.json().field as { id: number }).id);
    };
    const points = await field({ name: 'Points', type: 'number' });
    const stage = await field({ name: 'Stage', type: 'select', options: ['new', 'old'] });
    await updateCard(t, owner, cardID, { fields: { [points]: 3, [stage]: 'new' } });
    const first = await shown(t, owner, boardId);
    expect(first.areas[0]!.cards[0]!.fields).toEqual({ [points]: 3, [stage]: 'new' });
    await updateCard(t, owner, cardID, { fields: { [points]: 8, [stage]: null } });
    await updateCard(t, owner, cards.b!.id as number, { fields: { [points]: 1 } });
    const second = await shown(t, owner, boardId);
    const removed = await t.inject(owner, { method: 'DELETE', url: `/api/data/field?id=${stage}` });
    expect(removed.statusCode, removed.body).toBe(200);
    const third = await shown(t, owner, boardId);
    for (const then of [first, second, third]) {
      const res = await boardAt(t, owner, boardId, then.version);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().areas).toEqual(then.areas);
    }
    const restored = await t.inject(owner, {
      method: 'POST',
      url: '/api/data/card-restore',
      payload: { cardID, version: first.version },
    });
    expect(restored.statusCode, restored.body).toBe(200);
    // The deleted field does not come back; the one still there takes its value from then.
    expect(restored.json().card.fields).toEqual({ [points]: 3 });
  });

  it('gives a board from before snapshots its first one with its next change: rebuildable from there, 410 before', async () => {
    const owner = await t.signUp('Owner');
    const { board, cards } = await seedBoard(t, owner, { Todo: ['a', 'b'] });
    const boardId = board.id as number;
    // As the upgrade finds a board: its events, no snapshot.
    await t.db.deleteFrom('board_snapshots').where('boardId', '=', boardId).execute();
    forgetBases(t.database);
    const before = await shown(t, owner, boardId);
    await updateCard(t, owner, cards.a!.id as number, { name: 'a2' });
    const [base] = await until(
      () => snapshotVersions(t, boardId),
      (versions) => versions.length > 0,
    );
    expect(base).toBe(before.version + 1);
    const after = await shown(t, owner, boardId);
    await updateCard(t, owner, cards.b!.id as number, { name: 'b2', status: 1 });
    expect((await boardAt(t, owner, boardId, after.version)).json()).toEqual(after);
    expect((await boardAt(t, owner, boardId, after.version + 1)).json()).toEqual(await shown(t, owner, boardId));
    const older = await boardAt(t, owner, boardId, before.version);
    expect(older.statusCode).toBe(410);
    expect(older.json().error).toEqual(expect.any(String));
  });

  it('documents its routes in the OpenAPI document', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json<{ paths: Record<string, object> }>();
    expect(Object.keys(doc.paths['/api/data/board-history']!)).toEqual(['get']);
    expect(Object.keys(doc.paths['/api/data/board-at']!)).toEqual(['get']);
    expect(Object.keys(doc.paths['/api/data/card-restore']!)).toEqual(['post']);
  });

  it('forgets a card deleted for good in its snapshots and events', async () => {
    const owner = await t.signUp('Owner');
    const { board, cards } = await seedBoard(t, owner, { Todo: ['keep', 'erase me'] });
    const boardId = board.id as number;
    const { version } = await shown(t, owner, boardId);
    await t.inject(owner, { method: 'POST', url: '/api/data/area', payload: { boardId, name: 'Later' } });
    // A snapshot holding the card, as a periodic one would.
    await t.db
      .insertInto('board_snapshots')
      .values({
        boardId,
        version,
        createdAt: new Date().toISOString(),
        state: JSON.stringify((await boardAt(t, owner, boardId, version)).json()),
      })
      .execute();
    const res = await t.inject(owner, {
      method: 'DELETE',
      url: '/api/data/card',
      payload: { cardID: cards['erase me']!.id, permanent: true },
    });
    expect(res.statusCode, res.body).toBe(200);
    const states = await t.db.selectFrom('board_snapshots').select('state').where('boardId', '=', boardId).execute();
    expect(states.length).toBeGreaterThan(0);
    for (const { state } of states) expect(state).not.toContain('erase me');
    for (const at of [version - 1, version]) {
      const past = await boardAt(t, owner, boardId, at);
      expect(past.statusCode).toBe(200);
      expect(past.body).not.toContain('erase me');
    }
    const history = await t.inject(owner, { method: 'GET', url: `/api/data/board-history?boardId=${boardId}` });
    expect(history.body).not.toContain('erase me');
    expect(history.json().entries.some((e: Json) => e.name === 'redacted')).toBe(true);
  });
});
