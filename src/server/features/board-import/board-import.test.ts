import { randomBytes } from 'node:crypto';
import { SORT_STEP } from '../cards/ordering.js';
import { existsSync, readdirSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { importBoardFile, uploadedFiles } from '../../../../test/factories.js';
import { BASE_URL, eachDialect, type TestContext, type TestUser } from '../../../../test/harness.js';
import { fileStore } from '../../files/store.js';
import { multipart } from '../../../../test/multipart.js';
import { PNG, REPORT, richBoard } from '../../../../test/rich-board.js';
import { rawZip, readZip, type RawEntry } from '../../../../test/zip.js';
import { UNTRUSTED } from '../../zip/reader.js';
import { importLimits } from './board-import.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

async function exportBoard(
  t: TestContext,
  user: TestUser,
  boardId: number,
): Promise<{ zip: Buffer; file: Json; files: Map<string, Buffer> }> {
  const res = await t.inject(user, { method: 'GET', url: `/api/data/board-export?boardId=${boardId}` });
  expect(res.statusCode, res.body).toBe(200);
  const { files } = await readZip(res.rawPayload);
  const json = [...files.keys()].find((n) => n.endsWith('.json'))!;
  return { zip: res.rawPayload, file: JSON.parse(files.get(json)!.toString('utf8')), files };
}

const importZip = (t: TestContext, user: TestUser, zip: Buffer, filename = 'board.zip') =>
  importBoardFile(t, user, zip, filename, 'application/zip');

const ID_KEYS = new Set(['id', 'attachmentId', 'commentId', 'nextId', 'repeatedFrom', 'duplicatedFrom']);

/**
 * A board file with what must differ after an import taken out: ids (numbers
 * under id-like keys, in zip paths), the picture names (numbered in order of
 * appearance), the time of the export, and authors' account ids (an import
 * keeps other people as names: comments by `authorName`, history by `actorName`).
 */
function comparable(file: Json): Json {
  const names = new Map<string, string>();
  const text = JSON.stringify({ ...file, exportedAt: null }).replace(/[0-9a-f]{32}/g, (name) => {
    if (!names.has(name)) names.set(name, `picture${names.size}`);
    return names.get(name)!;
  });
  const walk = (value: Json, key = ''): Json => {
    if (Array.isArray(value)) return value.map((v) => walk(v));
    if (value !== null && typeof value === 'object') {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v, k)]));
    }
    if (ID_KEYS.has(key) && typeof value === 'number') return 0;
    if (key === 'file' && typeof value === 'string') return value.replace(/\/\d+-/, '/#-');
    return value;
  };
  const out = walk(JSON.parse(text));
  for (const area of out.areas)
    for (const card of area.cards) {
      for (const c of card.comments) c.author.id = null;
      for (const e of card.activity) {
        e.actor = e.actor?.name ?? e.data?.actorName ?? null;
        if (e.data) delete e.data.actorName;
        if (e.data && Object.keys(e.data).length === 0) e.data = null;
      }
    }
  return out;
}

/** A small valid board file to spoil in the refusal tests. */
function boardFile(overrides: Json = {}): Json {
  return {
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
            attachments: [
              {
                id: 9,
                filename: 'a.bin',
                filetype: 'application/octet-stream',
                filesize: 3,
                createdAt: '2026-01-01T00:00:00.000Z',
                file: 'attachments/9-a.bin',
              },
            ],
            comments: [],
            activity: [],
          },
        ],
      },
    ],
    images: {},
    ...overrides,
  };
}

const zipOf = (file: Json, extra: RawEntry[] = []) =>
  rawZip([{ name: '1-imported.json', data: JSON.stringify(file) }, { name: 'attachments/9-a.bin', data: 'abc' }, ...extra]);

