import { afterEach, expect, it } from 'vitest';
import { seedBoard, share, snapshot, updateCard } from '../../../../test/factories.js';
import { eachDialect, type TestUser } from '../../../../test/harness.js';
import { Viewer } from '../../../../test/realtime-client.js';

eachDialect('custom fields', (t) => {
  const open: Viewer[] = [];
  afterEach(() => {
    for (const v of open.splice(0)) v.close();
  });
  const add = (user: TestUser, payload: Record<string, unknown>) =>
    t.inject(user, { method: 'POST', url: '/api/data/field', payload });
  const change = (user: TestUser, payload: Record<string, unknown>) =>
    t.inject(user, { method: 'PUT', url: '/api/data/field', payload });
  const remove = (user: TestUser, id: unknown) => t.inject(user, { method: 'DELETE', url: `/api/data/field?id=${String(id)}` });
  const list = (user: TestUser, boardId: number) => t.inject(user, { method: 'GET', url: `/api/data/fields?boardId=${boardId}` });
  const made = async (user: TestUser, payload: Record<string, unknown>) => {
    const res = await add(user, payload);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ field: { id: number; name: string; options: string[]; sort: number } }>().field;
  };
  const setValues = (user: TestUser, cardID: number, fields: Record<string, unknown>) =>
    t.inject(user, { method: 'PUT', url: '/api/data/card', payload: { cardID, fields } });
  const cardOf = async (user: TestUser, cardID: number) =>
    (await t.inject(user, { method: 'GET', url: `/api/data/card?cardID=${cardID}` })).json().card;
  const eventNames = async (boardId: number) =>
    (await t.db.selectFrom('board_events').select('name').where('boardId', '=', boardId).orderBy('version').execute()).map(
      (e) => e.name,
    );

  it('adds, lists in order, renames, reorders, shows on card and removes fields', async () => {
    const user = await t.signUp();
    const board = await t.createBoard(user);
    const res = await add(user, { boardId: board.id, name: '  Estimate ', type: 'number', showOnCard: true });
    expect(res.json()).toEqual({
      field: {
        id: expect.any(Number),
        boardId: board.id,
        name: 'Estimate',
        type: 'number',
        options: [],
        showOnCard: true,
        sort: 0,
      },
    });
    const estimate = res.json().field;
    const priority = await made(user, { boardId: board.id, name: 'Priority', type: 'select', options: ['Low', ' High '] });
    expect(priority).toMatchObject({ options: ['Low', 'High'], showOnCard: false, sort: 1 });
    const link = await made(user, { boardId: board.id, name: 'Link', type: 'url' });

    const renamed = await change(user, { id: estimate.id, name: 'Points', showOnCard: false });
    expect(renamed.json().field).toMatchObject({ id: estimate.id, name: 'Points', showOnCard: false, sort: 0 });
    // Same name in another case is the field's own: allowed.
    expect((await change(user, { id: estimate.id, name: 'POINTS' })).json().field.name).toBe('POINTS');
    const moved = await change(user, { id: link.id, sort: 0 });
    expect(moved.json().field.sort).toBe(0);
    expect((await list(user, board.id)).json().fields.map((f: { name: string; sort: number }) => [f.name, f.sort])).toEqual([
      ['Link', 0],
      ['POINTS', 1],
      ['Priority', 2],
    ]);
    // Beyond the end means last.
    await change(user, { id: link.id, sort: 99 });
    expect((await list(user, board.id)).json().fields.map((f: { name: string }) => f.name)).toEqual([
      'POINTS',
      'Priority',
      'Link',
    ]);

    expect((await remove(user, priority.id)).json()).toEqual({ success: true });
    expect((await list(user, board.id)).json().fields.map((f: { name: string; sort: number }) => [f.name, f.sort])).toEqual([
      ['POINTS', 0],
      ['Link', 1],
    ]);
    expect(await eventNames(board.id)).toEqual([
      'board.created',
      'field.created',
      'field.created',
      'field.created',
      'field.updated',
      'field.updated',
      // The move to the top: the moved field, then the two it passed.
      'field.updated',
      'field.updated',
      'field.updated',
      'field.updated',
      'field.updated',
      'field.updated',
      'field.deleted',
      'field.updated',
    ]);
  });

  it('refuses bad fields, a 21st field, a taken name, a type change, readers and strangers, changing nothing', async () => {
    const owner = await t.signUp();
    const reader = await t.signUp();
    const stranger = await t.signUp();
    const board = await t.createBoard(owner);
    await share(t, board.id, reader, 'read');
    const text = await made(owner, { boardId: board.id, name: 'Notes', type: 'text' });
    const select = await made(owner, { boardId: board.id, name: 'Size', type: 'select', options: ['S', 'M'] });
    const before = await snapshot(t);
    const refusals: Array<[TestUser, Record<string, unknown>, number]> = [
      [owner, { boardId: board.id, name: 'x', type: 'colour' }, 400],
      [owner, { boardId: board.id, name: '   ', type: 'text' }, 400],
      [owner, { boardId: board.id, name: 'x'.repeat(65), type: 'text' }, 400],
      [owner, { boardId: board.id, name: 'notes', type: 'number' }, 400],
      [owner, { boardId: board.id, name: 'Pick', type: 'select' }, 400],
      [owner, { boardId: board.id, name: 'Pick', type: 'select', options: [] }, 400],
      [owner, { boardId: board.id, name: 'Pick', type: 'select', options: Array.from({ length: 51 }, (_, i) => `o${i}`) }, 400],
      [owner, { boardId: board.id, name: 'Pick', type: 'select', options: ['a', 'A'] }, 400],
      [owner, { boardId: board.id, name: 'Pick', type: 'select', options: ['a', ' '] }, 400],
      [owner, { boardId: board.id, name: 'Pick', type: 'text', options: ['a'] }, 400],
      [owner, { boardId: board.id, type: 'text' }, 400],
      [owner, { boardId: 'x', name: 'Pick', type: 'text' }, 400],
      [reader, { boardId: board.id, name: 'Mine', type: 'text' }, 403],
      [stranger, { boardId: board.id, name: 'Mine', type: 'text' }, 404],
      [owner, { boardId: 999999, name: 'Mine', type: 'text' }, 404],
    ];
    for (const [user, payload, status] of refusals) {
      const res = await add(user, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(status);
      expect(res.json().error).toEqual(expect.any(String));
    }
    const updates: Array<[TestUser, Record<string, unknown>, number]> = [
      [owner, { id: text.id, type: 'number' }, 400],
      [owner, { id: text.id, name: 'SIZE' }, 400],
      [owner, { id: text.id, options: ['a'] }, 400],
      [owner, { id: select.id, options: [] }, 400],
      [owner, { id: select.id, sort: -1 }, 400],
      [reader, { id: text.id, name: 'Mine' }, 403],
      [stranger, { id: text.id, name: 'Mine' }, 404],
      [owner, { id: 999999, name: 'Mine' }, 404],
    ];
    for (const [user, payload, status] of updates)
      expect((await change(user, payload)).statusCode, JSON.stringify(payload)).toBe(status);
    expect((await remove(reader, text.id)).statusCode).toBe(403);
    expect((await remove(stranger, text.id)).statusCode).toBe(404);
    expect((await remove(owner, 999999)).statusCode).toBe(404);
    expect((await remove(owner, 'x')).statusCode).toBe(400);
    expect((await list(stranger, board.id)).statusCode).toBe(404);
    expect((await list(reader, board.id)).json().fields).toHaveLength(2);
    expect(await snapshot(t)).toEqual(before);

    // The same type is no change; 18 more make 20, the 21st is refused.
    expect((await change(owner, { id: text.id, type: 'text' })).statusCode).toBe(200);
    for (let i = 3; i <= 20; i++) await made(owner, { boardId: board.id, name: `f${i}`, type: 'checkbox' });
    const full = await snapshot(t);
    const twentyFirst = await add(owner, { boardId: board.id, name: 'f21', type: 'checkbox' });
    expect(twentyFirst.statusCode).toBe(400);
    expect(twentyFirst.json().error).toContain('TOO_MANY_FIELDS');
    expect(await snapshot(t)).toEqual(full);
    // Another board has its own names.
    const other = await t.createBoard(owner);
    expect((await add(owner, { boardId: other.id, name: 'Notes', type: 'text' })).statusCode).toBe(200);
  });

  it('sets values by type on a card; every card answer carries only the set ones', async () => {
    const user = await t.signUp();
    const { board, areas, cards } = await seedBoard(t, user, { Todo: ['one', 'two'] });
    const text = await made(user, { boardId: board.id, name: 'Notes', type: 'text' });
    const points = await made(user, { boardId: board.id, name: 'Points', type: 'number' });
    const due = await made(user, { boardId: board.id, name: 'Review', type: 'date' });
    const size = await made(user, { boardId: board.id, name: 'Size', type: 'select', options: ['Small', 'Large'] });
    const ok = await made(user, { boardId: board.id, name: 'Approved', type: 'checkbox' });
    const link = await made(user, { boardId: board.id, name: 'Spec', type: 'url' });
    const one = cards.one!.id as number;

    expect((await cardOf(user, one)).fields).toEqual({});
    const res = await setValues(user, one, {
      [text.id]: 'wombat migration notes',
      [points.id]: 2.5,
      [due.id]: '2026-12-24',
      [size.id]: 'large',
      [ok.id]: true,
      [link.id]: 'https://example.com/spec',
    });
    expect(res.statusCode, res.body).toBe(200);
    const expected = {
      [text.id]: 'wombat migration notes',
      [points.id]: 2.5,
      [due.id]: '2026-12-24',
      [size.id]: 'Large',
      [ok.id]: true,
      [link.id]: 'https://example.com/spec',
    };
    expect(res.json().card.fields).toEqual(expected);
    expect((await cardOf(user, one)).fields).toEqual(expected);
    const listed = (await t.inject(user, { method: 'GET', url: `/api/data/cards?areaId=${areas.Todo!.id}` })).json().cards;
    expect(listed.map((c: { fields: unknown }) => c.fields)).toEqual([expected, {}]);

    // A date-time is kept in UTC; null clears; a field left out stays.
    const again = await setValues(user, one, { [due.id]: '2026-12-24T10:00:00+02:00', [ok.id]: null, [points.id]: -3 });
    expect(again.json().card.fields).toEqual({
      ...expected,
      [due.id]: '2026-12-24T08:00:00.000Z',
      [points.id]: -3,
      [ok.id]: undefined,
    });
    expect(Object.keys(again.json().card.fields)).not.toContain(String(ok.id));

    // Search finds a text field's words; the hit carries the values.
    const hits = (await t.inject(user, { method: 'GET', url: '/api/data/search?q=wombat%20migr' })).json().cards;
    expect(hits.map((h: { id: number; fields: Record<string, unknown> }) => [h.id, h.fields[text.id]])).toEqual([
      [one, 'wombat migration notes'],
    ]);
    expect((await t.inject(user, { method: 'GET', url: '/api/data/search?q=ombat' })).json().cards).toEqual([]);

    // My work: an assigned card carries its values.
    await updateCard(t, user, one, { assignees: [user.id] });
    const work = (await t.inject(user, { method: 'GET', url: '/api/data/my-work' })).json();
    const mine = Object.values(work.groups as Record<string, Array<{ id: number; fields: unknown }>>)
      .flat()
      .find((c) => c.id === one);
    expect(mine?.fields).toEqual(again.json().card.fields);

    // The public link: cards carry values, the board its fields.
    const url = (await t.inject(user, { method: 'POST', url: '/api/data/public-link', payload: { boardId: board.id } })).json()
      .link.url as string;
    const shared = (await t.inject(null, { method: 'GET', url: `/api/public/${url.split('/').pop()!}` })).json();
    expect(shared.areas[0].cards[0].fields).toEqual(again.json().card.fields);
    expect(shared.fields.map((f: { name: string }) => f.name)).toEqual(['Notes', 'Points', 'Review', 'Size', 'Approved', 'Spec']);

    // A copy carries the values.
    const copy = await t.inject(user, { method: 'POST', url: '/api/data/card-duplicate', payload: { cardID: one } });
    expect(copy.json().card.fields).toEqual(again.json().card.fields);
  });

  it('refuses a bad value naming the field, and changes nothing (not even the good values beside it)', async () => {
    const owner = await t.signUp();
    const reader = await t.signUp();
    const { board, cards } = await seedBoard(t, owner, { Todo: ['one'] });
    await share(t, board.id, reader, 'read');
    const other = await seedBoard(t, owner, { Todo: [] });
    const foreign = await made(owner, { boardId: other.board.id, name: 'Elsewhere', type: 'text' });
    const f = {
      text: await made(owner, { boardId: board.id, name: 'Notes', type: 'text' }),
      number: await made(owner, { boardId: board.id, name: 'Points', type: 'number' }),
      date: await made(owner, { boardId: board.id, name: 'Review', type: 'date' }),
      select: await made(owner, { boardId: board.id, name: 'Size', type: 'select', options: ['S'] }),
      checkbox: await made(owner, { boardId: board.id, name: 'Approved', type: 'checkbox' }),
      url: await made(owner, { boardId: board.id, name: 'Spec', type: 'url' }),
    };
    const one = cards.one!.id as number;
    await setValues(owner, one, { [f.text.id]: 'kept' });
    const before = await snapshot(t);
    const bad: Array<[{ id: number; name: string }, unknown]> = [
      [f.text, 'x'.repeat(1001)],
      [f.text, 5],
      [f.number, '5'],
      [f.number, true],
      [f.date, '2026-02-30'],
      [f.date, 'tomorrow'],
      [f.date, 20261224],
      [f.select, 'XL'],
      [f.checkbox, 'true'],
      [f.checkbox, 1],
      [f.url, 'javascript:alert(1)'],
      [f.url, 'ftp://example.com'],
      [f.url, 'not a url'],
    ];
    for (const [field, value] of bad) {
      const res = await setValues(owner, one, { [f.number.id]: 7, [field.id]: value });
      expect(res.statusCode, `${field.name} ${JSON.stringify(value)}`).toBe(400);
      expect(res.json().error).toContain(field.name);
    }
    const unknownField = await setValues(owner, one, { [foreign.id]: 'x' });
    expect(unknownField.statusCode).toBe(400);
    expect(unknownField.json().error).toContain(`fields/${foreign.id}`);
    expect((await setValues(owner, one, { abc: 'x' })).statusCode).toBe(400);
    // JSON has no infinity: a number too large for a double parses as one.
    const infinite = await t.inject(owner, {
      method: 'PUT',
      url: '/api/data/card',
      headers: { 'content-type': 'application/json' },
      payload: `{"cardID":${one},"fields":{"${f.number.id}":1e400}}`,
    });
    expect(infinite.statusCode).toBe(400);
    expect(infinite.json().error).toContain(String(f.number.id));
    expect((await setValues(reader, one, { [f.text.id]: 'mine' })).statusCode).toBe(403);
    const stranger = await t.signUp();
    expect((await setValues(stranger, one, { [f.text.id]: 'mine' })).statusCode).toBe(404);
    expect(await snapshot(t)).toEqual(before);
    expect((await setValues(owner, one, { [f.text.id]: 'x'.repeat(1000) })).statusCode).toBe(200);
  });

  it('filters an area’s cards by a field value', async () => {
    const user = await t.signUp();
    const { board, areas, cards } = await seedBoard(t, user, { Todo: ['a', 'b', 'c'] });
    const size = await made(user, { boardId: board.id, name: 'Size', type: 'select', options: ['S', 'L'] });
    const ok = await made(user, { boardId: board.id, name: 'Approved', type: 'checkbox' });
    const notes = await made(user, { boardId: board.id, name: 'Notes', type: 'text' });
    const points = await made(user, { boardId: board.id, name: 'Points', type: 'number' });
    await setValues(user, cards.a!.id, { [size.id]: 'S', [ok.id]: true, [notes.id]: 'Needs Review', [points.id]: 3 });
    await setValues(user, cards.b!.id, { [size.id]: 'L', [ok.id]: false, [points.id]: 30 });
    const names = async (query: string) => {
      const res = await t.inject(user, { method: 'GET', url: `/api/data/cards?areaId=${areas.Todo!.id}&${query}` });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().cards.map((c: { name: string }) => c.name);
    };
    expect(await names(`field=${size.id}&value=L`)).toEqual(['b']);
    expect(await names(`field=${size.id}&value=s`)).toEqual(['a']);
    expect(await names(`field=${size.id}`)).toEqual(['a', 'b']);
    expect(await names(`field=${ok.id}&value=true`)).toEqual(['a']);
    expect(await names(`field=${ok.id}&value=false`)).toEqual(['b', 'c']);
    expect(await names(`field=${notes.id}&value=review`)).toEqual(['a']);
    expect(await names(`field=${points.id}&value=3`)).toEqual(['a']);
    const other = await seedBoard(t, user, { X: [] });
    const foreign = await made(user, { boardId: other.board.id, name: 'Size', type: 'text' });
    expect(
      (await t.inject(user, { method: 'GET', url: `/api/data/cards?areaId=${areas.Todo!.id}&field=${foreign.id}` })).statusCode,
    ).toBe(400);
  });

  it('removing a field removes its values; dropping an option clears the values that had it', async () => {
    const user = await t.signUp();
    const { board, cards } = await seedBoard(t, user, { Todo: ['a', 'b'] });
    const size = await made(user, { boardId: board.id, name: 'Size', type: 'select', options: ['S', 'M', 'L'] });
    const notes = await made(user, { boardId: board.id, name: 'Notes', type: 'text' });
    await setValues(user, cards.a!.id, { [size.id]: 'S', [notes.id]: 'n' });
    await setValues(user, cards.b!.id, { [size.id]: 'L' });
    const changed = await change(user, { id: size.id, options: ['s', 'M'] });
    expect(changed.json().field.options).toEqual(['s', 'M']);
    expect((await cardOf(user, cards.a!.id)).fields).toEqual({ [size.id]: 's', [notes.id]: 'n' });
    expect((await cardOf(user, cards.b!.id)).fields).toEqual({});
    const updates = await t.db
      .selectFrom('board_events')
      .select(['name', 'data'])
      .where('boardId', '=', board.id)
      .where('name', '=', 'card.updated')
      .orderBy('version', 'desc')
      .limit(2)
      .execute();
    expect(updates.map((e) => JSON.parse(e.data).fields)).toEqual([{ [size.id]: null }, { [size.id]: 's' }]);

    await remove(user, size.id);
    expect((await cardOf(user, cards.a!.id)).fields).toEqual({ [notes.id]: 'n' });
    const left = await t.db
      .selectFrom('card_field_values')
      .selectAll()
      .where('cardId', 'in', [cards.a!.id, cards.b!.id])
      .execute();
    expect(left).toEqual([{ cardId: cards.a!.id, fieldId: notes.id, value: '"n"' }]);
  });

  it('reaches viewers: field events, and card.updated carries the values it set', async () => {
    const owner = await t.signUp();
    const { board, cards } = await seedBoard(t, owner, { Todo: ['a'] });
    const viewer = await Viewer.connect(await t.listen(), { cookie: owner.cookie });
    open.push(viewer);
    viewer.send({ type: 'subscribe', boardId: board.id });
    await viewer.next('subscribed', (m) => m.boardId === board.id);
    const field = await made(owner, { boardId: board.id, name: 'Points', type: 'number' });
    expect((await viewer.next('event', (m) => m.name === 'field.created')).data).toEqual({ field });
    await change(owner, { id: field.id, name: 'Estimate' });
    expect((await viewer.next('event', (m) => m.name === 'field.updated')).data).toEqual({
      field: { ...field, name: 'Estimate' },
    });
    await setValues(owner, cards.a!.id, { [field.id]: 5 });
    const set = await viewer.next('event', (m) => m.name === 'card.updated');
    expect(set.data).toMatchObject({ card: { id: cards.a!.id, fields: { [field.id]: 5 } }, fields: { [field.id]: 5 } });
    await setValues(owner, cards.a!.id, { [field.id]: null });
    const cleared = await viewer.next('event', (m) => m.name === 'card.updated');
    expect(cleared.data).toMatchObject({ card: { fields: {} }, fields: { [field.id]: null } });
    // A card change without values says nothing of fields.
    await updateCard(t, owner, cards.a!.id, { name: 'renamed' });
    expect((await viewer.next('event', (m) => m.name === 'card.updated')).data).not.toHaveProperty('fields');
    await remove(owner, field.id);
    expect((await viewer.next('event', (m) => m.name === 'field.deleted')).data).toEqual({ fieldId: field.id });
  });

  it('is in the OpenAPI document, and card updates document fields', async () => {
    const doc = (await t.inject(null, { method: 'GET', url: '/api/docs/json' })).json<{
      paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: { properties?: object } }> } }>>;
    }>();
    expect(Object.keys(doc.paths['/api/data/field']!).sort()).toEqual(['delete', 'post', 'put']);
    expect(Object.keys(doc.paths['/api/data/fields']!)).toEqual(['get']);
    const update = doc.paths['/api/data/card']!.put!.requestBody!.content['application/json']!.schema;
    expect(update.properties).toHaveProperty('fields');
  });
});
