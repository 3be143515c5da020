import { createHash } from 'node:crypto';
import type { InjectOptions } from 'fastify';
import { expect, it } from 'vitest';
import { cardNames, createArea, seedBoard, snapshot } from '../../../test/factories.js';
import { BASE_URL, eachDialect, sessionCookie, type TestUser } from '../../../test/harness.js';
import { loseAnswer } from '../../../test/lost-answer.js';
import { API_KEY_HANDOUT, DATA_HANDOUTS, handOut, HOOK_URL } from '../../../test/standing-access.js';
import { listOutbox } from '../mail/outbox.js';
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
    await loseAnswer(t, ada.id, 'lost-answer');
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
    for (const secret of [...DATA_HANDOUTS, API_KEY_HANDOUT]) {
      it(`${secret.what}: the secret is not kept, and a repeat with the key is a 409 that changes nothing`, async () => {
        const owner = await t.signUp();
        const board = await t.createBoard(owner);
        const send = () => handOut(t, owner, secret, board.id, { 'idempotency-key': `secret-${secret.what}` });
        const count = () => secret.count(t, { userId: owner.id, boardId: board.id });
        // A test account comes with an API key of its own.
        const had = await count();
        const first = await send();
        expect(first.statusCode, first.body).toBe(200);
        const shown = secret.secretOf(first.json());
        expect(await kept()).not.toContain(shown);
        const before = { count: await count(), state: await snapshot(t) };
        expect(before.count).toBe(had + 1);

        const again = await send();
        expect(again.statusCode).toBe(409);
        expect(again.json()).toEqual({ error: expect.stringContaining('shown only once') });
        expect(again.body).not.toContain(shown);
        expect({ count: await count(), state: await snapshot(t) }).toEqual(before);
      });
    }

    it('an API key (outside /api/data): another Idempotency-Key makes a second key, and the account is told apart as elsewhere', async () => {
      const [owner, other] = [await t.signUp(), await t.signUp()];
      const send = (as: TestUser, key: string) => handOut(t, as, API_KEY_HANDOUT, 0, { 'idempotency-key': key });
      // Made through the route, apart from the key each test account comes with.
      const made = async (user: TestUser) =>
        (await t.db.selectFrom('apikey').select('id').where('userId', '=', user.id).where('name', '=', 'Key').execute()).length;
      expect((await send(owner, 'key-1')).statusCode).toBe(200);
      expect((await send(owner, 'key-1')).statusCode).toBe(409);
      expect(await made(owner)).toBe(1);
      const second = await send(owner, 'key-2');
      expect(second.statusCode).toBe(200);
      expect(await made(owner)).toBe(2);
      // The key is the account's: another account's first use of it is its own first request.
      expect((await send(other, 'key-1')).statusCode).toBe(200);
      expect(await made(other)).toBe(1);
    });

    it('an API key without a session is a 401 with the key untouched, and a malformed key is a 400', async () => {
      const owner = await t.signUp();
      const anonymous = await t.app.inject({ ...API_KEY_HANDOUT.request(0), headers: { 'idempotency-key': 'anon' } });
      expect(anonymous.statusCode).toBe(401);
      expect(await t.db.selectFrom('idempotency_keys').select('key').where('key', '=', 'anon').execute()).toEqual([]);
      const had = await API_KEY_HANDOUT.count(t, { userId: owner.id, boardId: 0 });
      const malformed = await handOut(t, owner, API_KEY_HANDOUT, 0, { 'idempotency-key': 'k'.repeat(256) });
      expect(malformed.statusCode).toBe(400);
      expect(await API_KEY_HANDOUT.count(t, { userId: owner.id, boardId: 0 })).toBe(had);
    });

    it('a refusal of a secret-making request is kept and answered again like any other', async () => {
      const owner = await t.signUp();
      const send = () =>
        t.inject(owner, {
          method: 'POST',
          url: '/api/data/webhook',
          headers: { 'idempotency-key': 'no-board' },
          payload: { boardId: 99_999, url: HOOK_URL },
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

eachDialect(
  'Idempotency-Key on writes that change no board',
  (t) => {
    const recorded = (userId: string, key: string) =>
      t.db.selectFrom('idempotency_writes').select('ordinal').where('userId', '=', userId).where('key', '=', key).execute();
    const rows = async (
      table: 'webhooks' | 'webhook_deliveries' | 'ical_feeds' | 'templates' | 'notifications' | 'user' | 'apikey',
    ) => (await t.db.selectFrom(table).selectAll().execute()).map((r) => JSON.stringify(r)).sort();
    const made = async (owner: TestUser, request: InjectOptions) => {
      const res = await t.inject(owner, request);
      expect(res.statusCode, res.body).toBe(200);
      return res.json<Record<string, { id: number }>>();
    };

    /** Each write: how to ask for it (after making what it needs), the rows it changes, and whether only a session may ask. */
    const writes: Array<{
      what: string;
      request: (owner: TestUser, boardId: number) => Promise<InjectOptions>;
      rows: () => Promise<string[]>;
      session?: true;
    }> = [
      {
        what: 'deleting a webhook',
        request: async (owner, boardId) => {
          const { webhook } = await made(owner, DATA_HANDOUTS[0]!.request(boardId));
          return { method: 'DELETE', url: `/api/data/webhook?id=${webhook!.id}` };
        },
        rows: () => rows('webhooks'),
      },
      {
        what: 'sending a delivery again',
        request: async (owner, boardId) => {
          await made(owner, DATA_HANDOUTS[0]!.request(boardId));
          await createArea(t, owner, boardId);
          const [delivery] = await t.db.selectFrom('webhook_deliveries').select('id').orderBy('id', 'desc').limit(1).execute();
          return { method: 'POST', url: '/api/data/webhook-redeliver', payload: { deliveryId: delivery!.id } };
        },
        // Their attempts go on meanwhile: how many there are is what a second redelivery would change.
        rows: async () => [String((await rows('webhook_deliveries')).length)],
      },
      {
        what: 'revoking a calendar feed',
        request: async (owner, boardId) => {
          const { feed } = await made(owner, DATA_HANDOUTS[1]!.request(boardId));
          return { method: 'DELETE', url: `/api/data/ical-feeds?id=${feed!.id}` };
        },
        rows: () => rows('ical_feeds'),
      },
      {
        what: 'saving a template',
        request: (_owner, boardId) =>
          Promise.resolve({ method: 'POST', url: '/api/data/template', payload: { boardId, name: 'Kept once' } }),
        rows: () => rows('templates'),
      },
      {
        what: 'deleting a template',
        request: async (owner, boardId) => {
          const { template } = await made(owner, {
            method: 'POST',
            url: '/api/data/template',
            payload: { boardId, name: 'Gone' },
          });
          return { method: 'DELETE', url: `/api/data/template?id=${template!.id}` };
        },
        rows: () => rows('templates'),
      },
      {
        what: 'marking notifications read',
        request: (_owner, boardId) => Promise.resolve({ method: 'PATCH', url: `/api/data/notifications?boardId=${boardId}` }),
        rows: () => rows('notifications'),
      },
      {
        what: 'removing the profile picture',
        request: () => Promise.resolve({ method: 'DELETE', url: '/api/data/avatar' }),
        rows: () => rows('user'),
      },
      {
        what: 'deleting an API key',
        request: async (owner) => {
          const made = await handOut(t, owner, API_KEY_HANDOUT, 0);
          expect(made.statusCode, made.body).toBe(200);
          return { method: 'POST', url: '/api/auth/api-key/delete', payload: { keyId: made.json<{ id: string }>().id } };
        },
        rows: () => rows('apikey'),
        session: true,
      },
      {
        what: 'sending a test mail as an administrator',
        request: async (owner) => {
          await t.db.updateTable('user').set({ role: 'admin' }).where('id', '=', owner.id).execute();
          return { method: 'POST', url: '/api/data/admin/mail/test', payload: {} };
        },
        // The mail is sent now, into the outbox in tests: a second send would be a second file there.
        rows: async () => [String((await listOutbox(t.config.dataDir, 1)).total)],
        // Its key's account was read before the promotion; a session reads the account afresh.
        session: true,
      },
    ];

    for (const write of writes) {
      it(`${write.what}: its record commits with it, and a retry after a lost answer gets that answer and changes nothing`, async () => {
        const owner = await t.signUp();
        const board = await t.createBoard(owner);
        const request = await write.request(owner, board.id);
        const key = `lost: ${write.what}`;
        const headers = { 'idempotency-key': key };
        const send = () =>
          write.session
            ? t.app.inject({ ...request, headers: { ...headers, cookie: owner.cookie } })
            : t.inject(owner, { ...request, headers });
        const first = await send();
        expect(first.statusCode, first.body).toBe(200);
        expect(await recorded(owner.id, key)).toHaveLength(1);

        await loseAnswer(t, owner.id, key);
        const before = await write.rows();
        const retry = await send();
        expect(retry.statusCode, retry.body).toBe(200);
        expect(retry.headers['idempotent-replayed']).toBe('true');
        expect(retry.json()).toEqual(first.json());
        expect(await write.rows()).toEqual(before);
      });
    }
  },
  { env: { WEBHOOK_ALLOW_PRIVATE: 'true' } },
);

eachDialect('Idempotency-Key on better-auth’s writes of a signed-in account', (t) => {
  const asSession = (user: TestUser, key: string | undefined, request: InjectOptions) =>
    t.app.inject({ ...request, headers: { cookie: user.cookie, ...(key === undefined ? {} : { 'idempotency-key': key }) } });
  const account = async (id: string) => JSON.stringify(await t.db.selectFrom('user').selectAll().where('id', '=', id).execute());
  const keys = (userId: string) =>
    t.db.selectFrom('idempotency_keys').select(['key', 'fingerprint']).where('userId', '=', userId).execute();

  it('a profile change (update-user) repeated with its key changes nothing again; another body with it is a 422', async () => {
    const ada = await t.signUp('Ada');
    const rename = (name: string) =>
      asSession(ada, 'rename', { method: 'POST', url: '/api/auth/update-user', payload: { name, language: 'de' } });
    const first = await rename('Ada L.');
    expect(first.statusCode, first.body).toBe(200);
    const after = await account(ada.id);
    expect(after).toContain('Ada L.');

    const again = await rename('Ada L.');
    expect(again.statusCode).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    // Not run again: not even its time of change moved.
    expect(await account(ada.id)).toEqual(after);

    const other = await rename('Someone else');
    expect(other.statusCode).toBe(422);
    expect(other.json()).toEqual({ error: 'This Idempotency-Key was already used for a different request' });
    expect(await account(ada.id)).toEqual(after);

    // Without a key it is better-auth's own write, as before.
    expect(
      (await asSession(ada, undefined, { method: 'POST', url: '/api/auth/update-user', payload: { name: 'Ada' } })).statusCode,
    ).toBe(200);
    expect(await account(ada.id)).toContain('"Ada"');
  });

  it('a keyed request without a session is better-auth’s refusal, and no key is kept', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/update-user',
      headers: { 'idempotency-key': 'nobody' },
      payload: { name: 'Nobody' },
    });
    expect(res.statusCode).toBe(401);
    expect(await t.db.selectFrom('idempotency_keys').select('key').where('key', '=', 'nobody').execute()).toEqual([]);
  });

  it('a changed password (its answer holds a new session) is not changed again: the repeat is a 409, and no plain hash of the body is kept', async () => {
    const ada = await t.signUp('Ada');
    const body = { currentPassword: ada.password, newPassword: 'another horse battery' };
    const change = () => asSession(ada, 'new-password', { method: 'POST', url: '/api/auth/change-password', payload: body });
    const first = await change();
    expect(first.statusCode, first.body).toBe(200);
    const signedIn = { ...ada, cookie: sessionCookie(first) };
    const again = await asSession(signedIn, 'new-password', { method: 'POST', url: '/api/auth/change-password', payload: body });
    // A second change would be a 400 (the current password is no longer that one).
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ error: expect.stringContaining('shown only once') });
    const [kept] = await keys(ada.id);
    const plain = createHash('sha256')
      .update(
        `POST /api/auth/change-password\n${JSON.stringify({ currentPassword: body.currentPassword, newPassword: body.newPassword })}`,
      )
      .digest('hex');
    expect(kept!.fingerprint).not.toBe(plain);
    const signIn = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      headers: { origin: BASE_URL },
      payload: { email: ada.email, password: body.newPassword },
    });
    expect(signIn.statusCode).toBe(200);
  });

  it('a confirmation mail asked for again with its key is queued once', async () => {
    const ada = await t.signUp('Ada', { verified: false });
    const mails = async () =>
      (await t.db.selectFrom('jobs').select('payload').where('kind', '=', 'mail').execute()).filter((j) =>
        j.payload.includes(ada.email),
      ).length;
    const had = await mails();
    const ask = () =>
      asSession(ada, 'confirm-me', {
        method: 'POST',
        url: '/api/auth/send-verification-email',
        payload: { email: ada.email, callbackURL: '/' },
      });
    expect((await ask()).statusCode).toBe(200);
    expect(await mails()).toBe(had + 1);
    const again = await ask();
    expect(again.statusCode).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(await mails()).toBe(had + 1);
  });

  it('an administrator’s new account, repeated with its key, is made once and answered again', async () => {
    const admin = await t.signUp('Admin');
    await t.db.updateTable('user').set({ role: 'admin' }).where('id', '=', admin.id).execute();
    const email = `made-${Date.now()}@example.test`;
    const create = () =>
      asSession(admin, 'new-account', {
        method: 'POST',
        url: '/api/auth/admin/create-user',
        payload: { name: 'Made', email, password: 'correct horse battery' },
      });
    const first = await create();
    expect(first.statusCode, first.body).toBe(200);
    const again = await create();
    // A second create would be a refusal: the address has an account.
    expect(again.statusCode).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    expect(await t.db.selectFrom('user').select('id').where('email', '=', email).execute()).toHaveLength(1);
  });
});
