import { parse } from 'csv-parse/sync';
import { expect, it } from 'vitest';
import { importBoardFile, seedBoard, snapshot } from '../../../../test/factories.js';
import { eachDialect, type TestUser } from '../../../../test/harness.js';
import { rawZip, readZip } from '../../../../test/zip.js';

type Field = { id: number; name: string; type: string; options: string[]; showOnCard: boolean; sort: number };

eachDialect('custom fields in exports, imports and templates', (t) => {
  const made = async (user: TestUser, payload: Record<string, unknown>) => {
    const res = await t.inject(user, { method: 'POST', url: '/api/data/field', payload });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ field: Field }>().field;
  };
  const setValues = (user: TestUser, cardID: number, fields: Record<string, unknown>) =>
    t.inject(user, { method: 'PUT', url: '/api/data/card', payload: { cardID, fields } });
  const fieldsOf = async (user: TestUser, boardId: number) =>
    (await t.inject(user, { method: 'GET', url: `/api/data/fields?boardId=${boardId}` })).json<{ fields: Field[] }>().fields;
  /** Each card of the board by name, with its values keyed by field name. */
  const valuesByName = async (user: TestUser, boardId: number) => {
    const fields = new Map((await fieldsOf(user, boardId)).map((f) => [String(f.id), f.name]));
    const areas = (await t.inject(user, { method: 'GET', url: `/api/data/areas?boardId=${boardId}` })).json().areas;
    const out: Record<string, Record<string, unknown>> = {};
    for (const area of areas) {
      const cards = (await t.inject(user, { method: 'GET', url: `/api/data/cards?areaId=${area.id}` })).json().cards;
      for (const card of cards as Array<{ name: string; fields: Record<string, unknown> }>)
        out[card.name] = Object.fromEntries(Object.entries(card.fields).map(([id, v]) => [fields.get(id), v]));
    }
    return out;
  };
  const shape = (fields: Field[]) =>
    fields.map(({ name, type, options, showOnCard, sort }) => ({ name, type, options, showOnCard, sort }));

  /** A board with three fields and values on two of its three cards. */
  const fieldBoard = async (user: TestUser) => {
    const { board, cards } = await seedBoard(t, user, { Todo: ['one', 'two'], Done: ['three'] }, { name: 'Fields' });
    const size = await made(user, { boardId: board.id, name: 'Size', type: 'select', options: ['S', 'L'], showOnCard: true });
    const points = await made(user, { boardId: board.id, name: 'Points', type: 'number' });
    const ok = await made(user, { boardId: board.id, name: 'Approved', type: 'checkbox' });
    await setValues(user, cards.one!.id, { [size.id]: 'L', [points.id]: 3, [ok.id]: true });
    await setValues(user, cards.three!.id, { [points.id]: -1.5 });
    return { board, cards, size, points, ok };
  };
  const expectedValues = {
    one: { Size: 'L', Points: 3, Approved: true },
    two: {},
    three: { Points: -1.5 },
  };

  it('a board zip carries the fields and values, and importing it brings them back', async () => {
    const user = await t.signUp();
    const { board } = await fieldBoard(user);
    const res = await t.inject(user, { method: 'GET', url: `/api/data/board-export?boardId=${board.id}` });
    expect(res.statusCode).toBe(200);
    const zip = await readZip(res.rawPayload);
    const name = zip.names.find((n) => n.endsWith('.json'))!;
    const file = JSON.parse(zip.files.get(name)!.toString('utf8'));
    expect(file.fields.map((f: { name: string; type: string }) => [f.name, f.type])).toEqual([
      ['Size', 'select'],
      ['Points', 'number'],
      ['Approved', 'checkbox'],
    ]);
    const imported = await importBoardFile(t, user, res.rawPayload, 'board.zip', 'application/zip');
    expect(imported.statusCode, imported.body).toBe(200);
    const copy = imported.json().board.id as number;
    expect(copy).not.toBe(board.id);
    expect(shape(await fieldsOf(user, copy))).toEqual(shape(await fieldsOf(user, board.id)));
    expect(await valuesByName(user, copy)).toEqual(expectedValues);
  });

  it('refuses a board file whose value does not fit its field, writing nothing', async () => {
    const user = await t.signUp();
    const { board } = await fieldBoard(user);
    const res = await t.inject(user, { method: 'GET', url: `/api/data/board-export?boardId=${board.id}` });
    const zip = await readZip(res.rawPayload);
    const file = JSON.parse(zip.files.get(zip.names.find((n) => n.endsWith('.json'))!)!.toString('utf8'));
    const points = file.fields.find((f: { name: string }) => f.name === 'Points').id;
    file.areas[0].cards[0].fields[points] = 'lots';
    const before = await snapshot(t);
    const zipped = rawZip([{ name: 'board.json', data: Buffer.from(JSON.stringify(file)) }]);
    const refused = await importBoardFile(t, user, zipped, 'board.zip', 'application/zip');
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error).toContain('Points');
    expect(await snapshot(t)).toEqual(before);
  });

  it('the CSV has one column per field, in order, after the usual ones', async () => {
    const user = await t.signUp();
    const { board } = await fieldBoard(user);
    const res = await t.inject(user, { method: 'GET', url: `/api/data/board-export?boardId=${board.id}&format=csv` });
    expect(res.statusCode).toBe(200);
    const rows: string[][] = parse(res.body.replace(/^\uFEFF/, ''), { delimiter: ',' });
    expect(rows[0]!.slice(-3)).toEqual(['Size', 'Points', 'Approved']);
    expect(rows.slice(1).map((r) => [r[1], ...r.slice(-3)])).toEqual([
      ['one', 'L', '3', '✓'],
      ['two', '', '', ''],
      ['three', '', '-1.5', ''],
    ]);
  });

  it('a template keeps the fields and values; a board made from it has them', async () => {
    const user = await t.signUp();
    const { board } = await fieldBoard(user);
    const saved = await t.inject(user, {
      method: 'POST',
      url: '/api/data/template',
      payload: { boardId: board.id, name: 'With fields' },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const made = await t.inject(user, {
      method: 'POST',
      url: '/api/data/board-from-template',
      payload: { templateId: saved.json().template.id, name: 'From template' },
    });
    expect(made.statusCode, made.body).toBe(200);
    const copy = made.json().board.id as number;
    expect(shape(await fieldsOf(user, copy))).toEqual(shape(await fieldsOf(user, board.id)));
    expect(await valuesByName(user, copy)).toEqual(expectedValues);
  });

  it('the Trello import brings text, number, date, checkbox and list fields with their values', async () => {
    const user = await t.signUp();
    const trello = {
      name: 'From Trello',
      lists: [{ id: 'l1', name: 'Todo', pos: 1 }],
      cards: [
        {
          id: 'c1',
          idList: 'l1',
          name: 'First',
          pos: 1,
          customFieldItems: [
            { idCustomField: 'f1', value: { text: 'hello' } },
            { idCustomField: 'f2', value: { number: '42.5' } },
            { idCustomField: 'f3', value: { date: '2026-03-01T12:00:00.000Z' } },
            { idCustomField: 'f4', value: { checked: 'true' } },
            { idCustomField: 'f5', idValue: 'o2' },
            { idCustomField: 'unknown', value: { text: 'dropped' } },
          ],
        },
        { id: 'c2', idList: 'l1', name: 'Second', pos: 2, customFieldItems: [{ idCustomField: 'f2', value: { number: 'NaN' } }] },
      ],
      customFields: [
        { id: 'f1', name: 'Notes', type: 'text', pos: 1 },
        { id: 'f2', name: 'Estimate', type: 'number', pos: 2 },
        { id: 'f3', name: 'Review', type: 'date', pos: 3 },
        { id: 'f4', name: 'Signed off', type: 'checkbox', pos: 4, display: { cardFront: true } },
        {
          id: 'f5',
          name: 'Stage',
          type: 'list',
          pos: 5,
          options: [
            { id: 'o1', value: { text: 'Alpha' }, pos: 1 },
            { id: 'o2', value: { text: 'Beta' }, pos: 2 },
          ],
        },
      ],
    };
    const res = await importBoardFile(t, user, JSON.stringify(trello), 'trello.json', 'application/json');
    expect(res.statusCode, res.body).toBe(200);
    const boardId = res.json().board.id as number;
    expect(shape(await fieldsOf(user, boardId))).toEqual([
      { name: 'Notes', type: 'text', options: [], showOnCard: false, sort: 0 },
      { name: 'Estimate', type: 'number', options: [], showOnCard: false, sort: 1 },
      { name: 'Review', type: 'date', options: [], showOnCard: false, sort: 2 },
      { name: 'Signed off', type: 'checkbox', options: [], showOnCard: true, sort: 3 },
      { name: 'Stage', type: 'select', options: ['Alpha', 'Beta'], showOnCard: false, sort: 4 },
    ]);
    expect(await valuesByName(user, boardId)).toEqual({
      First: { Notes: 'hello', Estimate: 42.5, Review: '2026-03-01T12:00:00.000Z', 'Signed off': true, Stage: 'Beta' },
      Second: {},
    });
  });
});
