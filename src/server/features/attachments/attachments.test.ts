import { randomBytes } from 'node:crypto';
import { existsSync, unlinkSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { contentDisposition, safeFilename } from '../../files/store.js';
import { seedBoard, share, uploadedFiles } from '../../../../test/factories.js';
import { eachDialect, type As, type TestContext } from '../../../../test/harness.js';
import { multipart, type Part } from '../../../../test/multipart.js';

function upload(
  t: TestContext,
  as: As,
  cardId: number | string,
  file: { filename: string; type?: string; data: Buffer | string },
) {
  const body = multipart([
    { name: 'cardId', value: String(cardId) },
    { name: 'file', ...file },
  ]);
  return t.inject(as, { method: 'POST', url: '/api/data/attachment', ...body });
}

/** What a refused upload must leave untouched: the rows, the history, the events and the files. */
async function state(t: TestContext) {
  const rows = async (table: 'attachments' | 'images' | 'card_activity' | 'board_events') =>
    (await t.db.selectFrom(table).selectAll().execute()).map((r) => JSON.stringify(r)).sort();
  return {
    attachments: await rows('attachments'),
    images: await rows('images'),
    activity: await rows('card_activity'),
    events: await rows('board_events'),
    files: uploadedFiles(t),
  };
}

async function storedNameOf(t: TestContext, id: number): Promise<string> {
  const row = await t.db.selectFrom('attachments').select('storedName').where('id', '=', id).executeTakeFirstOrThrow();
  return row.storedName!;
}

const PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), randomBytes(64)]);
const GIF = Buffer.concat([Buffer.from('GIF89a'), randomBytes(32)]);

describe('file names', () => {
  it('safeFilename keeps the last path segment, drops control characters, cuts to 255 keeping the extension', () => {
    expect(safeFilename('C:\\Users\\me\\report.pdf')).toBe('report.pdf');
    expect(safeFilename('a/b/')).toBe('b');
    expect(safeFilename('')).toBe('file');
    expect(safeFilename(null)).toBe('file');
    expect(safeFilename(' \u0000\u001f ')).toBe('file');
    expect(safeFilename('line\nbreak\r.txt')).toBe('linebreak.txt');
    expect(safeFilename('cafe\u0301.txt')).toBe('café.txt'.normalize('NFC'));
    const emoji = `${'😀'.repeat(300)}.png`;
    const cut = safeFilename(emoji);
    expect(Array.from(cut)).toHaveLength(255);
    expect(cut.endsWith('😀.png')).toBe(true);
    expect(safeFilename(`x.${'e'.repeat(400)}`)).toHaveLength(255);
  });

  it('contentDisposition gives an ASCII fallback and the exact name as filename*', () => {
    expect(contentDisposition('a "quoted"; name.txt')).toBe(
      `attachment; filename="a _quoted__ name.txt"; filename*=UTF-8''a%20%22quoted%22%3B%20name.txt`,
    );
    expect(contentDisposition('dir\\file.txt')).toBe(`attachment; filename="file.txt"; filename*=UTF-8''file.txt`);
    expect(contentDisposition('naïve résumé.pdf')).toBe(
      `attachment; filename="naive resume.pdf"; filename*=UTF-8''na%C3%AFve%20r%C3%A9sum%C3%A9.pdf`,
    );
    expect(contentDisposition('日本語.txt')).toBe(
      `attachment; filename="___.txt"; filename*=UTF-8''%E6%97%A5%E6%9C%AC%E8%AA%9E.txt`,
    );
    expect(contentDisposition("it's (1)*.txt")).toContain(`filename*=UTF-8''it%27s%20%281%29%2A.txt`);
  });
});

