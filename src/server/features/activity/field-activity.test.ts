import { expect, it } from 'vitest';
import { importBoardFile, seedBoard, share, snapshot } from '../../../../test/factories.js';
import { eachDialect, type TestUser } from '../../../../test/harness.js';
import { readZip } from '../../../../test/zip.js';

/** A custom field value set or cleared is a history entry of the card, naming the field and the value. */
eachDialect('custom field values in the card history', (t) => {
  const made = async (user: TestUser, payload: Record<string, unknown>) => {
    const res = await t.inject(user, { method: 'POST', url: '/api/data/field', payload });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ field: { id: number } }>().field;
  };
  const setValues = (user: TestUser, cardID: number, fields: Record<string, unknown>) =>
    t.inject(user, { method: 'PUT', url: '/api/data/card', payload: { cardID, fields } });
  const history = async (user: TestUser, cardID: number) =>
    (await t.inject(user, { method: 'GET', url: `/api/data/card-activity?cardID=${cardID}` })).json<{
      activity: Array<{ type: string; data: Record<string, unknown> | null; actor: { id: string } | null }>;
    }>().activity;
  const fieldEntries = async (user: TestUser, cardID: number) =>
    (await history(user, cardID)).filter((e) => e.type === 'field').map((e) => e.data);
  const activityRows = async () =>
    Number(
      (
        await t.db
          .selectFrom('card_activity')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('records each value set, changed or cleared, once, with the field name and type; an unchanged value records nothing', async () => {
    const user = await t.signUp();
    const { board, cards } = await seedBoard(t, user, { Todo: ['a'] });
    const priority = await made(user, { boardId: board.id, name: 'Priority', type: 'select', options: ['Low', 'High'] });
    const ok = await made(user, { boardId: board.id, name: 'Approved', type: 'checkbox' });
    const start = await made(user, { boardId: board.id, name: 'Start', type: 'date' });
    const cardID = cards.a!.id as number;

    expect((await setValues(user, cardID, { [priority.id]: 'high', [ok.id]: true, [start.id]: '2026-04-02' })).statusCode).toBe(
      200,
    );
    expect((await setValues(user, cardID, { [priority.id]: 'High', [ok.id]: true })).statusCode).toBe(200);
    expect((await setValues(user, cardID, { [priority.id]: null, [ok.id]: false })).statusCode).toBe(200);
    // Clearing what has no value is no change.
    expect((await setValues(user, cardID, { [priority.id]: null })).statusCode).toBe(200);
    expect(await fieldEntries(user, cardID)).toEqual([
      { fieldId: priority.id, name: 'Priority', fieldType: 'select', value: 'High' },
      { fieldId: ok.id, name: 'Approved', fieldType: 'checkbox', value: true },
      { fieldId: start.id, name: 'Start', fieldType: 'date', value: '2026-04-02' },
      { fieldId: priority.id, name: 'Priority', fieldType: 'select', value: null },
      { fieldId: ok.id, name: 'Approved', fieldType: 'checkbox', value: false },
    ]);
    expect((await history(user, cardID)).find((e) => e.type === 'field')!.actor!.id).toBe(user.id);
  });

  it('a refused change (bad value, reader, stranger) records nothing', async () => {
    const owner = await t.signUp();
    const reader = await t.signUp();
    const stranger = await t.signUp();
    const { board, cards } = await seedBoard(t, owner, { Todo: ['a'] });
    await share(t, board.id, reader, 'read');
    const priority = await made(owner, { boardId: board.id, name: 'Priority', type: 'select', options: ['Low', 'High'] });
    const cardID = cards.a!.id as number;
    const rows = await activityRows();
    const before = await snapshot(t);
    expect((await setValues(owner, cardID, { [priority.id]: 'Urgent' })).statusCode).toBe(400);
    expect((await setValues(reader, cardID, { [priority.id]: 'Low' })).statusCode).toBe(403);
    expect((await setValues(stranger, cardID, { [priority.id]: 'Low' })).statusCode).toBe(404);
    expect(await activityRows()).toBe(rows);
    expect(await snapshot(t)).toEqual(before);
  });

  it('a card created with values answers with them and records them; a bad value refuses the whole create', async () => {
    const user = await t.signUp();
    const { board, areas } = await seedBoard(t, user, { Todo: [] });
    const points = await made(user, { boardId: board.id, name: 'Points', type: 'number' });
    const create = (payload: Record<string, unknown>) => t.inject(user, { method: 'POST', url: '/api/data/card', payload });
    const res = await create({ areaId: areas.Todo!.id, name: 'n', fields: { [points.id]: 5 } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().card.fields).toEqual({ [points.id]: 5 });
    const cardID = res.json().card.id as number;
    expect((await t.inject(user, { method: 'GET', url: `/api/data/card?cardID=${cardID}` })).json().card.fields).toEqual({
      [points.id]: 5,
    });
    expect((await history(user, cardID)).map((e) => e.type)).toEqual(['created', 'field']);
    const before = await snapshot(t);
    const rows = await activityRows();
    const bad = await create({ areaId: areas.Todo!.id, name: 'm', fields: { [points.id]: 'five' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toContain('Points');
    expect((await create({ areaId: areas.Todo!.id, name: 'm', fields: { 999999: 1 } })).statusCode).toBe(400);
    expect(await snapshot(t)).toEqual(before);
    expect(await activityRows()).toBe(rows);
  });

  it('restoring a card to a past version records the values it put back', async () => {
    const user = await t.signUp();
    const { board, cards } = await seedBoard(t, user, { Todo: ['a'] });
    const points = await made(user, { boardId: board.id, name: 'Points', type: 'number' });
    const cardID = cards.a!.id as number;
    await setValues(user, cardID, { [points.id]: 1 });
    const { version } = await t.db.selectFrom('boards').select('version').where('id', '=', board.id).executeTakeFirstOrThrow();
    await setValues(user, cardID, { [points.id]: 2 });
    const res = await t.inject(user, { method: 'POST', url: '/api/data/card-restore', payload: { cardID, version } });
    expect(res.statusCode, res.body).toBe(200);
    expect((await fieldEntries(user, cardID)).map((d) => d!.value)).toEqual([1, 2, 1]);
  });

  it('the board zip carries the entries, and an import points them at its own fields', async () => {
    const user = await t.signUp();
    const { board, cards } = await seedBoard(t, user, { Todo: ['a'] }, { name: 'With history' });
    const points = await made(user, { boardId: board.id, name: 'Points', type: 'number' });
    await setValues(user, cards.a!.id as number, { [points.id]: 8 });
    const res = await t.inject(user, { method: 'GET', url: `/api/data/board-export?boardId=${board.id}` });
    expect(res.statusCode).toBe(200);
    const zip = await readZip(res.rawPayload);
    const file = JSON.parse(zip.files.get(zip.names.find((n) => n.endsWith('.json'))!)!.toString('utf8'));
    const exported = file.areas[0].cards[0].activity.filter((e: { type: string }) => e.type === 'field');
    expect(exported.map((e: { data: unknown }) => e.data)).toEqual([
      { fieldId: points.id, name: 'Points', fieldType: 'number', value: 8 },
    ]);

    const imported = await importBoardFile(t, user, res.rawPayload, 'board.zip', 'application/zip');
    expect(imported.statusCode, imported.body).toBe(200);
    const copy = imported.json().board.id as number;
    const [field] = (await t.inject(user, { method: 'GET', url: `/api/data/fields?boardId=${copy}` })).json().fields;
    expect(field.id).not.toBe(points.id);
    const [area] = (await t.inject(user, { method: 'GET', url: `/api/data/areas?boardId=${copy}` })).json().areas;
    const [card] = (await t.inject(user, { method: 'GET', url: `/api/data/cards?areaId=${area.id}` })).json().cards;
    expect(await fieldEntries(user, card.id)).toEqual([{ fieldId: field.id, name: 'Points', fieldType: 'number', value: 8 }]);
  });
});
