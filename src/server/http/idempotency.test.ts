import { expect, it } from 'vitest';
import { cardNames, seedBoard, snapshot } from '../../../test/factories.js';
import { eachDialect } from '../../../test/harness.js';
import { pruneIdempotencyKeys } from './idempotency.js';

eachDialect('Idempotency-Key', (t) => {
  it('a repeat with the same key and body does nothing again and answers the stored status and body', async () => {
    const ada = await t.signUp('Ada');
    const { areas } = await seedBoard(t, ada, { Todo: [] });
    const send = () =>
      t.inject(ada, {
        method: 'POST',
        url: '/api/data/card',
        headers: { 'idempotency-key': 'create-1' },
        payload: { areaId: areas.Todo!.id, name: 'Once' },
      });
    const first = await send();
    expect(first.statusCode).toBe(200);
    const before = await snapshot(t);
    const again = await send();
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(await snapshot(t)).toEqual(before);
    expect(await cardNames(t, ada, areas.Todo!.id as number)).toEqual(['Once']);
  });

  it('the same key with another body is a 422 and changes nothing', async () => {
    const ada = await t.signUp('Ada');
    const { areas } = await seedBoard(t, ada, { Todo: [] });
    const send = (name: string) =>
      t.inject(ada, {
        method: 'POST',
        url: '/api/data/card',
        headers: { 'idempotency-key': 'k' },
        payload: { areaId: areas.Todo!.id, name },
      });
    expect((await send('First')).statusCode).toBe(200);
    const before = await snapshot(t);
    const other = await send('Second');
    expect(other.statusCode).toBe(422);
    expect(other.json()).toEqual({ error: 'This Idempotency-Key was already used for a different request' });
    expect(await snapshot(t)).toEqual(before);
  });

  it('keys belong to an account: another account with the same key is another request', async () => {
    const ada = await t.signUp('Ada');
    const bob = await t.signUp('Bob');
    const adaBoard = await seedBoard(t, ada, { Todo: [] });
    const bobBoard = await seedBoard(t, bob, { Todo: [] });
    for (const [user, areaId] of [
      [ada, adaBoard.areas.Todo!.id],
      [bob, bobBoard.areas.Todo!.id],
    ] as const) {
      const res = await t.inject(user, {
        method: 'POST',
        url: '/api/data/card',
        headers: { 'idempotency-key': 'shared-key' },
        payload: { areaId, name: 'Mine' },
      });
      expect(res.statusCode).toBe(200);
    }
    expect(await cardNames(t, bob, bobBoard.areas.Todo!.id as number)).toEqual(['Mine']);
  });

  it('a refusal is stored too: the retry gets the same 4xx, and a 5xx-free answer is never run twice', async () => {
    const ada = await t.signUp('Ada');
    const send = () =>
      t.inject(ada, {
        method: 'PUT',
        url: '/api/data/card',
        headers: { 'idempotency-key': 'missing' },
        payload: { cardID: 99_999, name: 'x' },
      });
    const first = await send();
    expect(first.statusCode).toBe(404);
    const again = await send();
    expect(again.statusCode).toBe(404);
    expect(again.json()).toEqual(first.json());
    expect(again.headers['idempotent-replayed']).toBe('true');
  });

  it('refuses a malformed key with 400 and nothing changed', async () => {
    const ada = await t.signUp('Ada');
    const { areas } = await seedBoard(t, ada, { Todo: [] });
    const before = await snapshot(t);
    for (const key of ['', 'x'.repeat(256), 'tab\there', 'ünïcode']) {
      const res = await t.inject(ada, {
        method: 'POST',
        url: '/api/data/card',
        headers: { 'idempotency-key': key },
        payload: { areaId: areas.Todo!.id, name: 'No' },
      });
      expect(res.statusCode, JSON.stringify(key)).toBe(400);
      expect(res.json()).toEqual({ error: 'Idempotency-Key must be 1 to 255 printable characters' });
    }
    expect(await snapshot(t)).toEqual(before);
  });

  it('concurrent first requests with one key run the write once', async () => {
    const ada = await t.signUp('Ada');
    const { areas } = await seedBoard(t, ada, { Todo: [] });
    const answers = await Promise.all(
      Array.from({ length: 8 }, () =>
        t.inject(ada, {
          method: 'POST',
          url: '/api/data/card',
          headers: { 'idempotency-key': 'burst' },
          payload: { areaId: areas.Todo!.id, name: 'Burst' },
        }),
      ),
    );
    // Each is either the answer, its replay, or "still being answered" (409) — never a second card.
    for (const a of answers) expect([200, 409]).toContain(a.statusCode);
    expect(await cardNames(t, ada, areas.Todo!.id as number)).toEqual(['Burst']);
  });

  it('a key whose write committed but whose answer was lost is answered from the stored result, once', async () => {
    const ada = await t.signUp('Ada');
    const { areas } = await seedBoard(t, ada, { Todo: [] });
    const send = () =>
      t.inject(ada, {
        method: 'POST',
        url: '/api/data/card',
        headers: { 'idempotency-key': 'lost-answer' },
        payload: { areaId: areas.Todo!.id, name: 'Once' },
      });
    const first = await send();
    expect(first.statusCode).toBe(200);
    // What a process that died after the commit leaves: the write and its result, no answer, an attempt long gone.
    await t.db
      .updateTable('idempotency_keys')
      .set({ status: null, response: null, owner: 'dead', appliedAt: new Date(Date.now() - 10_000).toISOString() })
      .where('key', '=', 'lost-answer')
      .execute();
    const before = await snapshot(t);
    const retry = await send();
    expect(retry.statusCode).toBe(200);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.json()).toEqual(first.json());
    expect(await snapshot(t)).toEqual(before);
    expect((await send()).json()).toEqual(first.json());
    expect(await cardNames(t, ada, areas.Todo!.id as number)).toEqual(['Once']);
  });

  it('answers are pruned after a day, then the key is free again', async () => {
    const ada = await t.signUp('Ada');
    const { areas } = await seedBoard(t, ada, { Todo: [] });
    const send = () =>
      t.inject(ada, {
        method: 'POST',
        url: '/api/data/card',
        headers: { 'idempotency-key': 'daily' },
        payload: { areaId: areas.Todo!.id, name: 'Daily' },
      });
    expect((await send()).statusCode).toBe(200);
    expect(await pruneIdempotencyKeys(t.db, new Date(Date.now() + 60_000))).toBe(0);
    expect(await pruneIdempotencyKeys(t.db, new Date(Date.now() + 25 * 3600_000))).toBeGreaterThan(0);
    expect((await send()).headers['idempotent-replayed']).toBeUndefined();
    expect(await cardNames(t, ada, areas.Todo!.id as number)).toEqual(['Daily', 'Daily']);
  });
});

