import { describe, expect, it } from 'vitest';
import { checklistOf } from '../../../shared/checklist.js';
import { eachDialect, type TestContext, type TestUser } from '../../../../test/harness.js';
import { importBoardFile } from '../../../../test/factories.js';
import { rawZip, readZip } from '../../../../test/zip.js';
import { convertTrello } from './trello.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

/** A Trello board export as "Print and export → Export as JSON" writes it, cut down to what matters here. */
function trelloExport(): Json {
  return {
    id: '5f1a2b3c4d5e6f7a8b9c0d1e',
    name: 'Umzug 🚚 nach Łódź',
    desc: 'Board description',
    closed: false,
    prefs: { background: 'green', backgroundColor: '#519839', backgroundImage: null },
    labels: [
      { id: 'l-red', idBoard: 'b', name: '', color: 'red' },
      { id: 'l-urgent', idBoard: 'b', name: 'Dringend ⚡', color: 'orange' },
      { id: 'l-none', idBoard: 'b', name: '', color: null },
      { id: 'l-dark', idBoard: 'b', name: '', color: 'green_dark' },
      ...Array.from({ length: 30 }, (_, i) => ({ id: `l-${i}`, idBoard: 'b', name: `Etikett ${i}`, color: 'blue' })),
    ],
    lists: [
      { id: 'L2', name: 'Doing — läuft', closed: false, pos: 32768 },
      { id: 'L1', name: 'To do 📝', closed: false, pos: 16384 },
      { id: 'L4', name: 'Done', closed: false, pos: 65536 },
      { id: 'L3', name: 'Old', closed: true, pos: 49152 },
    ],
    cards: [
      { id: 'c1', idList: 'L1', name: 'Third ✓', desc: '', closed: false, pos: 300, idLabels: [], due: null, dueComplete: false },
      {
        id: 'c2',
        idList: 'L1',
        name: 'Erste Karte',
        desc: 'Beschreibung **fett**',
        closed: false,
        pos: 100,
        idLabels: ['l-red', 'l-urgent', 'l-none'],
        idMembers: ['m-zoe'],
        due: '2026-03-01T12:00:00.000Z',
        dueComplete: true,
        idChecklists: ['k1', 'k2'],
        attachments: [
          { id: 'a1', name: 'Plan [v2].pdf', url: 'https://trello.com/1/cards/c2/attachments/a1/download/Plan.pdf' },
          { id: 'a2', name: 'Spec', url: 'https://example.com/spec (draft)' },
          { id: 'a3', name: 'local', url: 'file:///C:/x' },
        ],
      },
      {
        id: 'c3',
        idList: 'L1',
        name: 'Zweite',
        closed: true,
        pos: 200,
        dateLastActivity: '2025-12-01T10:00:00.000Z',
        due: null,
        dueComplete: false,
      },
      {
        id: 'c4',
        idList: 'L2',
        name: 'Ünïcödé 日本語',
        closed: false,
        pos: 5,
        idLabels: ['l-dark', 'l-0'],
        due: '2026-04-01T00:00:00.000Z',
        dueComplete: false,
      },
      { id: 'c5', idList: 'L3', name: 'In a closed list', closed: false, pos: 1 },
      { id: 'c6', idList: 'L-gone', name: 'Lost card', closed: false, pos: 1 },
    ],
    checklists: [
      {
        id: 'k2',
        idCard: 'c2',
        name: 'Zweite Liste',
        pos: 2,
        checkItems: [{ id: 'i3', name: 'gamma', state: 'incomplete', pos: 1 }],
      },
      {
        id: 'k1',
        idCard: 'c2',
        name: 'Erste Liste',
        pos: 1,
        checkItems: [
          { id: 'i2', name: 'beta', state: 'incomplete', pos: 2 },
          { id: 'i1', name: 'alpha', state: 'complete', pos: 1 },
        ],
      },
    ],
    // Newest first, as Trello writes them.
    actions: [
      {
        id: 'x5',
        type: 'commentCard',
        date: '2026-01-03T09:00:00.000Z',
        data: { text: 'Zweiter Kommentar', card: { id: 'c2', name: 'Erste Karte' } },
        memberCreator: { id: 'm-zoe', fullName: 'Zoë Außen', username: 'zoe' },
      },
      { id: 'x4', type: 'updateCard', date: '2026-01-02T09:00:00.000Z', data: { card: { id: 'c2' } } },
      {
        id: 'x3',
        type: 'commentCard',
        date: '2026-01-01T09:00:00.000Z',
        data: { text: 'Erster 👍', card: { id: 'c2', name: 'Erste Karte' } },
        idMemberCreator: 'm-mika',
      },
      {
        id: 'x2',
        type: 'commentCard',
        date: '2025-12-31T09:00:00.000Z',
        data: { text: 'verwaist', card: { id: 'c-deleted', name: 'Deleted card' } },
        memberCreator: { id: 'm-zoe', fullName: 'Zoë Außen', username: 'zoe' },
      },
      { id: 'x1', type: 'createCard', date: '2025-12-30T09:00:00.000Z', data: { card: { id: 'c1' } } },
    ],
    members: [
      { id: 'm-zoe', fullName: 'Zoë Außen', username: 'zoe' },
      { id: 'm-mika', fullName: 'Mika Häkkinen', username: 'mika' },
    ],
  };
}