eachDialect('attachments', (t) => {
  it('stores an upload and serves the same bytes back as a download', async () => {
    const user = await t.signUp('Ada');
    const { board, cards } = await seedBoard(t, user, { A: ['x'] });
    const data = randomBytes(200_000);
    const res = await upload(t, user, cards.x!.id, { filename: 'Übersicht 2026.pdf', type: 'application/pdf', data });
    expect(res.statusCode, res.body).toBe(200);
    const { attachment } = res.json();
    expect(attachment).toEqual({
      id: expect.any(Number),
      filename: 'Übersicht 2026.pdf',
      filetype: 'application/pdf',
      filesize: data.length,
      createdAt: expect.stringMatching(/Z$/),
    });
    const storedName = await storedNameOf(t, attachment.id);
    expect(storedName).toMatch(/^[0-9a-f]{32}\.pdf$/);
    expect(uploadedFiles(t)).toContain(storedName);
    expect(uploadedFiles(t).filter((f) => f.startsWith('tmp'))).toEqual([]);

    const got = await t.inject(user, { method: 'GET', url: `/api/data/attachment?id=${attachment.id}` });
    expect(got.statusCode).toBe(200);
    expect(got.rawPayload.equals(data)).toBe(true);
    expect(got.headers['content-type']).toBe('application/pdf');
    expect(got.headers['content-length']).toBe(String(data.length));
    expect(got.headers['x-content-type-options']).toBe('nosniff');
    expect(got.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
    expect(got.headers['content-disposition']).toBe(
      `attachment; filename="Ubersicht 2026.pdf"; filename*=UTF-8''%C3%9Cbersicht%202026.pdf`,
    );

    const activity = (await t.inject(user, { method: 'GET', url: `/api/data/card-activity?cardID=${cards.x!.id}` })).json()
      .activity;
    expect(activity.at(-1)).toMatchObject({
      type: 'attachment',
      data: { attachmentId: attachment.id, filename: 'Übersicht 2026.pdf' },
    });
    const event = await t.db
      .selectFrom('board_events')
      .selectAll()
      .where('boardId', '=', board.id)
      .where('name', '=', 'attachment.created')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(event.data)).toEqual({ cardId: cards.x!.id, attachment });
  });

  it('serves anything that could run in a browser as application/octet-stream', async () => {
    const user = await t.signUp();
    const { cards } = await seedBoard(t, user, { A: ['x'] });
    for (const [filename, type] of [
      ['page.html', 'text/html'],
      ['drawing.svg', 'image/svg+xml'],
      ['script.js', 'text/javascript'],
      ['page.xhtml', 'application/xhtml+xml'],
      ['odd', 'text/html; charset=utf-8'],
      ['nonsense', 'not a type'],
    ]) {
      const res = await upload(t, user, cards.x!.id, { filename: filename!, type, data: '<script>alert(1)</script>' });
      expect(res.statusCode, res.body).toBe(200);
      const got = await t.inject(user, { method: 'GET', url: `/api/data/attachment?id=${res.json().attachment.id}` });
      expect(got.statusCode).toBe(200);
      expect(got.headers['content-type'], type).toBe('application/octet-stream');
      expect(got.headers['x-content-type-options']).toBe('nosniff');
      expect(got.headers['content-disposition']).toMatch(/^attachment; /);
      expect(got.body).toBe('<script>alert(1)</script>');
    }
    const png = await upload(t, user, cards.x!.id, { filename: 'shot.PNG', type: 'image/png', data: PNG });
    const got = await t.inject(user, { method: 'GET', url: `/api/data/attachment?id=${png.json().attachment.id}` });
    expect(got.headers['content-type']).toBe('image/png');
    expect(await storedNameOf(t, png.json().attachment.id)).toMatch(/\.png$/);
  });

  it('stores hostile file names safely and serves them under a safe name', async () => {
    const user = await t.signUp();
    const { cards } = await seedBoard(t, user, { A: ['x'] });
    const long = `${'a'.repeat(996)}.txt`;
    const cases: Array<[string, (name: string) => void]> = [
      ['../../etc/passwd', (name) => expect(name).toBe('passwd')],
      ['..\\..\\windows\\win.ini', (name) => expect(name).toBe('win.ini')],
      ['bad\u0001na\u0007me\u001b\u007f.txt', (name) => expect(name).toBe('badname.txt')],
      ['invoice\u202etxt.exe', (name) => expect(name).toBe('invoicetxt.exe')],
      ['../', (name) => expect(name).toBe('file')],
      ['..', (name) => expect(name).toBe('file')],
      [long, (name) => expect(name).toBe(`${'a'.repeat(251)}.txt`)],
      ["it's;100%.txt", (name) => expect(name).toBe("it's;100%.txt")],
    ];
    for (const [raw, check] of cases) {
      const res = await upload(t, user, cards.x!.id, { filename: raw, type: 'text/plain', data: 'hello' });
      expect(res.statusCode, `${JSON.stringify(raw)}: ${res.body}`).toBe(200);
      const { attachment } = res.json();
      check(attachment.filename);
      expect(Array.from(attachment.filename as string).length).toBeLessThanOrEqual(255);
      // Stored under a random name inside the uploads folder, whatever the name said.
      expect(await storedNameOf(t, attachment.id)).toMatch(/^[0-9a-f]{32}(\.[a-z0-9]+)?$/);
      const got = await t.inject(user, { method: 'GET', url: `/api/data/attachment?id=${attachment.id}` });
      expect(got.statusCode).toBe(200);
      const disposition = got.headers['content-disposition'] as string;
      expect(disposition).toMatch(/^attachment; filename="[^"]*"; filename\*=UTF-8''\S+$/);
      expect(disposition).not.toContain('/');
      expect(disposition).not.toContain('\\');
      expect(disposition).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/); // eslint-disable-line no-control-regex
      expect(got.body).toBe('hello');
    }
    expect(existsSync(path.join(t.config.dataDir, 'etc'))).toBe(false);
    expect(uploadedFiles(t).every((f) => /^[0-9a-f]{32}(\.[a-z0-9]+)?$/.test(f))).toBe(true);
  });

  it('refuses an upload without a file, without a card, or that is not multipart, writing nothing', async () => {
    const user = await t.signUp();
    const { cards } = await seedBoard(t, user, { A: ['x'] });
    const before = await state(t);
    const post = (parts: Part[]) => t.inject(user, { method: 'POST', url: '/api/data/attachment', ...multipart(parts) });

    const noFile = await post([{ name: 'cardId', value: String(cards.x!.id) }]);
    expect(noFile.statusCode).toBe(400);
    expect(noFile.json()).toEqual({ error: expect.stringContaining('file') });
    const emptyFilePart = await post([
      { name: 'cardId', value: String(cards.x!.id) },
      { name: 'file', filename: '', data: '' },
    ]);
    expect(emptyFilePart.statusCode).toBe(400);
    const noCard = await post([{ name: 'file', filename: 'a.txt', data: 'abc' }]);
    expect(noCard.statusCode).toBe(400);
    expect(noCard.json().error).toContain('cardId');
    for (const bad of ['abc', '0', '-1', '1.5', '99999999999']) {
      const res = await post([
        { name: 'cardId', value: bad },
        { name: 'file', filename: 'a.txt', data: 'abc' },
      ]);
      expect(res.statusCode, bad).toBe(400);
    }
    const unknown = await upload(t, user, 999999, { filename: 'a.txt', data: 'abc' });
    expect(unknown.statusCode).toBe(404);
    const json = await t.inject(user, { method: 'POST', url: '/api/data/attachment', payload: { cardId: cards.x!.id } });
    expect(json.statusCode).toBe(415);
    const empty = await t.inject(user, { method: 'POST', url: '/api/data/attachment', ...multipart([]) });
    expect(empty.statusCode).toBe(400);
    const garbage = await t.inject(user, {
      method: 'POST',
      url: '/api/data/attachment',
      headers: { 'content-type': 'multipart/form-data' },
      payload: 'no boundary here',
    });
    expect(garbage.statusCode).toBe(400);
    expect(await state(t)).toEqual(before);
  });

  it('refuses readers, strangers, anonymous callers and archived cards, areas and boards before writing anything', async () => {
    const owner = await t.signUp();
    const reader = await t.signUp();
    const stranger = await t.signUp();
    const { board, areas, cards } = await seedBoard(t, owner, { A: ['x', 'archived'], B: ['y'] });
    await share(t, board.id, reader, 'read');
    await t.inject(owner, { method: 'DELETE', url: '/api/data/card', payload: { cardID: cards.archived!.id } });
    await t.inject(owner, { method: 'DELETE', url: `/api/data/area?id=${areas.B!.id}&boardId=${board.id}` });
    const before = await state(t);
    const file = { filename: 'a.txt', type: 'text/plain', data: randomBytes(50_000) };

    expect((await upload(t, reader, cards.x!.id, file)).statusCode).toBe(403);
    expect((await upload(t, stranger, cards.x!.id, file)).statusCode).toBe(404);
    expect((await upload(t, null, cards.x!.id, file)).statusCode).toBe(403);
    const readOnlyKey = await t.createKey(owner, true);
    expect((await upload(t, { key: readOnlyKey }, cards.x!.id, file)).statusCode).toBe(403);
    const archivedCard = await upload(t, owner, cards.archived!.id, file);
    expect(archivedCard.statusCode).toBe(409);
    expect(archivedCard.json()).toEqual({ error: expect.any(String) });
    expect((await upload(t, owner, cards.y!.id, file)).statusCode).toBe(409);
    expect(await state(t)).toEqual(before);

    await t.inject(owner, { method: 'DELETE', url: `/api/data/board?id=${board.id}&userId=${owner.id}` });
    const archivedBoard = await state(t);
    expect((await upload(t, owner, cards.x!.id, file)).statusCode).toBe(409);
    expect(await state(t)).toEqual(archivedBoard);
  });

  it('an upload cut off in the middle leaves no row and no file', async () => {
    const user = await t.signUp();
    const { cards } = await seedBoard(t, user, { A: ['x'] });
    const before = await state(t);
    const { payload, headers } = multipart([
      { name: 'cardId', value: String(cards.x!.id) },
      { name: 'file', filename: 'big.bin', data: randomBytes(300_000) },
    ]);
    const res = await t.inject(user, {
      method: 'POST',
      url: '/api/data/attachment',
      headers,
      payload: payload.subarray(0, 150_000),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: expect.any(String) });
    expect(await state(t)).toEqual(before);
  });

  it('a client that disconnects mid-upload leaves no row and no file', async () => {
    const user = await t.signUp();
    const { cards } = await seedBoard(t, user, { A: ['x'] });
    const before = await state(t);
    const { payload, headers } = multipart([
      { name: 'cardId', value: String(cards.x!.id) },
      { name: 'file', filename: 'big.bin', data: randomBytes(2_000_000) },
    ]);
    const address = new URL(await t.listen());
    const socket = net.connect(Number(address.port), address.hostname);
    await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
    socket.write(
      `POST /api/data/attachment HTTP/1.1\r\nHost: ${address.host}\r\nX-API-Key: ${user.key}\r\n` +
        `Content-Type: ${headers['content-type']}\r\nContent-Length: ${payload.length}\r\n\r\n`,
    );
    socket.write(payload.subarray(0, 600_000));
    // Wait until the server has started writing the file, then hang up.
    await waitFor(() => uploadedFiles(t).some((f) => f.startsWith('tmp')), 'a temporary file');
    socket.destroy();
    await waitFor(() => uploadedFiles(t).length === before.files.length, 'the temporary file to go');
    expect(await state(t)).toEqual(before);
  });

  it('deletes an attachment (edit access) and its file after the commit', async () => {
    const owner = await t.signUp();
    const reader = await t.signUp();
    const stranger = await t.signUp();
    const { board, cards } = await seedBoard(t, owner, { A: ['x'] });
    await share(t, board.id, reader, 'read');
    const { attachment } = (await upload(t, owner, cards.x!.id, { filename: 'a.txt', data: 'abc' })).json();
    const storedName = await storedNameOf(t, attachment.id);
    const del = (as: As) => t.inject(as, { method: 'DELETE', url: `/api/data/attachment?id=${attachment.id}` });

    expect((await t.inject(reader, { method: 'GET', url: `/api/data/attachment?id=${attachment.id}` })).statusCode).toBe(200);
    expect((await t.inject(stranger, { method: 'GET', url: `/api/data/attachment?id=${attachment.id}` })).statusCode).toBe(404);
    expect((await del(reader)).statusCode).toBe(403);
    expect((await del(stranger)).statusCode).toBe(404);
    expect(uploadedFiles(t)).toContain(storedName);

    const res = await del(owner);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true });
    expect(uploadedFiles(t)).not.toContain(storedName);
    expect(await t.db.selectFrom('attachments').select('id').where('id', '=', attachment.id).execute()).toEqual([]);
    const activity = (await t.inject(owner, { method: 'GET', url: `/api/data/card-activity?cardID=${cards.x!.id}` })).json()
      .activity;
    expect(activity.at(-1)).toMatchObject({
      type: 'attachment',
      data: { attachmentId: attachment.id, filename: 'a.txt', removed: true },
    });
    const event = await t.db
      .selectFrom('board_events')
      .select('data')
      .where('boardId', '=', board.id)
      .where('name', '=', 'attachment.deleted')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(event.data)).toEqual({ cardId: cards.x!.id, attachmentId: attachment.id });
    expect((await del(owner)).statusCode).toBe(404);
    expect((await t.inject(owner, { method: 'GET', url: `/api/data/attachment?id=${attachment.id}` })).statusCode).toBe(404);
    expect((await t.inject(owner, { method: 'GET', url: '/api/data/attachment?id=abc' })).statusCode).toBe(400);
  });

  it('answers 404 when the file behind an attachment is gone; follows a linked one', async () => {
    const user = await t.signUp();
    const { cards } = await seedBoard(t, user, { A: ['x'] });
    const { attachment } = (await upload(t, user, cards.x!.id, { filename: 'a.txt', data: 'abc' })).json();
    unlinkSync(path.join(t.config.dataDir, 'uploads', await storedNameOf(t, attachment.id)));
    const res = await t.inject(user, { method: 'GET', url: `/api/data/attachment?id=${attachment.id}` });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: expect.any(String) });

    // A linked attachment (imported) sends the caller on to its http(s) address, and nowhere else.
    const link = async (url: string) => {
      const row = await t.db
        .insertInto('attachments')
        .values({
          cardId: cards.x!.id,
          filename: 'Link',
          filetype: 'text/html',
          filesize: 0,
          storedName: null,
          url,
          userId: null,
          createdAt: new Date().toISOString(),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return t.inject(user, { method: 'GET', url: `/api/data/attachment?id=${row.id}` });
    };
    const followed = await link('https://example.com/doc');
    expect(followed.statusCode).toBe(302);
    expect(followed.headers.location).toBe('https://example.com/doc');
    expect((await link('javascript:alert(1)')).statusCode).toBe(404);
  });

  it('keeps a file another attachment still refers to', async () => {
    const user = await t.signUp();
    const { cards } = await seedBoard(t, user, { A: ['x', 'y'] });
    const { attachment } = (await upload(t, user, cards.x!.id, { filename: 'a.txt', data: 'shared' })).json();
    const storedName = await storedNameOf(t, attachment.id);
    const second = await t.db
      .insertInto('attachments')
      .values({
        cardId: cards.y!.id,
        filename: 'copy.txt',
        filetype: 'text/plain',
        filesize: 6,
        storedName,
        url: null,
        userId: user.id,
        createdAt: new Date().toISOString(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    expect((await t.inject(user, { method: 'DELETE', url: `/api/data/attachment?id=${attachment.id}` })).statusCode).toBe(200);
    expect(uploadedFiles(t)).toContain(storedName);
    expect((await t.inject(user, { method: 'GET', url: `/api/data/attachment?id=${second.id}` })).body).toBe('shared');
    // The last reference going takes the file with it.
    await t.inject(user, { method: 'DELETE', url: '/api/data/card', payload: { cardID: cards.y!.id, permanent: true } });
    expect(uploadedFiles(t)).not.toContain(storedName);
  });

  it('permanent deletes of a card, an area and a board leave no file behind; archiving keeps them', async () => {
    const user = await t.signUp();
    const { board, areas, cards } = await seedBoard(t, user, { A: ['a1', 'a2'], B: ['b1'], C: ['c1'] });
    const filesOf = async (...names: string[]) => {
      const stored: string[] = [];
      for (const name of names) {
        for (let i = 0; i < 2; i++) {
          const res = await upload(t, user, cards[name]!.id, { filename: `${name}-${i}.txt`, data: `${name} ${i}` });
          stored.push(await storedNameOf(t, res.json().attachment.id));
        }
      }
      return stored;
    };
    const a1 = await filesOf('a1');
    const areaB = await filesOf('b1');
    const rest = await filesOf('a2', 'c1');
    const image = await uploadImage(t, user, board.id, { filename: 'p.png', data: PNG });
    const imageName = image.json().url.split('/').pop();
    expect(uploadedFiles(t)).toEqual(expect.arrayContaining([...a1, ...areaB, ...rest, imageName]));

    // Archiving keeps everything.
    await t.inject(user, { method: 'DELETE', url: '/api/data/card', payload: { cardID: cards.a1!.id } });
    expect(uploadedFiles(t)).toEqual(expect.arrayContaining(a1));

    const card = await t.inject(user, {
      method: 'DELETE',
      url: '/api/data/card',
      payload: { cardID: cards.a1!.id, permanent: true },
    });
    expect(card.statusCode).toBe(200);
    expect(uploadedFiles(t).filter((f) => a1.includes(f))).toEqual([]);

    const area = await t.inject(user, {
      method: 'DELETE',
      url: `/api/data/area?id=${areas.B!.id}&boardId=${board.id}&permanent=true`,
    });
    expect(area.statusCode).toBe(200);
    expect(uploadedFiles(t).filter((f) => areaB.includes(f))).toEqual([]);
    expect(uploadedFiles(t)).toEqual(expect.arrayContaining([...rest, imageName]));

    const gone = await t.inject(user, {
      method: 'DELETE',
      url: `/api/data/board?id=${board.id}&userId=${user.id}&permanent=true`,
    });
    expect(gone.statusCode).toBe(200);
    expect(uploadedFiles(t).filter((f) => [...rest, imageName].includes(f))).toEqual([]);
  });

  it('a refused permanent delete removes no file', async () => {
    const owner = await t.signUp();
    const reader = await t.signUp();
    const { board, cards } = await seedBoard(t, owner, { A: ['x'] });
    await share(t, board.id, reader, 'read');
    const res = await upload(t, owner, cards.x!.id, { filename: 'a.txt', data: 'abc' });
    const storedName = await storedNameOf(t, res.json().attachment.id);
    const refused = await t.inject(reader, {
      method: 'DELETE',
      url: '/api/data/card',
      payload: { cardID: cards.x!.id, permanent: true },
    });
    expect(refused.statusCode).toBe(403);
    expect(
      (await t.inject(reader, { method: 'DELETE', url: `/api/data/board?id=${board.id}&userId=${reader.id}&permanent=true` }))
        .statusCode,
    ).toBe(403);
    expect(uploadedFiles(t)).toContain(storedName);
  });

  it('pictures: uploaded by editors, served to whoever can read the board, 404 to others', async () => {
    const owner = await t.signUp();
    const reader = await t.signUp();
    const stranger = await t.signUp();
    const board = await t.createBoard(owner);
    await share(t, board.id, reader, 'read');

    const res = await uploadImage(t, owner, board.id, { filename: 'paste.bin', type: 'application/octet-stream', data: PNG });
    expect(res.statusCode, res.body).toBe(200);
    const { url, id } = res.json();
    expect(url).toMatch(/^\/api\/data\/image\/[0-9a-f]{32}\.png$/);
    const row = await t.db.selectFrom('images').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ boardId: board.id, filetype: 'image/png', filesize: PNG.length, userId: owner.id });

    const got = await t.inject(reader, { method: 'GET', url });
    expect(got.statusCode).toBe(200);
    expect(got.rawPayload.equals(PNG)).toBe(true);
    expect(got.headers['content-type']).toBe('image/png');
    expect(got.headers['cache-control']).toBe('private, max-age=31536000, immutable');
    expect(got.headers['x-content-type-options']).toBe('nosniff');
    expect((await t.inject(stranger, { method: 'GET', url })).statusCode).toBe(404);
    expect((await t.inject(null, { method: 'GET', url })).statusCode).toBe(403);
    expect((await t.inject(owner, { method: 'GET', url: '/api/data/image/..%2F..%2Ftavla.db' })).statusCode).toBe(404);
    expect((await t.inject(owner, { method: 'GET', url: `/api/data/image/${'0'.repeat(32)}.png` })).statusCode).toBe(404);

    const gif = await uploadImage(t, owner, board.id, { filename: 'a.gif', type: 'image/gif', data: GIF });
    expect(gif.json().url).toMatch(/\.gif$/);
    // A public board's pictures are readable by any signed-in account.
    const open = await t.createBoard(owner, { status: 'public' });
    const pub = (await uploadImage(t, owner, open.id, { filename: 'p.png', data: PNG })).json();
    expect((await t.inject(stranger, { method: 'GET', url: pub.url })).statusCode).toBe(200);
  });

  it('pictures: refuses what is not a picture, readers, strangers and archived boards, writing nothing', async () => {
    const owner = await t.signUp();
    const reader = await t.signUp();
    const stranger = await t.signUp();
    const board = await t.createBoard(owner);
    await share(t, board.id, reader, 'read');
    const before = await state(t);
    for (const [filename, type, data] of [
      ['x.svg', 'image/svg+xml', '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'],
      ['x.png', 'image/png', '<html><body>not a png</body></html>'],
      ['x.png', 'image/png', ''],
      ['x.webp', 'image/webp', 'RIFF0000WAVE'],
    ] as const) {
      const res = await uploadImage(t, owner, board.id, { filename, type, data });
      expect(res.statusCode, filename).toBe(400);
      expect(res.json()).toEqual({ error: expect.any(String) });
    }
    expect((await uploadImage(t, reader, board.id, { filename: 'p.png', data: PNG })).statusCode).toBe(403);
    expect((await uploadImage(t, stranger, board.id, { filename: 'p.png', data: PNG })).statusCode).toBe(404);
    expect((await uploadImage(t, owner, 999999, { filename: 'p.png', data: PNG })).statusCode).toBe(404);
    expect(await state(t)).toEqual(before);
    await t.inject(owner, { method: 'DELETE', url: `/api/data/board?id=${board.id}&userId=${owner.id}` });
    const archived = await state(t);
    expect((await uploadImage(t, owner, board.id, { filename: 'p.png', data: PNG })).statusCode).toBe(409);
    expect(await state(t)).toEqual(archived);
  });
});