async function state(t: TestContext) {
  const count = async (
    table: 'boards' | 'areas' | 'cards' | 'labels' | 'comments' | 'attachments' | 'images' | 'card_activity' | 'board_events',
  ) =>
    Number(
      (
        await t.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  return {
    boards: await count('boards'),
    areas: await count('areas'),
    cards: await count('cards'),
    labels: await count('labels'),
    comments: await count('comments'),
    attachments: await count('attachments'),
    images: await count('images'),
    activity: await count('card_activity'),
    events: await count('board_events'),
    files: uploadedFiles(t),
  };
}

afterEach(() => {
  importLimits.zip = { ...UNTRUSTED };
});

/** Polls until `check` holds, for at most `ms`. */
async function until(check: () => boolean | Promise<boolean>, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`not reached within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

let oversize: Buffer | undefined;
/** A zip whose board file is 34 MB of real (barely compressible) text, past the 32 MB limit. */
function oversizeZip(): Buffer {
  const file = boardFile();
  file.areas[0].cards[0].content = randomBytes(17 * 1024 * 1024).toString('hex');
  return (oversize ??= zipOf(file));
}

eachDialect('board import', (t) => {
  let owner: TestUser;
  let member: TestUser;
  let stranger: TestUser;
  let fixture: Awaited<ReturnType<typeof richBoard>>;
  let original: Awaited<ReturnType<typeof exportBoard>>;

  it('sets up a board and exports it', async () => {
    owner = await t.signUp('Olga');
    member = await t.signUp('Mika');
    stranger = await t.signUp('Sam');
    fixture = await richBoard(t, owner, member, BASE_URL);
    original = await exportBoard(t, owner, fixture.board.id);
  });

  it('recreates the board from its export: exported again, it is the same board file but for ids', async () => {
    const res = await importZip(t, owner, original.zip);
    expect(res.statusCode, res.body).toBe(200);
    const { board } = res.json();
    expect(board).toEqual({
      id: expect.any(Number),
      user: owner.id,
      name: 'Ünïcode Board!',
      style: 'kanban',
      image: null,
      color: '#a0b1c2',
      status: 'private',
      archivedAt: null,
    });
    expect(board.id).not.toBe(fixture.board.id);

    const again = await exportBoard(t, owner, board.id);
    // The same board but for the people: nobody else is made a member, so only the importer stays assigned.
    const expected = comparable(original.file);
    expected.members = [];
    for (const area of expected.areas)
      for (const card of area.cards) {
        card.assignees = card.assignees.filter((p: Json) => p.id === owner.id);
        card.assignee = card.assignees[0] ?? null;
        for (const e of card.activity)
          if (e.data?.assigneeId === member.id) {
            delete e.data.assigneeId;
            e.data.assigneeName = 'Mika';
          }
      }
    expect(comparable(again.file)).toEqual(expected);
    // Dates are kept, not renewed: comments, attachments, history, archived things.
    expect(again.file.areas[2].archivedAt).toBe(original.file.areas[2].archivedAt);
    expect(again.file.areas[0].cards[0].comments[0].createdAt).toBe(original.file.areas[0].cards[0].comments[0].createdAt);
    expect(again.file.areas[0].cards[0].comments[0].author).toEqual({ id: null, name: 'Mika' });

    // The files came along, under new names, and the picture addresses point at the new picture.
    const [newPicture] = Object.values<string>(again.file.images);
    const [oldPicture] = Object.values<string>(original.file.images);
    expect(newPicture).not.toBe(oldPicture);
    expect(again.files.get(newPicture!)!.equals(PNG)).toBe(true);
    const card = again.file.areas[0].cards[0];
    const address = card.content.match(/\/api\/data\/image\/[0-9a-f]{32}\.png/)![0];
    expect(`attachments/images/${address.split('/').pop()}`).toBe(newPicture);
    const picture = await t.inject(owner, { method: 'GET', url: address });
    expect(picture.statusCode).toBe(200);
    expect(picture.rawPayload.equals(PNG)).toBe(true);
    expect(card.comments[0].content).toBe(`Looks good ![pic](${BASE_URL}${address})`);
    const download = await t.inject(owner, { method: 'GET', url: `/api/data/attachment?id=${card.attachments[0].id}` });
    expect(download.rawPayload.equals(REPORT)).toBe(true);

    // One change event for the new board; the members of the file are not made members of it.
    const events = await t.db.selectFrom('board_events').select('name').where('boardId', '=', board.id).execute();
    expect(events.map((e) => e.name)).toEqual(['board.created']);
    const shared = (await t.inject(member, { method: 'POST', url: '/api/data/boards', payload: { shared: true } })).json().boards;
    expect(shared.map((b: { id: number }) => b.id)).not.toContain(board.id);
    expect(again.file.members).toEqual([]);
    // Cards keep their places, archived ones included, with room between their keys for a move.
    const sorts = await t.db
      .selectFrom('cards')
      .select(['sort', 'areaId'])
      .where('boardId', '=', board.id)
      .orderBy('areaId')
      .orderBy('sort')
      .execute();
    expect(sorts.map((c) => c.sort)).toEqual([0, SORT_STEP, 2 * SORT_STEP, 0, 0]);
  });

  it('gives the board to whoever imports it and to nobody else: members are not added, other people stay names', async () => {
    const file = structuredClone(original.file);
    file.members.push(
      { id: 'no-such-account', name: 'Ghost', permission: 'read' },
      { id: stranger.id, name: 'Sam', permission: 'edit' },
    );
    file.areas[0].cards[0].assignees.push({ id: 'no-such-account', name: 'Ghost' }, { id: stranger.id, name: 'Sam' });
    const files = new Map(original.files);
    files.set(
      [...files.keys()].find((n) => n.endsWith('.json'))!,
      Buffer.from(JSON.stringify(file)),
    );
    const zip = rawZip([...files].map(([name, data]) => ({ name, data })));

    const res = await importZip(t, member, zip);
    expect(res.statusCode, res.body).toBe(200);
    const { board } = res.json();
    expect(board.user).toBe(member.id);
    // Nobody the file names becomes a member: the importer invites whom they want.
    expect(await t.db.selectFrom('board_members').selectAll().where('boardId', '=', board.id).execute()).toEqual([]);
    for (const other of [owner, stranger])
      expect(
        (await t.inject(other, { method: 'GET', url: `/api/data/board?id=${board.id}&userId=${other.id}` })).statusCode,
      ).toBe(404);
    const mine = await exportBoard(t, member, board.id);
    expect(mine.file.board.owner).toEqual({ id: member.id, name: 'Mika' });
    expect(mine.file.members).toEqual([]);
    expect(mine.file.areas[0].cards[0].assignees).toEqual([{ id: member.id, name: 'Mika' }]);

    // History and comments: the importer's own stay theirs; anyone else's keep the name, linked to no account.
    const before = original.file.areas[0].cards[0];
    const after = mine.file.areas[0].cards[0];
    expect(before.activity.map((e: Json) => e.actor?.id)).toEqual(expect.arrayContaining([owner.id, member.id]));
    expect(after.activity.map((e: Json) => e.actor?.id ?? null)).toEqual(
      before.activity.map((e: Json) => (e.actor?.id === member.id ? member.id : null)),
    );
    expect(after.activity.map((e: Json) => e.actor?.name ?? e.data?.actorName)).toEqual(
      before.activity.map((e: Json) => e.actor.name),
    );
    const linked = await t.db
      .selectFrom('card_activity')
      .innerJoin('cards', 'cards.id', 'card_activity.cardId')
      .select('card_activity.actorId')
      .distinct()
      .where('cards.boardId', '=', board.id)
      .execute();
    expect(linked.map((r) => r.actorId).sort()).toEqual([member.id, null].sort());
    const history = (
      await t.inject(member, { method: 'GET', url: `/api/data/card-activity?cardID=${after.id as number}` })
    ).json().activity;
    const byOlga = history.find((e: Json) => e.data?.actorName === 'Olga');
    expect(byOlga.actor).toBeNull();
    // Assignments name the assignee; only the importer's is linked to an account.
    const assigned = after.activity.filter((e: Json) => e.type === 'assigned');
    expect(assigned.map((e: Json) => e.data.assigneeId ?? e.data.assigneeName).sort()).toEqual([member.id, 'Olga'].sort());
    expect(history.filter((e: Json) => e.type === 'assigned').map((e: Json) => e.data.assigneeName)).toEqual(
      expect.arrayContaining(['Mika', 'Olga']),
    );
    expect(after.comments[0].author).toEqual({ id: member.id, name: 'Mika' });
  });

  it('refuses unsafe or unreadable zips with 400 and creates nothing', async () => {
    const before = await state(t);
    const cases: Array<[string, Buffer, RegExp]> = [
      ['not a zip', Buffer.from('this is not a zip'), /not a readable zip/],
      ['a .. entry', zipOf(boardFile(), [{ name: '../escape.txt', data: 'x' }]), /unsafe|relative path/],
      ['a nested .. entry', zipOf(boardFile(), [{ name: 'attachments/../../escape.txt', data: 'x' }]), /unsafe|relative path/],
      ['an absolute entry', zipOf(boardFile(), [{ name: '/tmp/escape.txt', data: 'x' }]), /unsafe|absolute path/],
      ['a backslash entry', zipOf(boardFile(), [{ name: 'attachments\\..\\escape.txt', data: 'x' }]), /unsafe/],
      [
        'a symbolic link',
        zipOf(boardFile(), [{ name: 'attachments/9-a.link', data: '/etc/passwd', mode: 0o120777 }]),
        /symbolic link/,
      ],
      [
        'a bomb',
        zipOf(boardFile(), [{ name: 'attachments/7-zeros.bin', data: Buffer.alloc(20 * 1024 * 1024) }]),
        /expands more than 100 times/,
      ],
      [
        'a header that understates the size',
        rawZip([{ name: '1-imported.json', data: JSON.stringify(boardFile()), declaredSize: 40 }]),
        /damaged|cannot be read/,
      ],
      ['no board file', rawZip([{ name: 'attachments/9-a.bin', data: 'abc' }]), /no board file/],
      ['two board files', zipOf(boardFile(), [{ name: '2-other.json', data: '{}' }]), /more than one board file/],
      ['broken JSON', rawZip([{ name: '1-imported.json', data: '{"format": "service.board",' }]), /not valid JSON/],
      ['another format', zipOf(boardFile({ format: 'trello' })), /format is not "service.board"/],
      ['an unknown formatVersion', zipOf(boardFile({ formatVersion: 2 })), /formatVersion 2 is not one this service reads/],
      [
        'a missing field',
        zipOf(boardFile({ areas: [{ id: 1, name: 'A', sort: 0, archivedAt: null }] })),
        /does not match the format: \/areas\/0 must have required property 'cards'/,
      ],
      [
        'a wrong type',
        zipOf(boardFile({ board: { ...boardFile().board, style: 'gantt' } })),
        /does not match the format: \/board\/style/,
      ],
      [
        'too many labels (refused inside the transaction, after the files were stored)',
        zipOf(boardFile({ labels: Array.from({ length: 31 }, (_, i) => ({ id: i + 1, name: `label ${i}` })) })),
        /more than 30 labels/,
      ],
    ];
    for (const [what, zip, message] of cases) {
      const res = await importZip(t, owner, zip);
      expect(res.statusCode, `${what}: ${res.body}`).toBe(400);
      expect(res.json(), what).toEqual({ error: expect.stringMatching(message) });
      expect(await state(t), what).toEqual(before);
    }
    expect(existsSync(path.join(t.config.dataDir, 'escape.txt'))).toBe(false);
    expect(existsSync('/tmp/escape.txt')).toBe(false);
  });

  it('refuses a zip that expands past the total limit', async () => {
    importLimits.zip = { ...UNTRUSTED, maxTotalBytes: 64 * 1024 };
    const before = await state(t);
    const res = await importZip(
      t,
      owner,
      zipOf(boardFile(), [{ name: 'attachments/8-noise.bin', data: randomBytes(100 * 1024), store: true }]),
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatch(/expands to more than/);
    expect(await state(t)).toEqual(before);
  });

  it('asks for the file and for multipart, and a read-only key cannot import', async () => {
    const none = multipart([{ name: 'other', value: 'x' }]);
    expect((await t.inject(owner, { method: 'POST', url: '/api/data/board-import', ...none })).json()).toEqual({
      error: 'body: file is required',
    });
    const json = await t.inject(owner, { method: 'POST', url: '/api/data/board-import', payload: { file: 'x' } });
    expect(json.statusCode).toBe(415);
    const readOnly = await t.createKey(owner, true);
    const body = multipart([{ name: 'file', filename: 'b.zip', data: zipOf(boardFile()) }]);
    expect((await t.inject({ key: readOnly }, { method: 'POST', url: '/api/data/board-import', ...body })).statusCode).toBe(403);
  });

  it('imports a minimal board file, links and missing files included', async () => {
    const file = boardFile();
    file.areas[0].cards[0].attachments.push(
      {
        id: 10,
        filename: 'site',
        filetype: 'text/html',
        filesize: 0,
        createdAt: '2026-01-01T00:00:00.000Z',
        file: null,
        url: 'https://example.com/x',
      },
      {
        id: 11,
        filename: 'gone.txt',
        filetype: 'text/plain',
        filesize: 5,
        createdAt: '2026-01-01T00:00:00.000Z',
        file: 'attachments/11-gone.txt',
      },
    );
    file.areas[0].cards[0].repeatEvery = 'month'; // without a due date there is nothing to repeat
    const res = await importZip(t, stranger, zipOf(file));
    expect(res.statusCode, res.body).toBe(200);
    const back = await exportBoard(t, stranger, res.json().board.id);
    expect(back.file.board).toMatchObject({ name: 'Imported', style: 'todo', owner: { id: stranger.id, name: 'Sam' } });
    const [stored, link, gone] = back.file.areas[0].cards[0].attachments;
    expect(stored).toMatchObject({ filename: 'a.bin', filesize: 3, file: expect.stringMatching(/^attachments\/\d+-a\.bin$/) });
    expect(back.files.get(stored.file)!.toString()).toBe('abc');
    expect(link).toMatchObject({ filename: 'site', file: null, url: 'https://example.com/x' });
    expect(gone).toMatchObject({ filename: 'gone.txt', file: null });
    expect(gone.url).toBeUndefined();
    expect(back.file.areas[0].cards[0].repeatEvery).toBeNull();
  });

  it.each([
    ['/api/data/export?boardId=1', null],
    ['/board/1', null],
    [`${BASE_URL}/api/data/export`, null],
    ['https://example.org/a"),url("/api/data/export', null],
    ['https://example.org/cover.png', 'https://example.org/cover.png'],
  ])('imports the cover image %j as %j', async (image, expected) => {
    const res = await importZip(t, stranger, zipOf(boardFile({ board: { ...boardFile().board, image } })));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().board.image).toBe(expected);
  });

  it('refuses a board file past 32 MB with 413, before reading it, and creates nothing', async () => {
    const zip = oversizeZip();
    expect(zip.length).toBeLessThan(UNTRUSTED.maxTotalBytes!);
    const before = await state(t);
    const res = await importZip(t, owner, zip);
    expect(res.statusCode, res.body).toBe(413);
    expect(res.json()).toEqual({ error: 'The board file is larger than the import limit (32 MB)' });
    expect(await state(t)).toEqual(before);
  });

  it('runs one import at a time per account: another one meanwhile is refused (429) and creates nothing', async () => {
    const base = new URL(await t.listen());
    const body = multipart([{ name: 'file', filename: 'first.zip', type: 'application/zip', data: zipOf(boardFile()) }]);
    const socket = net.connect(Number(base.port), base.hostname);
    try {
      const answer = new Promise<string>((resolve) => {
        let text = '';
        socket.on('data', (chunk: Buffer) => {
          text += chunk.toString('latin1');
          if (text.includes('\r\n\r\n')) resolve(text);
        });
      });
      // The first import: its upload starts, then waits for the rest.
      socket.write(
        `POST /api/data/board-import HTTP/1.1\r\nHost: ${base.host}\r\nx-api-key: ${owner.key}\r\n` +
          `content-type: ${body.headers['content-type']}\r\ncontent-length: ${body.payload.length}\r\n\r\n`,
      );
      const split = body.payload.length - 20;
      socket.write(body.payload.subarray(0, split));
      const tmp = fileStore(t.config).scratchDir;
      await until(() => existsSync(tmp) && readdirSync(tmp).some((name) => name.endsWith('.import.part')));

      const before = await state(t);
      const second = await importZip(t, owner, zipOf(boardFile({ board: { ...boardFile().board, name: 'Second' } })));
      expect(second.statusCode, second.body).toBe(429);
      expect(second.headers['retry-after']).toMatch(/^\d+$/);
      expect(second.json()).toEqual({ error: expect.stringMatching(/already under way/) });
      expect(await state(t)).toEqual(before);
      // Another account is not held up.
      expect((await importZip(t, stranger, zipOf(boardFile()))).statusCode).toBe(200);

      // The first completes, and the account may import again.
      socket.write(body.payload.subarray(split));
      expect(await answer).toMatch(/^HTTP\/1\.1 200/);
      const third = await importZip(t, owner, zipOf(boardFile()));
      expect(third.statusCode, third.body).toBe(200);
    } finally {
      socket.destroy();
    }
  });
});
