import { unlinkSync } from 'node:fs';
import path from 'node:path';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { BoardFileStrict } from '../../../shared/api/board-file.schema.js';
import { BASE_URL, eachDialect, type TestContext, type TestUser } from '../../../../test/harness.js';
import { PNG, REPORT, richBoard } from '../../../../test/rich-board.js';
import { readZip } from '../../../../test/zip.js';
import { isSafeEntryName, safeSegment } from '../../zip/names.js';
import { csvDate, guardCell } from './csv.js';
import { csvWords } from './csv-words.js';
import { attachmentPath, slug } from './zip-paths.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
const ajv = addFormats(new Ajv({ allErrors: true, strict: false }));
const validateBoardFile = ajv.compile(BoardFileStrict);
const today = () => new Date().toISOString().slice(0, 10);

describe('zip names and CSV cells', () => {
  it('slugs board names: NFKD, no diacritics, lower case, dashes, 48 at most, never empty', () => {
    expect(slug('Ünïcode Board!')).toBe('unicode-board');
    expect(slug('  --Crème brûlée & Co.--  ')).toBe('creme-brulee-co');
    expect(slug('日本語')).toBe('board');
    expect(slug('')).toBe('board');
    expect(slug('ﬁle №5')).toBe('file-no5');
    const long = slug(`${'a'.repeat(47)} b c`);
    expect(long).toBe('a'.repeat(47));
    expect(slug(`${'x'.repeat(60)}`)).toHaveLength(48);
  });

  it('makes entry names safe: no separators, no dot names, no control characters, bounded', () => {
    expect(safeSegment('../../etc/passwd')).toBe('.._.._etc_passwd');
    expect(safeSegment('..')).toBe('file');
    expect(safeSegment('a\u0000b\nc\u202e.txt')).toBe('abc.txt');
    expect(safeSegment('C:\\x.txt')).toBe('C__x.txt');
    expect(Buffer.byteLength(safeSegment(`${'é'.repeat(300)}.pdf`))).toBeLessThanOrEqual(200);
    expect(safeSegment(`${'é'.repeat(300)}.pdf`).endsWith('.pdf')).toBe(true);
    expect(attachmentPath('attachments', { id: 7, filename: '../x' })).toBe('attachments/7-.._x');
    for (const bad of ['../a', '/a', 'a/../b', 'C:/a', 'a\\b', 'a\u0001', '', './a', 'a//b'])
      expect(isSafeEntryName(bad), bad).toBe(false);
    for (const good of ['a', 'a/b.txt', 'folder/', 'attachments/images/x.png']) expect(isSafeEntryName(good), good).toBe(true);
  });

  it('guards formula cells and writes due dates in UTC', () => {
    for (const start of ['=', '+', '-', '@', '\t', '\r']) expect(guardCell(`${start}x`)).toBe(`'${start}x`);
    expect(guardCell('plain')).toBe('plain');
    expect(guardCell('')).toBe('');
    expect(csvDate('2026-08-01T09:30:59.999+02:00')).toBe('2026-08-01 07:30');
    expect(csvDate(null)).toBe('');
  });

  it('has every word in every language', () => {
    for (const [language, words] of Object.entries(csvWords)) {
      expect(words.headings, language).toHaveLength(12);
      expect(new Set(words.headings).size, language).toBe(12);
      expect(words.checklist(1, 2), language).toMatch(/1.*2/);
      expect(Object.keys(words.repeat).sort(), language).toEqual(['day', 'month', 'twoWeeks', 'week', 'year']);
    }
  });
});

async function exportZip(t: TestContext, as: TestUser, boardId: number) {
  const res = await t.inject(as, { method: 'GET', url: `/api/data/board-export?boardId=${boardId}` });
  expect(res.statusCode, res.body).toBe(200);
  return { res, zip: await readZip(res.rawPayload) };
}

