import { expect, it } from 'vitest';
import { BASE_URL, eachDialect } from '../../../test/harness.js';
import { multipart } from '../../../test/multipart.js';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

eachDialect('content types', (t) => {
  const snapshot = async () => ({
    boards: await t.db.selectFrom('boards').selectAll().orderBy('id').execute(),
    cards: await t.db.selectFrom('cards').selectAll().orderBy('id').execute(),
    members: await t.db.selectFrom('board_members').selectAll().orderBy('id').execute(),
    users: await t.db.selectFrom('user').selectAll().orderBy('id').execute(),
  });

  it('answers 415 for a JSON body sent under any other type, on every kind of JSON route, changing nothing', async () => {
    const owner = await t.signUp();
    const other = await t.signUp();
    const board = await t.createBoard(owner);
    const before = await snapshot();
    const json = (payload: object) => JSON.stringify(payload);
    const routes = [
      {
        method: 'POST',
        url: '/api/data/board',
        payload: json({ userId: owner.id, name: 'X', style: 'kanban', status: 'private' }),
      },
      { method: 'POST', url: '/api/data/board', payload: json({ id: board.id, userId: owner.id, name: 'Renamed' }) },
      { method: 'POST', url: '/api/data/invite', payload: json({ boardId: board.id, userId: other.id, permission: 'edit' }) },
      { method: 'DELETE', url: '/api/data/card', payload: json({ cardID: 1 }) },
      {
        method: 'POST',
        url: '/api/auth/sign-up/email',
        payload: json({ name: 'N', email: 'n@example.test', password: 'correct horse battery' }),
      },
    ] as const;
    for (const type of [
      'text/plain',
      'text/plain; charset=utf-8',
      'TEXT/PLAIN',
      'application/xml',
      'application/x-www-form-urlencoded',
    ]) {
      for (const route of routes) {
        const res = await t.inject(owner, { ...route, headers: { 'content-type': type, origin: BASE_URL } });
        expect([type, route.url, res.statusCode]).toEqual([type, route.url, 415]);
        expect(res.json()).toEqual({ error: expect.any(String) });
      }
    }
    expect(await snapshot()).toEqual(before);
  });

  it('still takes JSON, bodiless requests and multipart uploads', async () => {
    const user = await t.signUp();
    const created = await t.inject(user, {
      method: 'POST',
      url: '/api/data/board',
      headers: { 'content-type': 'application/json; charset=utf-8' },
      payload: JSON.stringify({ userId: user.id, name: 'JSON', style: 'kanban', status: 'private' }),
    });
    expect(created.statusCode).toBe(200);
    const read = await t.inject(user, { method: 'GET', url: `/api/data/board?id=${created.json().board.id}&userId=${user.id}` });
    expect(read.statusCode).toBe(200);
    const upload = await t.inject(user, {
      method: 'POST',
      url: '/api/data/avatar',
      ...multipart([{ name: 'file', filename: 'me.png', type: 'image/png', data: PNG }]),
    });
    expect(upload.statusCode).toBe(200);
  });
});