const upload = importBoardFile;

async function exported(t: TestContext, user: TestUser, boardId: number): Promise<Json> {
  const res = await t.inject(user, { method: 'GET', url: `/api/data/board-export?boardId=${boardId}` });
  expect(res.statusCode, res.body).toBe(200);
  const { files } = await readZip(res.rawPayload);
  const json = [...files.keys()].find((n) => n.endsWith('.json'))!;
  return JSON.parse(files.get(json)!.toString('utf8'));
}

async function rowCounts(t: TestContext) {
  const tables = ['boards', 'areas', 'cards', 'labels', 'card_labels', 'comments', 'attachments', 'board_events'] as const;
  const counts: Record<string, number> = {};
  for (const table of tables)
    counts[table] = Number(
      (
        await t.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  return counts;
}

const C2_CONTENT = [
  'Beschreibung **fett**',
  '',
  '**Erste Liste**',
  '',
  '- [x] alpha',
  '- [ ] beta',
  '',
  '**Zweite Liste**',
  '',
  '- [ ] gamma',
  '',
  '- 📎 [Plan \\[v2\\].pdf](https://trello.com/1/cards/c2/attachments/a1/download/Plan.pdf)',
  '- 📎 [Spec](https://example.com/spec%20%28draft%29)',
].join('\n');

eachDialect('Trello import', (t) => {
  let owner: TestUser;
  let mika: TestUser;

  it('sets up the importer, someone who shares a board with them, and someone who does not', async () => {
    owner = await t.signUp('Olga');
    mika = await t.signUp('Mika Häkkinen');
    // Zoë has an account, but shares nothing with the importer: to the import she is a stranger.
    await t.signUp('Zoë Außen');
    const shared = await t.createBoard(owner, { name: 'Shared' });
    await t.db
      .insertInto('board_members')
      .values({ boardId: shared.id, userId: mika.id, permission: 'read', createdAt: new Date().toISOString() })
      .execute();
  });

  it('imports a Trello export (plain JSON): lists, cards, checklists, labels, due dates, comments, links, colour, and a report', async () => {
    const before = await rowCounts(t);
    const res = await upload(t, owner, JSON.stringify(trelloExport()), 'umzug.json', 'application/json');
    expect(res.statusCode, res.body).toBe(200);
    const { board, report } = res.json();
    expect(board).toEqual({
      id: expect.any(Number),
      user: owner.id,
      name: 'Umzug 🚚 nach Łódź',
      style: 'kanban',
      image: null,
      color: '#519839',
      status: 'private',
      archivedAt: null,
    });
    const why = expect.any(String);
    expect(report).toEqual({
      source: 'trello',
      imported: { areas: 4, cards: 5, comments: 2, labels: 30, checklistItems: 3, links: 2 },
      skipped: [
        { what: 'l-none', reason: 'labelUnnamed', why },
        { what: 'Etikett 27', reason: 'labelLimit', why: 'a board holds at most 30 labels' },
        { what: 'Etikett 28', reason: 'labelLimit', why },
        { what: 'Etikett 29', reason: 'labelLimit', why },
        { what: 'Deleted card', reason: 'noCard', why },
        { what: '2', reason: 'history', why },
        { what: 'Lost card', reason: 'noList', why },
        { what: 'Zoë Außen', reason: 'cardMembers', why },
        { what: 'local', reason: 'notWebLink', why },
      ],
    });

    const file = await exported(t, owner, board.id);
    // Lists in `pos` order, the closed one archived.
    expect(file.areas.map((a: Json) => [a.name, a.archivedAt === null])).toEqual([
      ['To do 📝', true],
      ['Doing — läuft', true],
      ['Old', false],
      ['Done', true],
    ]);
    const [todo, doing, old, done] = file.areas;
    // Cards in `pos` order, the closed one archived at its last activity.
    expect(todo.cards.map((c: Json) => [c.name, c.archivedAt])).toEqual([
      ['Erste Karte', null],
      ['Zweite', '2025-12-01T10:00:00.000Z'],
      ['Third ✓', null],
    ]);
    expect(old.cards.map((c: Json) => c.name)).toEqual(['In a closed list']);
    expect(done.cards).toEqual([]);

    const first = todo.cards[0];
    expect(first.content).toBe(C2_CONTENT);
    expect(first.done).toBe(true);
    expect(first.dueDate).toBe('2026-03-01T12:00:00.000Z');
    // Unnamed: its colour's name; the label without name or colour is left out.
    expect([...first.labels].sort()).toEqual(['Dringend ⚡', 'red']);
    expect(first.attachments).toEqual([]);
    // Oldest first; a person who shares a board with the importer is named as here, anyone else in the text.
    expect(first.comments.map((c: Json) => [c.author, c.content, c.createdAt])).toEqual([
      [{ id: null, name: 'Mika Häkkinen' }, 'Erster 👍', '2026-01-01T09:00:00.000Z'],
      [{ id: null, name: 'Zoë Außen' }, '*Trello: Zoë Außen (@zoe)*\n\nZweiter Kommentar', '2026-01-03T09:00:00.000Z'],
    ]);

    const unicode = doing.cards[0];
    expect(unicode).toMatchObject({ name: 'Ünïcödé 日本語', done: false, dueDate: '2026-04-01T00:00:00.000Z', content: '' });
    expect([...unicode.labels].sort()).toEqual(['Etikett 0', 'green dark']);

    // Used labels first, then in the export's order, 30 in all.
    expect(file.labels.map((l: Json) => l.name)).toEqual([
      'red',
      'Dringend ⚡',
      'green dark',
      'Etikett 0',
      ...Array.from({ length: 26 }, (_, i) => `Etikett ${i + 1}`),
    ]);

    // The checklists are what the tile counts: one of three ticked (the links are no task items).
    expect(checklistOf(first.content)).toEqual({ done: 1, total: 3 });

    const after = await rowCounts(t);
    expect(after.boards).toBe(before.boards! + 1);
    expect(after.cards).toBe(before.cards! + 5);
    expect(after.comments).toBe(before.comments! + 2);
    expect(after.attachments).toBe(before.attachments);

    // Only the importer has the board.
    const other = await t.inject(mika, { method: 'GET', url: `/api/data/board-export?boardId=${board.id}` });
    expect(other.statusCode).toBe(404);
  });

  it('imports the same export zipped, with a background colour given by name only', async () => {
    const trello = trelloExport();
    trello.prefs = { background: 'sky', backgroundColor: null, backgroundImage: 'https://trello-backgrounds.example/1.jpg' };
    const zip = rawZip([{ name: 'umzug-trello.json', data: JSON.stringify(trello) }]);
    const res = await upload(t, owner, zip, 'umzug.zip', 'application/zip');
    expect(res.statusCode, res.body).toBe(200);
    const { board, report } = res.json();
    expect(board.color).toBe('#00aecc');
    expect(report.imported).toEqual({ areas: 4, cards: 5, comments: 2, labels: 30, checklistItems: 3, links: 2 });
    expect(report.skipped).toContainEqual({
      what: 'https://trello-backgrounds.example/1.jpg',
      reason: 'backgroundImage',
      why: expect.any(String),
    });
    const file = await exported(t, owner, board.id);
    expect(file.areas[0].cards[0].content).toBe(C2_CONTENT);
  });

  it('our own board zip still imports without a report', async () => {
    const board = await t.createBoard(owner, { name: 'Own' });
    const res = await t.inject(owner, { method: 'GET', url: `/api/data/board-export?boardId=${board.id}` });
    const again = await upload(t, owner, res.rawPayload, 'own.zip', 'application/zip');
    expect(again.statusCode, again.body).toBe(200);
    expect(Object.keys(again.json())).toEqual(['board']);
  });

  it('refuses broken, unrelated or mis-shaped JSON with 400 and creates nothing', async () => {
    const before = await rowCounts(t);
    const badShape = trelloExport();
    badShape.cards[0].idList = 7;
    const cases: Array<[string, Buffer | string, RegExp]> = [
      ['broken JSON', '{"name": "x", "lists": [', /^The file is not valid JSON$/],
      [
        'unrelated JSON',
        JSON.stringify({ hello: 'world', items: [1, 2] }),
        /neither a board export .* nor a Trello board export/,
      ],
      ['a JSON array', JSON.stringify([trelloExport()]), /^The file is not a JSON object$/],
      ['a Trello export with a wrong field', JSON.stringify(badShape), /Trello export is not understood: \/cards\/0\/idList/],
      [
        'a zipped Trello export with a wrong field',
        rawZip([{ name: 'trello.json', data: JSON.stringify(badShape) }]),
        /Trello export is not understood/,
      ],
      ['a zipped broken JSON', rawZip([{ name: 'trello.json', data: '{"name": ' }]), /not valid JSON/],
    ];
    for (const [what, data, message] of cases) {
      const res = await upload(t, owner, data, 'trello.json', 'application/json');
      expect(res.statusCode, `${what}: ${res.body}`).toBe(400);
      expect(res.json(), what).toEqual({ error: expect.stringMatching(message) });
      expect(await rowCounts(t), what).toEqual(before);
    }
  });
});

describe('convertTrello', () => {
  it('takes a background colour only from its own table or a hex value', () => {
    const colour = (prefs: Json) =>
      convertTrello({ ...trelloExport(), prefs }, new Map(), '2026-01-01T00:00:00.000Z').file.board.color;
    expect(colour({ background: 'constructor' })).toBeNull();
    expect(colour({ background: '__proto__', backgroundColor: null })).toBeNull();
    expect(colour({ background: 'red' })).toBe('#b04632');
    expect(colour({ background: '#ABC' })).toBe('#aabbcc');
    expect(colour(null)).toBeNull();
  });
});