eachDialect('board export', (t) => {
  let owner: TestUser;
  let member: TestUser;
  let stranger: TestUser;
  let fixture: Awaited<ReturnType<typeof richBoard>>;

  it('sets up a board with a bit of everything', async () => {
    owner = await t.signUp('Olga');
    member = await t.signUp('Mika');
    stranger = await t.signUp('Sam');
    fixture = await richBoard(t, owner, member, BASE_URL);
    // One attachment's file goes missing: the board file says so (`file: null`) and the zip leaves it out.
    const lost = await t.db
      .selectFrom('attachments')
      .select('storedName')
      .where('id', '=', fixture.attachments.lost.id)
      .executeTakeFirstOrThrow();
    unlinkSync(path.join(t.config.dataDir, 'uploads', lost.storedName!));
  });

  it('answers a zip named <id>-<name>-<date>.zip holding the board file, the attachments and the pictures', async () => {
    const { board, attachments, image } = fixture;
    const { res, zip } = await exportZip(t, member, board.id);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="${board.id}-unicode-board-${today()}.zip"; filename*=UTF-8''${board.id}-unicode-board-${today()}.zip`,
    );
    const storedImage = image.split('/').pop()!;
    expect(zip.names).toEqual([
      `${board.id}-unicode-board.json`,
      `attachments/${attachments.report.id}-Q1_ report_.pdf`,
      `attachments/images/${storedImage}`,
    ]);
    expect(zip.files.get(`attachments/${attachments.report.id}-Q1_ report_.pdf`)!.equals(REPORT)).toBe(true);
    expect(zip.files.get(`attachments/images/${storedImage}`)!.equals(PNG)).toBe(true);
  });

  it('writes the board file in the spec format: every field, archived things included, people without addresses', async () => {
    const { board, areas, cards, attachments, image } = fixture;
    const { zip } = await exportZip(t, owner, board.id);
    const text = zip.files.get(`${board.id}-unicode-board.json`)!.toString('utf8');
    expect(text).not.toContain('@example.test');
    const file = JSON.parse(text);
    expect(validateBoardFile(file), JSON.stringify(validateBoardFile.errors)).toBe(true);

    expect(file).toMatchObject({
      format: 'service.board',
      formatVersion: 1,
      serviceVersion: '0.1.0',
      board: {
        id: board.id,
        name: 'Ünïcode Board!',
        style: 'kanban',
        status: 'private',
        color: '#a0b1c2',
        image: null,
        owner: { id: owner.id, name: 'Olga' },
        archivedAt: null,
      },
      members: [{ id: member.id, name: 'Mika', permission: 'edit' }],
      labels: [
        { id: expect.any(Number), name: 'urgent' },
        { id: expect.any(Number), name: 'Docs' },
      ],
    });
    expect(Date.parse(file.exportedAt)).toBeGreaterThan(Date.now() - 60_000);
    expect(
      file.areas.map((a: { name: string; sort: number; archivedAt: string | null }) => [a.name, a.sort, a.archivedAt !== null]),
    ).toEqual([
      ['Todo', 0, false],
      ['Doing', 1, false],
      ['Old', 2, true],
    ]);
    expect(file.areas[0].id).toBe(areas.todo.id);
    const [todo, doing, old] = file.areas;
    expect(todo.cards.map((c: { name: string; archivedAt: string | null }) => [c.name, c.archivedAt !== null])).toEqual([
      ['Write spec', false],
      ['=SUM(A1)', false],
      ['Gone', true],
    ]);
    expect(old.cards.map((c: { name: string }) => c.name)).toEqual(['Inside old']);

    const spec = todo.cards[0];
    expect(spec).toMatchObject({
      id: cards.spec.id,
      content: `Steps\n- [x] outline\n- [ ] draft\n\n![diagram](${image})`,
      done: true,
      sort: 0,
      dueDate: '2026-08-01T09:30:00.000Z',
      repeatEvery: null,
      assignees: [
        { id: member.id, name: 'Mika' },
        { id: owner.id, name: 'Olga' },
      ],
      assignee: { id: member.id, name: 'Mika' },
      labels: ['urgent', 'Docs'],
      archivedAt: null,
      reminders: [60, 1440],
      attachments: [
        {
          id: attachments.report.id,
          filename: 'Q1: report?.pdf',
          filetype: 'application/pdf',
          filesize: REPORT.length,
          createdAt: expect.stringMatching(/Z$/),
          file: `attachments/${attachments.report.id}-Q1_ report_.pdf`,
        },
      ],
      comments: [
        {
          id: expect.any(Number),
          author: { id: member.id, name: 'Mika' },
          content: `Looks good ![pic](${BASE_URL}${image})`,
          createdAt: expect.stringMatching(/Z$/),
        },
      ],
    });
    expect(spec.html).toContain('<input type="checkbox" disabled checked> outline');
    expect(spec.html).toContain(`<img src="${image}" alt="diagram">`);
    expect(spec.comments[0].html).toContain('<img');
    expect(spec.activity.map((e: { type: string }) => e.type)).toEqual([
      'created',
      'labels',
      'assigned',
      'assigned',
      'status',
      'comment',
      'attachment',
    ]);
    expect(spec.activity[0]).toEqual({
      type: 'created',
      actor: { id: owner.id, name: 'Olga' },
      data: null,
      createdAt: expect.any(String),
    });
    expect(spec.activity[1].data).toEqual({ added: ['urgent', 'Docs'], removed: [] });
    expect(todo.cards[1]).toMatchObject({ repeatEvery: 'week', done: false, labels: ['urgent'], assignee: null, assignees: [] });

    const lost = doing.cards[0].attachments[0];
    expect(lost).toMatchObject({ id: attachments.lost.id, filename: 'lost.txt', file: null });

    const storedImage = image.split('/').pop()!;
    expect(file.images).toEqual({
      [image]: `attachments/images/${storedImage}`,
      [`${BASE_URL}${image}`]: `attachments/images/${storedImage}`,
    });
    // The images map comes last, after the areas: the file is written as the cards are read.
    expect(Object.keys(file)).toEqual([
      'format',
      'formatVersion',
      'serviceVersion',
      'exportedAt',
      'board',
      'members',
      'labels',
      'fields',
      'areas',
      'images',
    ]);
  });

  it('answers the cards as CSV: BOM, commas, CRLF, English words, formula guard, board order, visible cards only', async () => {
    const { board, cards } = fixture;
    const res = await t.inject(owner, { method: 'GET', url: `/api/data/board-export?boardId=${board.id}&format=csv` });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toContain(`filename="${board.id}-unicode-board-${today()}.csv"`);
    const bytes = res.rawPayload;
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = bytes.subarray(3).toString('utf8');
    expect(
      text.startsWith('Area,Card,Status,Due date,Repeat,Assigned to,Labels,Checklist,Comments,Attachments,Description,Link\r\n'),
    ).toBe(true);
    expect(text.endsWith('\r\n')).toBe(true);
    // Outside quoted cells every line break is CRLF.
    expect(text.replace(/"(?:[^"]|"")*"/g, '').replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
    expect(text).toContain(`"line one\nline two, ""quoted""; done"`);

    const rows: string[][] = parse(bytes, { bom: true, delimiter: ',', record_delimiter: '\r\n' });
    expect(rows).toEqual([
      [
        'Area',
        'Card',
        'Status',
        'Due date',
        'Repeat',
        'Assigned to',
        'Labels',
        'Checklist',
        'Comments',
        'Attachments',
        'Description',
        'Link',
      ],
      [
        'Todo',
        'Write spec',
        'Done',
        '2026-08-01 09:30',
        '',
        'Mika, Olga',
        'urgent, Docs',
        '1 of 2',
        '1',
        '1',
        expect.stringContaining('- [x] outline'),
        `${BASE_URL}/board/${board.id}?card=${cards.spec.id}`,
      ],
      [
        'Todo',
        "'=SUM(A1)",
        'Open',
        '2026-09-02 18:05',
        'Weekly',
        '',
        'urgent',
        '',
        '0',
        '0',
        'line one\nline two, "quoted"; done',
        `${BASE_URL}/board/${board.id}?card=${cards.formula.id}`,
      ],
      ['Doing', "'-dash", 'Open', '', '', '', '', '', '0', '1', '', `${BASE_URL}/board/${board.id}?card=${cards.dash.id}`],
    ]);
  });

  it('refuses without read access (404, the board cannot be probed), without credentials (403) and bad parameters (400)', async () => {
    const { board } = fixture;
    expect((await t.inject(stranger, { method: 'GET', url: `/api/data/board-export?boardId=${board.id}` })).statusCode).toBe(404);
    expect(
      (await t.inject(stranger, { method: 'GET', url: `/api/data/board-export?boardId=${board.id}&format=csv` })).statusCode,
    ).toBe(404);
    expect((await t.inject(owner, { method: 'GET', url: '/api/data/board-export?boardId=999999' })).statusCode).toBe(404);
    expect((await t.inject(null, { method: 'GET', url: `/api/data/board-export?boardId=${board.id}` })).statusCode).toBe(403);
    const bad = await t.inject(owner, { method: 'GET', url: `/api/data/board-export?boardId=${board.id}&format=xml` });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ error: expect.stringContaining('format') });
    expect((await t.inject(owner, { method: 'GET', url: '/api/data/board-export' })).json()).toEqual({
      error: 'query: boardId is required',
    });
    expect((await t.inject(owner, { method: 'POST', url: '/api/data/board-export' })).statusCode).toBe(405);
    // HEAD tells the name without making the export.
    const head = await t.inject(member, { method: 'HEAD', url: `/api/data/board-export?boardId=${board.id}&format=csv` });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(head.headers['content-disposition']).toContain(`filename="${board.id}-unicode-board-${today()}.csv"`);
    expect(head.rawPayload).toHaveLength(0);
    expect((await t.inject(stranger, { method: 'HEAD', url: `/api/data/board-export?boardId=${board.id}` })).statusCode).toBe(
      404,
    );
  });

  it('lets anyone signed in export a public board', async () => {
    const board = await t.createBoard(owner, { name: 'Open', status: 'public' });
    const { zip } = await exportZip(t, stranger, board.id);
    expect(zip.names).toEqual([`${board.id}-open.json`]);
    const file = JSON.parse(zip.files.get(`${board.id}-open.json`)!.toString());
    expect(file).toMatchObject({ board: { status: 'public' }, members: [], labels: [], areas: [], images: {} });
    expect(validateBoardFile(file)).toBe(true);
  });
});

eachDialect(
  'board export in German',
  (t) => {
    it('writes German headings and words, separated by semicolons', async () => {
      const owner = await t.signUp('Grete');
      const board = await t.createBoard(owner, { name: 'Größe' });
      const area = (
        await t.inject(owner, { method: 'POST', url: '/api/data/area', payload: { boardId: board.id, name: 'Offen' } })
      ).json().area;
      const card = (
        await t.inject(owner, {
          method: 'POST',
          url: '/api/data/card',
          payload: {
            areaId: area.id,
            name: '@mention; und mehr',
            content: '- [ ] a\n- [x] b\n- [x] c',
            dueDate: '2026-01-02T03:04:05Z',
          },
        })
      ).json().card;
      await t.inject(owner, {
        method: 'PUT',
        url: '/api/data/card',
        payload: { cardID: card.id, repeatEvery: 'twoWeeks', status: 0 },
      });
      const res = await t.inject(owner, { method: 'GET', url: `/api/data/board-export?boardId=${board.id}&format=csv` });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-disposition']).toContain(`filename="${board.id}-gro-e-${today()}.csv"`);
      const text = res.rawPayload.toString('utf8');
      expect(text.startsWith(`\uFEFF${csvWords.de.headings.join(';')}\r\n`)).toBe(true);
      const rows: string[][] = parse(res.rawPayload, { bom: true, delimiter: ';', record_delimiter: '\r\n' });
      expect(rows[1]).toEqual([
        'Offen',
        "'@mention; und mehr",
        'Offen',
        '2026-01-02 03:04',
        'Alle zwei Wochen',
        '',
        '',
        '2 von 3',
        '0',
        '0',
        "'- [ ] a\n- [x] b\n- [x] c",
        `${BASE_URL}/board/${board.id}?card=${card.id}`,
      ]);
      expect(text).toContain(`"'@mention; und mehr"`);
    });
  },
  { env: { LANGUAGE: 'de' } },
);
