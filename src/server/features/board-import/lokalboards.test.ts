import { describe, expect, it } from 'vitest';
import { checklistOf } from '../../../shared/checklist.js';
import { eachDialect, type TestContext, type TestUser } from '../../../../test/harness.js';
import { importBoardFile } from '../../../../test/factories.js';
import { rawZip, readZip, type RawEntry } from '../../../../test/zip.js';
import { importBounds } from './import-bounds.js';
import { convertLokalBoards, type LokalBoardsFile } from './lokalboards.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

/** A 1×1 PNG: a picture by its first bytes, as the import checks. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const PDF = Buffer.from('%PDF-1.4\n% a small document\n%%EOF\n');

/**
 * A LokalBoards board export as its `GET /api/data/board-export` writes it
 * (the reference's "Board export"): `lokalboards.board` version 1, people as
 * `{id, name}` of the other instance, Markdown content with its checklists,
 * attachments by zip path, pictures by their upload address.
 */
function lokalBoardsFile(cards = 3): Json {
  const person = (id: string, name: string | null) => ({ id, name });
  const olga = person('lb-olga', 'Olga Import');
  const mika = person('lb-mika', 'Mika Häkkinen');
  const rudi = person('lb-rudi', 'Rudi Fremd');
  const first = {
    id: 11,
    name: 'Umzugskartons 📦',
    content: 'Packen:\n\n- [x] Bücher\n- [ ] Geschirr\n- [ ] Pflanzen\n\n![Plan](/api/uploads/a1b2c3.png)',
    done: false,
    sort: 0,
    dueDate: '2026-03-01T12:00:00.000Z',
    repeat: 'week',
    assignees: [olga, mika, rudi],
    assignee: olga,
    labels: ['Dringend', 'Küche'],
    archivedAt: null,
    reminders: [60, 1440],
    attachments: [
      {
        id: 101,
        filename: 'Mietvertrag.pdf',
        filetype: 'application/pdf',
        filesize: PDF.length,
        createdAt: '2026-01-02T10:00:00.000Z',
        file: 'attachments/101-Mietvertrag.pdf',
      },
      {
        id: 102,
        filename: 'Wohnung',
        filetype: 'text/html',
        filesize: 0,
        createdAt: '2026-01-02T11:00:00.000Z',
        file: null,
        url: 'https://example.com/wohnung',
      },
      {
        id: 103,
        filename: 'verloren.txt',
        filetype: 'text/plain',
        filesize: 3,
        createdAt: '2026-01-02T12:00:00.000Z',
        file: null,
      },
    ],
    comments: [
      { id: 201, author: mika, content: 'Erster 👍', createdAt: '2026-01-03T09:00:00.000Z' },
      {
        id: 202,
        author: { id: null, name: 'Aus Trello' },
        content: 'Siehe https://lokal.example/api/uploads/a1b2c3.png',
        createdAt: '2026-01-04T09:00:00.000Z',
      },
    ],
    activity: [
      { type: 'created', actor: olga, data: null, createdAt: '2026-01-01T08:00:00.000Z' },
      { type: 'assigned', actor: olga, data: { assigneeId: 'lb-rudi' }, createdAt: '2026-01-01T08:01:00.000Z' },
      { type: 'mindmap', actor: olga, data: { x: 1 }, createdAt: '2026-01-01T08:02:00.000Z' },
    ],
  };
  const more = Array.from({ length: cards - 1 }, (_, i) => ({
    ...first,
    id: 12 + i,
    name: `Karte ${i + 2}`,
    content: '',
    repeat: null,
    dueDate: null,
    assignees: [],
    assignee: null,
    labels: i === 0 ? ['Erledigt'] : [],
    attachments: [],
    comments: [],
    activity: [],
    done: i === 0,
  }));
  return {
    format: 'lokalboards.board',
    formatVersion: 1,
    lokalboardsVersion: '0.39.0',
    exportedAt: '2026-02-01T00:00:00.000Z',
    board: {
      id: 7,
      name: 'Umzug nach Łódź',
      style: 'kanban',
      status: 'private',
      color: '#519839',
      image: null,
      owner: olga,
      archivedAt: null,
    },
    members: [{ ...mika, permission: 'edit' }],
    labels: [
      { id: 1, name: 'Dringend' },
      { id: 2, name: 'Küche' },
      { id: 3, name: 'Erledigt' },
      { id: 4, name: 'Unbenutzt' },
    ],
    areas: [
      { id: 1, name: 'To do', sort: 0, archivedAt: null, cards: [first] },
      { id: 2, name: 'Erledigt', sort: 1, archivedAt: null, cards: more },
      { id: 3, name: 'Alt', sort: 2, archivedAt: '2025-12-01T00:00:00.000Z', cards: [] },
    ],
    images: {
      '/api/uploads/a1b2c3.png': 'attachments/images/a1b2c3.png',
      'https://lokal.example/api/uploads/a1b2c3.png': 'attachments/images/a1b2c3.png',
    },
  };
}