eachDialect(
  'attachments with a 1 MB limit',
  (t) => {
    it('refuses a file over MAX_UPLOAD_MB with 413, leaving no row and no file', async () => {
      const user = await t.signUp();
      const board = await seedBoard(t, user, { A: ['x'] });
      const cardId = board.cards.x!.id;
      const before = await state(t);
      const over = await upload(t, user, cardId, { filename: 'big.bin', data: randomBytes(1024 * 1024 + 1) });
      expect(over.statusCode).toBe(413);
      expect(over.json()).toEqual({ error: expect.any(String) });
      const image = await uploadImage(t, user, board.board.id, {
        filename: 'big.png',
        data: Buffer.concat([PNG, randomBytes(1024 * 1024)]),
      });
      expect(image.statusCode).toBe(413);
      expect(await state(t)).toEqual(before);
      expect(uploadedFiles(t)).toEqual([]);

      const exact = await upload(t, user, cardId, { filename: 'exact.bin', data: randomBytes(1024 * 1024) });
      expect(exact.statusCode).toBe(200);
      expect(exact.json().attachment.filesize).toBe(1024 * 1024);
    });
  },
  { env: { MAX_UPLOAD_MB: '1' } },
);

function uploadImage(t: TestContext, as: As, boardId: number, file: { filename: string; type?: string; data: Buffer | string }) {
  const body = multipart([
    { name: 'boardId', value: String(boardId) },
    { name: 'file', ...file },
  ]);
  return t.inject(as, { method: 'POST', url: '/api/data/image', ...body });
}

async function waitFor(check: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
