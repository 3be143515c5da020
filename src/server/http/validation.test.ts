import { afterEach, beforeAll, expect, it } from 'vitest';
import { createArea, createCard, importBoardFile, snapshot } from '../../../test/factories.js';
import { eachDialect, type TestUser } from '../../../test/harness.js';
import { multipart } from '../../../test/multipart.js';
import { Viewer } from '../../../test/realtime-client.js';
import { rawZip } from '../../../test/zip.js';

const BEYOND = ['2147483648', '-2147483649', '9007199254740993', '1e400', 'Infinity'];

eachDialect('input bounds', (t) => {
  let owner: TestUser;
  let boardId: number;
  let areaId: number;
  let cardId: number;

  beforeAll(async () => {
    owner = await t.signUp('Bounds');
    boardId = (await t.createBoard(owner)).id;
    areaId = (await createArea(t, owner, boardId)).id as number;
    cardId = (await createCard(t, owner, areaId)).id as number;
  });

  const state = async () => ({
    ...(await snapshot(t)),
    comments: await t.db.selectFrom('comments').selectAll().execute(),
    notifications: await t.db.selectFrom('notifications').selectAll().execute(),
  });

  it('gives every integer a route takes both bounds in the OpenAPI document', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json<{
      paths: Record<string, Record<string, { parameters?: Array<{ name: string; schema: unknown }>; requestBody?: unknown }>>;
    }>();
    const unbounded: string[] = [];
    const walk = (schema: unknown, where: string): void => {
      if (typeof schema !== 'object' || schema === null) return;
      const s = schema as Record<string, unknown>;
      const bounded = (s.minimum !== undefined && s.maximum !== undefined) || s.enum !== undefined || s.const !== undefined;
      if ((s.type === 'integer' || s.type === 'number') && !bounded) {
        unbounded.push(where);
      }
      for (const [key, child] of Object.entries(s)) walk(child, `${where}.${key}`);
    };
    for (const [path, operations] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(operations)) {
        for (const p of op.parameters ?? []) walk(p.schema, `${method} ${path} ${p.name}`);
        walk(op.requestBody, `${method} ${path} body`);
      }
    }
    expect(unbounded).toEqual([]);
  });

  it('answers ids beyond the 32-bit range in a query with 400 naming the parameter', async () => {
    const before = await state();
    for (const value of BEYOND) {
      for (const [method, url, field] of [
        ['GET', `/api/data/board?id=${value}&userId=${owner.id}`, 'id'],
        ['GET', `/api/data/cards?areaId=${value}`, 'areaId'],
        ['GET', `/api/data/card?cardID=${value}`, 'cardID'],
        ['GET', `/api/data/comment?cardId=${value}`, 'cardId'],
        ['GET', `/api/data/notifications?before=${value}`, 'before'],
        ['GET', `/api/data/notifications?limit=${value}`, 'limit'],
        ['PATCH', `/api/data/notifications?id=${value}`, 'id'],
        ['PATCH', `/api/data/notifications?boardId=${value}`, 'boardId'],
        ['DELETE', `/api/data/area?id=${value}&boardId=${boardId}`, 'id'],
      ] as const) {
        const res = await t.inject(owner, { method, url });
        expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(400);
        expect(res.json().error).toMatch(new RegExp(`^query: ${field} `));
      }
    }
    expect(await state()).toEqual(before);
  });

  it('answers ids beyond the 32-bit range in a body with 400 naming the field, and changes nothing', async () => {
    const before = await state();
    const big = 2_147_483_648;
    for (const [method, url, payload, field] of [
      ['PUT', '/api/data/card', { cardID: big, name: 'x' }, 'cardID'],
      ['PUT', '/api/data/card', { cardID: cardId, labelIds: [big] }, 'labelIds.0'],
      ['POST', '/api/data/archive', { type: 'card', id: big }, 'id'],
      ['POST', '/api/data/card', { areaId: big, name: 'x' }, 'areaId'],
      ['POST', '/api/data/comment', { cardId: big, content: 'x' }, 'cardId'],
      ['POST', '/api/data/cardMove', { cardId, fromAreaId: areaId, toAreaId: areaId, newIndex: big }, 'newIndex'],
      ['POST', '/api/data/cardOrder', { cardId, areaId, newIndex: 1e308 }, 'newIndex'],
      ['PATCH', '/api/data/board', { boardId, areas: [{ id: areaId, sort: big }] }, 'areas.0.sort'],
      ['POST', '/api/data/invite', { boardId: -big - 1, mail: 'a@example.test', permission: 'read' }, 'boardId'],
    ] as const) {
      const res = await t.inject(owner, { method, url, payload });
      expect(res.statusCode, `${method} ${url} ${JSON.stringify(payload)}: ${res.body}`).toBe(400);
      expect(res.json().error).toMatch(new RegExp(`^body: ${field.replace('.', '\\.')} `));
    }
    // JSON's own way to write a number too large for a double: read as Infinity, refused as no integer.
    const infinite = await t.inject(owner, {
      method: 'PUT',
      url: '/api/data/card',
      payload: '{"cardID":1e400,"name":"x"}',
      headers: { 'content-type': 'application/json' },
    });
    expect(infinite.statusCode).toBe(400);
    expect(infinite.json().error).toMatch(/^body: cardID /);
    expect(await state()).toEqual(before);
  });

  it('answers the largest id with 404, as any id that is not there', async () => {
    const max = 2_147_483_647;
    for (const [method, url, payload] of [
      ['GET', `/api/data/board?id=${max}&userId=${owner.id}`, undefined],
      ['GET', `/api/data/cards?areaId=${max}`, undefined],
      ['PUT', '/api/data/card', { cardID: max, name: 'x' }],
      ['POST', '/api/data/archive', { type: 'card', id: max }],
    ] as const) {
      const res = await t.inject(owner, { method, url, ...(payload ? { payload } : {}) });
      expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(404);
    }
    const notifications = await t.inject(owner, { method: 'GET', url: `/api/data/notifications?before=${max}` });
    expect(notifications.statusCode).toBe(200);
    const bottom = await t.inject(owner, {
      method: 'POST',
      url: '/api/data/cardOrder',
      payload: { cardId, areaId, newIndex: max },
    });
    expect(bottom.statusCode, bottom.body).toBe(200);
  });

  it('refuses an upload for a card or board id beyond the range with 400 and stores nothing', async () => {
    const before = await t.db.selectFrom('attachments').selectAll().execute();
    for (const [url, field] of [
      ['/api/data/attachment', 'cardId'],
      ['/api/data/image', 'boardId'],
    ]) {
      const body = multipart([
        { name: field!, value: '2147483648' },
        { name: 'file', filename: 'a.png', type: 'image/png', data: 'x' },
      ]);
      const res = await t.inject(owner, { method: 'POST', url: url!, ...body });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error).toBe(`body: ${field} must be a positive integer`);
    }
    expect(await t.db.selectFrom('attachments').selectAll().execute()).toEqual(before);
  });

  it('refuses a NUL character anywhere in a request with 400 naming the field, and stores nothing', async () => {
    const before = await state();
    for (const [method, url, payload, message] of [
      ['POST', '/api/data/card', { areaId, name: 'a\u0000b' }, 'body: name'],
      ['PUT', '/api/data/card', { cardID: cardId, content: 'x\u0000' }, 'body: content'],
      ['PUT', '/api/data/card', { cardID: cardId, assignees: ['\u0000'] }, 'body: assignees.0'],
      ['POST', '/api/data/comment', { cardId, content: '\u0000' }, 'body: content'],
      ['PATCH', '/api/data/board', { boardId, areas: [{ id: areaId, 'x\u0000': 1 }] }, 'body: areas.0.x\\0'],
      ['DELETE', `/api/data/invite?boardId=${boardId}&userId=a%00b`, undefined, 'query: userId'],
      ['GET', '/api/data/search?q=%00', undefined, 'query: q'],
      ['GET', '/api/data/avatar/a%00b', undefined, 'params: name'],
      ['POST', '/api/auth/sign-in/email', { email: 'a\u0000@example.test', password: 'whatever' }, 'body: email'],
    ] as const) {
      const res = await t.inject(owner, { method, url, ...(payload ? { payload } : {}) });
      expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(400);
      expect(res.json().error).toBe(`${message} must not contain the NUL character`);
    }
    expect(await state()).toEqual(before);
  });

  it('refuses a JSON body nested deeper than 32 levels with 400, even where no schema of ours looks', async () => {
    const deep = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
    for (const url of ['/api/data/card', '/api/auth/sign-in/email']) {
      for (const payload of [`{"name":${deep(40)}}`, deep(100_000)]) {
        const res = await t.inject(owner, { method: 'POST', url, payload, headers: { 'content-type': 'application/json' } });
        expect(res.statusCode, `${url}: ${res.body}`).toBe(400);
        expect(res.json().error).toBe('body: nested deeper than 32 levels');
      }
    }
    // 32 levels are still read (and then judged by the schema).
    const res = await t.inject(owner, {
      method: 'POST',
      url: '/api/data/card',
      payload: `{"areaId":${areaId},"name":"ok","x":${deep(31)}}`,
      headers: { 'content-type': 'application/json' },
    });
    expect(res.statusCode, res.body).toBe(200);
  });

  it('refuses a board file with a number too large for its column or a NUL character, and creates nothing', async () => {
    const file = (card: Record<string, unknown>) => ({
      format: 'service.board',
      formatVersion: 1,
      serviceVersion: '0.1.0',
      exportedAt: '2026-01-01T00:00:00.000Z',
      board: {
        id: 1,
        name: 'Imported',
        style: 'todo',
        status: 'private',
        color: null,
        image: null,
        owner: { id: 'x', name: 'X' },
        archivedAt: null,
      },
      members: [],
      labels: [],
      areas: [
        {
          id: 1,
          name: 'A',
          sort: 0,
          archivedAt: null,
          cards: [
            {
              id: 1,
              name: 'card',
              content: '',
              done: false,
              sort: 0,
              dueDate: null,
              assignees: [],
              assignee: null,
              labels: [],
              archivedAt: null,
              reminders: [],
              attachments: [],
              comments: [],
              activity: [],
              ...card,
            },
          ],
        },
      ],
      images: {},
    });
    const link = {
      id: 9,
      filename: 'site',
      filetype: 'text/html',
      filesize: 2_147_483_648,
      createdAt: '2026-01-01T00:00:00.000Z',
      file: null,
      url: 'https://example.com/x',
    };
    const before = await state();
    for (const [card, message] of [
      [{ attachments: [link] }, /filesize must be <= 2147483647/],
      [{ name: 'a\u0000b' }, /^board file: areas\.0\.cards\.0\.name must not contain the NUL character$/],
      [{ activity: [{ type: 'x', actor: null, data: { 'k\u0000': 1 }, createdAt: '2026-01-01T00:00:00.000Z' }] }, /NUL/],
    ] as const) {
      const zip = rawZip([{ name: '1-imported.json', data: JSON.stringify(file(card)) }]);
      const res = await importBoardFile(t, owner, zip, 'board.zip', 'application/zip');
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error).toMatch(message);
    }
    expect(await state()).toEqual(before);
  });

  const viewers: Viewer[] = [];
  afterEach(() => {
    for (const v of viewers.splice(0)) v.close();
  });

  it('answers a realtime subscription to an id beyond the range as malformed, and still serves the next one', async () => {
    const viewer = await Viewer.connect(await t.listen(), { 'x-api-key': owner.key });
    viewers.push(viewer);
    for (const boardIdBeyond of [2_147_483_648, 1e300]) {
      viewer.send({ type: 'subscribe', boardId: boardIdBeyond });
      expect((await viewer.next('error')).error).toBe('Unknown or malformed message');
      viewer.send({ type: 'presence', boardId, cardId: boardIdBeyond });
      expect((await viewer.next('error')).error).toBe('Unknown or malformed message');
    }
    viewer.send({ type: 'subscribe', boardId });
    expect((await viewer.next('subscribed')).boardId).toBe(boardId);
  });
});