eachDialect(
  'Idempotency-Key on answers that hold a secret',
  (t) => {
    const kept = async () => JSON.stringify(await t.db.selectFrom('idempotency_keys').selectAll().execute());
    const secrets: Array<{
      what: string;
      url: string;
      body: (boardId: number) => object;
      secretOf: (answer: Record<string, unknown>) => string;
      count: () => Promise<number>;
    }> = [
      {
        what: 'a webhook',
        url: '/api/data/webhook',
        body: (boardId) => ({ boardId, url: 'http://127.0.0.1:9/hook' }),
        secretOf: (a) => (a.webhook as { secret: string }).secret,
        count: async () => (await t.db.selectFrom('webhooks').select('id').execute()).length,
      },
      {
        what: 'a calendar feed',
        url: '/api/data/ical-feeds',
        body: () => ({ name: 'Phone' }),
        secretOf: (a) => a.url as string,
        count: async () => (await t.db.selectFrom('ical_feeds').select('id').execute()).length,
      },
      {
        what: 'a public link',
        url: '/api/data/public-link',
        body: (boardId) => ({ boardId }),
        secretOf: (a) => (a.link as { url: string }).url,
        count: async () => (await t.db.selectFrom('public_links').select('boardId').execute()).length,
      },
    ];

    for (const secret of secrets) {
      it(`${secret.what}: the secret is not kept, and a repeat with the key is a 409 that changes nothing`, async () => {
        const owner = await t.signUp();
        const board = await t.createBoard(owner);
        const send = () =>
          t.inject(owner, {
            method: 'POST',
            url: secret.url,
            headers: { 'idempotency-key': `secret-${secret.url}` },
            payload: secret.body(board.id),
          });
        const first = await send();
        expect(first.statusCode, first.body).toBe(200);
        const shown = secret.secretOf(first.json());
        expect(await kept()).not.toContain(shown);
        const before = { count: await secret.count(), state: await snapshot(t) };

        const again = await send();
        expect(again.statusCode).toBe(409);
        expect(again.json()).toEqual({ error: expect.stringContaining('shown only once') });
        expect(again.body).not.toContain(shown);
        expect({ count: await secret.count(), state: await snapshot(t) }).toEqual(before);
      });
    }

    it('a refusal of a secret-making request is kept and answered again like any other', async () => {
      const owner = await t.signUp();
      const send = () =>
        t.inject(owner, {
          method: 'POST',
          url: '/api/data/webhook',
          headers: { 'idempotency-key': 'no-board' },
          payload: { boardId: 99_999, url: 'http://127.0.0.1:9/hook' },
        });
      const first = await send();
      expect(first.statusCode).toBe(404);
      const again = await send();
      expect(again.statusCode).toBe(404);
      expect(again.headers['idempotent-replayed']).toBe('true');
    });
  },
  { env: { WEBHOOK_ALLOW_PRIVATE: 'true' } },
);