/** The export's zip: the board file at the top, its files in `attachments/`. */
function lokalBoardsZip(file: Json, extra: RawEntry[] = []): Buffer {
  return rawZip([
    { name: '7-umzug-nach-odz.json', data: JSON.stringify(file) },
    { name: 'attachments/101-Mietvertrag.pdf', data: PDF },
    { name: 'attachments/images/a1b2c3.png', data: PNG, store: true },
    ...extra,
  ]);
}

const upload = (t: TestContext, user: TestUser, data: Buffer | string) =>
  importBoardFile(t, user, data, 'umzug.zip', 'application/zip');

async function exported(t: TestContext, user: TestUser, boardId: number) {
  const res = await t.inject(user, { method: 'GET', url: `/api/data/board-export?boardId=${boardId}` });
  expect(res.statusCode, res.body).toBe(200);
  const { files } = await readZip(res.rawPayload);
  const json = [...files.keys()].find((n) => n.endsWith('.json'))!;
  const file: Json = JSON.parse(files.get(json)!.toString('utf8'));
  return { file, files };
}

async function rowCounts(t: TestContext) {
  const tables = ['boards', 'areas', 'cards', 'labels', 'comments', 'attachments', 'images', 'card_activity'] as const;
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

eachDialect('LokalBoards import', (t) => {
  let olga: TestUser;
  let mika: TestUser;

  it('sets up the importer and someone who shares a board with them', async () => {
    olga = await t.signUp('Olga Import');
    mika = await t.signUp('Mika Häkkinen');
    // Rudi has an account, but shares nothing with the importer: to the import he is not here.
    await t.signUp('Rudi Fremd');
    const shared = await t.createBoard(olga, { name: 'Shared' });
    await t.db
      .insertInto('board_members')
      .values({ boardId: shared.id, userId: mika.id, permission: 'read', createdAt: new Date().toISOString() })
      .execute();
  });

  it('imports a LokalBoards board zip: areas, cards, checklists, labels, attachments, pictures, comments, history, and a report', async () => {
    const before = await rowCounts(t);
    const res = await upload(t, olga, lokalBoardsZip(lokalBoardsFile()));
    expect(res.statusCode, res.body).toBe(200);
    const { board, report } = res.json();
    expect(board).toMatchObject({ name: 'Umzug nach Łódź', user: olga.id, color: '#519839', style: 'kanban', archivedAt: null });
    const why = expect.any(String);
    expect(report).toEqual({
      source: 'lokalboards',
      imported: { areas: 3, cards: 3, comments: 2, labels: 4, checklistItems: 3, links: 1, attachments: 1 },
      skipped: [
        { what: 'verloren.txt', reason: 'fileMissing', why },
        { what: 'Mika Häkkinen', reason: 'boardMembers', why },
        { what: 'Rudi Fremd', reason: 'assigneeUnknown', why },
        { what: 'Mika Häkkinen', reason: 'boardMembers', why },
        { what: '1', reason: 'historyUnknown', why },
      ],
    });

    const { file, files } = await exported(t, olga, board.id);
    expect(file.areas.map((a: Json) => [a.name, a.archivedAt, a.cards.map((c: Json) => c.name)])).toEqual([
      ['To do', null, ['Umzugskartons 📦']],
      ['Erledigt', null, ['Karte 2', 'Karte 3']],
      ['Alt', '2025-12-01T00:00:00.000Z', []],
    ]);
    expect(file.labels.map((l: Json) => l.name).sort()).toEqual(['Dringend', 'Erledigt', 'Küche', 'Unbenutzt']);
    const card = file.areas[0].cards[0];
    expect(card).toMatchObject({
      done: false,
      dueDate: '2026-03-01T12:00:00.000Z',
      repeatEvery: 'week',
      reminders: [60, 1440],
      // Only the importer, recognised by name, stays on the card.
      assignees: [{ id: olga.id, name: 'Olga Import' }],
    });
    expect([...card.labels].sort()).toEqual(['Dringend', 'Küche']);
    expect(checklistOf(card.content)).toEqual({ done: 1, total: 3 });
    expect(file.areas[1].cards[0]).toMatchObject({ done: true, labels: ['Erledigt'] });

    // The stored file and the linked one; the one the export did not hold is left out.
    expect(card.attachments.map((a: Json) => [a.filename, a.url ?? null, a.file === null])).toEqual([
      ['Mietvertrag.pdf', null, false],
      ['Wohnung', 'https://example.com/wohnung', true],
    ]);
    expect(files.get(card.attachments[0].file)).toEqual(PDF);

    // The pasted picture is a picture of the new board, its addresses rewritten in content and comments.
    const address = /\/api\/data\/image\/[0-9a-f]{32}\.png/.exec(card.content)?.[0];
    expect(address, card.content).toBeDefined();
    expect(card.content).not.toContain('/api/uploads/');
    expect(files.get(file.images[address!])).toEqual(PNG);
    expect(card.comments.map((c: Json) => [c.author, c.content, c.createdAt])).toEqual([
      [{ id: null, name: 'Mika Häkkinen' }, 'Erster 👍', '2026-01-03T09:00:00.000Z'],
      [
        { id: null, name: 'Aus Trello' },
        expect.stringMatching(/^Siehe \/api\/data\/image\/[0-9a-f]{32}\.png$/),
        '2026-01-04T09:00:00.000Z',
      ],
    ]);

    // History of the kinds both services know; another instance's account is a name, never an account here.
    expect(card.activity.map((a: Json) => [a.type, a.actor?.id ?? null])).toEqual([
      ['created', olga.id],
      ['assigned', olga.id],
    ]);
    const history = await t.inject(olga, { method: 'GET', url: `/api/data/card-activity?cardId=${card.id}` });
    expect(history.statusCode, history.body).toBe(200);
    const assigned = history.json().activity.find((a: Json) => a.type === 'assigned');
    expect(assigned.data).toMatchObject({ assigneeName: 'Rudi Fremd' });
    expect(JSON.stringify(assigned.data)).not.toContain('lb-rudi');

    const after = await rowCounts(t);
    expect(after.boards).toBe(before.boards! + 1);
    expect(after.cards).toBe(before.cards! + 3);
    expect(after.comments).toBe(before.comments! + 2);
    expect(after.attachments).toBe(before.attachments! + 2);
    expect(after.images).toBe(before.images! + 1);

    // Only the importer has the board: the file's members are not added.
    const other = await t.inject(mika, { method: 'GET', url: `/api/data/board-export?boardId=${board.id}` });
    expect(other.statusCode).toBe(404);
  });

  it('imports the board file alone (plain JSON), its files then missing', async () => {
    const res = await importBoardFile(t, olga, JSON.stringify(lokalBoardsFile()), 'umzug.json', 'application/json');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().report.source).toBe('lokalboards');
  });

  it('refuses malformed files, files past a limit, and escaping paths with 400, and creates nothing', async () => {
    const before = await rowCounts(t);
    const wrongType = lokalBoardsFile();
    wrongType.areas[0].cards[0].comments[0].content = 42;
    const noCards = lokalBoardsFile();
    delete noCards.areas[1].cards;
    const outside = lokalBoardsFile();
    outside.areas[0].cards[0].attachments[0].file = 'attachments/../7-umzug-nach-odz.json';
    const outsideImage = lokalBoardsFile();
    outsideImage.images = { '/api/uploads/x.png': '7-umzug-nach-odz.json' };
    const tooMany = lokalBoardsFile();
    tooMany.areas = Array.from({ length: importBounds.areas + 1 }, (_, i) => ({
      id: i,
      name: `A${i}`,
      sort: i,
      archivedAt: null,
      cards: [],
    }));
    const cases: Array<[string, Buffer, RegExp]> = [
      [
        'a wrong type',
        lokalBoardsZip(wrongType),
        /LokalBoards board file is not understood: \/areas\/0\/cards\/0\/comments\/0\/content/,
      ],
      ['a missing field', lokalBoardsZip(noCards), /not understood: \/areas\/1 must have required property 'cards'/],
      ['another version', lokalBoardsZip({ ...lokalBoardsFile(), formatVersion: 2 }), /not understood: \/formatVersion/],
      ['an attachment outside its folder', lokalBoardsZip(outside), /outside the zip's attachments folder/],
      ['a picture outside its folder', lokalBoardsZip(outsideImage), /outside the zip's attachments folder/],
      [
        'a zip entry with ../',
        lokalBoardsZip(lokalBoardsFile(), [{ name: 'attachments/../../escape.txt', data: 'x' }]),
        /unsafe|relative path/,
      ],
      ['too many areas', lokalBoardsZip(tooMany), /more than 2,000 areas \(the import limit\)/],
      ['broken JSON', rawZip([{ name: '7-umzug.json', data: '{"format": "lokalboards.board",' }]), /not valid JSON/],
    ];
    for (const [what, zip, message] of cases) {
      const res = await upload(t, olga, zip);
      expect(res.statusCode, `${what}: ${res.body}`).toBe(400);
      expect(res.json(), what).toEqual({ error: expect.stringMatching(message) });
      expect(await rowCounts(t), what).toEqual(before);
    }
  });
});

describe('convertLokalBoards', () => {
  it('takes time in proportion to the file: sixteen times the cards, not 256 times the work', () => {
    const time = (cards: number) => {
      const file = lokalBoardsFile(cards) as LokalBoardsFile;
      const start = performance.now();
      convertLokalBoards(file, new Map(), { id: 'me', name: 'Olga Import' }, '2026-01-01T00:00:00.000Z');
      return performance.now() - start;
    };
    time(2_500);
    // The best of several runs: on a shared machine a single run may be held up many times over.
    const small = Math.min(...Array.from({ length: 5 }, () => time(2_500)));
    const large = Math.min(time(40_000), time(40_000));
    // Linear is 16× (a small file is favoured by the caches, so somewhat more); comparing every card with every other, 256×.
    expect(large / small).toBeLessThan(100);
  });

  it('keeps a cover the zip holds as a picture address of ours, and drops one it does not hold', () => {
    const cover = (image: string) => {
      const file = lokalBoardsFile();
      file.board.image = image;
      return convertLokalBoards(file, new Map(), undefined, '2026-01-01T00:00:00.000Z').file.board.image;
    };
    expect(cover('/api/uploads/a1b2c3.png')).toMatch(/^\/api\/data\/image\/[0-9a-f]{32}$/);
    expect(cover('/api/uploads/elsewhere.png')).toBeNull();
    expect(cover('https://pictures.example/cover.jpg')).toBe('https://pictures.example/cover.jpg');
  });

  it('keeps at most 30 labels, used ones first, and reports the rest', () => {
    const file = lokalBoardsFile();
    file.labels = Array.from({ length: 40 }, (_, i) => ({ id: i, name: `L${i}` }));
    const { file: ours, report } = convertLokalBoards(file, new Map(), undefined, '2026-01-01T00:00:00.000Z');
    expect(ours.labels).toHaveLength(30);
    expect(ours.labels.slice(0, 3).map((l) => l.name)).toEqual(['Dringend', 'Küche', 'Erledigt']);
    expect(report.skipped.filter((s) => s.reason === 'labelLimit')).toHaveLength(13);
  });
});
