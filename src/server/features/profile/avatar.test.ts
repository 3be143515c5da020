import { randomBytes } from 'node:crypto';
import { expect, it } from 'vitest';
import { eachDialect, type As, type TestContext, type TestUser } from '../../../../test/harness.js';
import { uploadedFiles } from '../../../../test/factories.js';
import { multipart } from '../../../../test/multipart.js';

const PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), randomBytes(200)]);
const JPEG = Buffer.concat([Buffer.from('ffd8ffe000104a464946', 'hex'), randomBytes(200)]);

function uploadAvatar(t: TestContext, as: As, file: { filename: string; type: string; data: Buffer; name?: string }) {
  const body = multipart([{ name: file.name ?? 'file', filename: file.filename, type: file.type, data: file.data }]);
  return t.inject(as, { method: 'POST', url: '/api/data/avatar', ...body });
}

async function imageOf(t: TestContext, user: TestUser): Promise<string | null> {
  return (await t.db.selectFrom('user').select('image').where('id', '=', user.id).executeTakeFirstOrThrow()).image;
}

/** What a refused request must leave alone: the accounts, the board events and the files. */
async function state(t: TestContext) {
  const users = (await t.db.selectFrom('user').selectAll().orderBy('id').execute()).map((r) => JSON.stringify(r));
  const events = (await t.db.selectFrom('board_events').selectAll().execute()).map((r) => JSON.stringify(r)).sort();
  return { users, events, files: uploadedFiles(t) };
}

const nameIn = (image: string | null) => image!.replace('/api/data/avatar/', '');

eachDialect('profile picture', (t) => {
  it('stores a picture, makes it the account’s, tells its boards and serves it to any signed-in account', async () => {
    const ada = await t.signUp('Ada');
    const board = await t.createBoard(ada);
    const res = await uploadAvatar(t, ada, { filename: 'me.png', type: 'image/png', data: PNG });
    expect(res.statusCode, res.body).toBe(200);
    const { image } = res.json<{ image: string }>();
    expect(image).toMatch(/^\/api\/data\/avatar\/[0-9a-f]{32}\.png$/);
    expect(await imageOf(t, ada)).toBe(image);
    expect(uploadedFiles(t)).toEqual([nameIn(image)]);

    // The session shows it, and the board heard of it.
    const session = await t.inject({ cookie: ada.cookie }, { method: 'GET', url: '/api/auth/get-session' });
    expect(session.json<{ user: { image: string } }>().user.image).toBe(image);
    const events = await t.db.selectFrom('board_events').selectAll().where('boardId', '=', board.id).execute();
    expect(events.map((e) => JSON.stringify(e)).some((e) => e.includes('person.updated') && e.includes(nameIn(image)))).toBe(
      true,
    );

    // Someone who shares no board with Ada still sees her picture.
    const bob = await t.signUp('Bob');
    const got = await t.inject({ cookie: bob.cookie }, { method: 'GET', url: image });
    expect(got.statusCode).toBe(200);
    expect(got.rawPayload.equals(PNG)).toBe(true);
    expect(got.headers['content-type']).toBe('image/png');
    expect(got.headers['x-content-type-options']).toBe('nosniff');
    expect(got.headers['cache-control']).toBe('private, max-age=31536000, immutable');

    // Without credentials: nothing.
    expect((await t.inject(null, { method: 'GET', url: image })).statusCode).toBe(403);
    // An unknown or malformed name: 404.
    expect((await t.inject(bob, { method: 'GET', url: `/api/data/avatar/${'a'.repeat(32)}.png` })).statusCode).toBe(404);
    expect((await t.inject(bob, { method: 'GET', url: '/api/data/avatar/..%2Ftavla.db' })).statusCode).toBe(404);
  });

  it('replacing the picture removes the previous file; removing it clears the picture and the file', async () => {
    const ada = await t.signUp('Ada');
    const before = uploadedFiles(t);
    const first = (await uploadAvatar(t, ada, { filename: 'a.png', type: 'image/png', data: PNG })).json<{ image: string }>()
      .image;
    const second = await uploadAvatar(t, ada, { filename: 'b.jpg', type: 'image/jpeg', data: JPEG });
    expect(second.statusCode, second.body).toBe(200);
    const image = second.json<{ image: string }>().image;
    expect(image).toMatch(/\.jpg$/);
    expect(await imageOf(t, ada)).toBe(image);
    expect(uploadedFiles(t)).toEqual([...before, nameIn(image)].sort());
    expect(uploadedFiles(t)).not.toContain(nameIn(first));
    expect((await t.inject(ada, { method: 'GET', url: first })).statusCode).toBe(404);
    expect((await t.inject(ada, { method: 'GET', url: image })).headers['content-type']).toBe('image/jpeg');

    const removed = await t.inject(ada, { method: 'DELETE', url: '/api/data/avatar' });
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json()).toEqual({ image: null });
    expect(await imageOf(t, ada)).toBeNull();
    expect(uploadedFiles(t)).toEqual(before);
    expect((await t.inject(ada, { method: 'GET', url: image })).statusCode).toBe(404);
  });

  it('refuses a file larger than 2 MB with 413 and keeps the picture it had', async () => {
    const ada = await t.signUp('Ada');
    await uploadAvatar(t, ada, { filename: 'a.png', type: 'image/png', data: PNG });
    const was = await state(t);
    const big = Buffer.concat([PNG, randomBytes(2 * 1024 * 1024)]);
    const res = await uploadAvatar(t, ada, { filename: 'big.png', type: 'image/png', data: big });
    expect(res.statusCode, res.body).toBe(413);
    expect(await state(t)).toEqual(was);
  });

  it('refuses what is not a picture by its bytes (415), whatever its name and declared type', async () => {
    const ada = await t.signUp('Ada');
    const was = await state(t);
    const text = await uploadAvatar(t, ada, {
      filename: 'me.png',
      type: 'image/png',
      data: Buffer.from('just some text, not a picture'),
    });
    expect(text.statusCode, text.body).toBe(415);
    const svg = await uploadAvatar(t, ada, {
      filename: 'me.svg',
      type: 'image/svg+xml',
      data: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
    });
    expect(svg.statusCode).toBe(415);
    const json = await t.inject(ada, { method: 'POST', url: '/api/data/avatar', payload: { image: 'x' } });
    expect(json.statusCode).toBe(415);
    const noFile = await uploadAvatar(t, ada, { name: 'other', filename: '', type: 'image/png', data: PNG });
    expect(noFile.statusCode).toBe(400);
    expect(await state(t)).toEqual(was);
    expect(await imageOf(t, ada)).toBeNull();
  });

  it('refuses without credentials or with a read-only key (403), changing nothing', async () => {
    const ada = await t.signUp('Ada');
    const readOnly = await t.createKey(ada, true);
    await uploadAvatar(t, ada, { filename: 'a.png', type: 'image/png', data: PNG });
    const was = await state(t);
    expect((await uploadAvatar(t, null, { filename: 'a.png', type: 'image/png', data: PNG })).statusCode).toBe(403);
    expect((await uploadAvatar(t, { key: readOnly }, { filename: 'a.png', type: 'image/png', data: PNG })).statusCode).toBe(403);
    expect((await t.inject(null, { method: 'DELETE', url: '/api/data/avatar' })).statusCode).toBe(403);
    expect((await t.inject({ key: readOnly }, { method: 'DELETE', url: '/api/data/avatar' })).statusCode).toBe(403);
    expect(await state(t)).toEqual(was);
  });

  it('never serves a board’s file through the picture address, and never deletes one when a picture is replaced', async () => {
    const ada = await t.signUp('Ada');
    const board = await t.createBoard(ada);
    const pasted = await t.inject(ada, {
      method: 'POST',
      url: '/api/data/image',
      ...multipart([
        { name: 'boardId', value: String(board.id) },
        { name: 'file', filename: 'p.png', type: 'image/png', data: PNG },
      ]),
    });
    expect(pasted.statusCode, pasted.body).toBe(200);
    const storedName = pasted.json<{ url: string }>().url.split('/').pop()!;
    // Mallory points her picture at the board's file (better-auth lets an account set any image address).
    const mallory = await t.signUp('Mallory');
    await t.db
      .updateTable('user')
      .set({ image: `/api/data/avatar/${storedName}` })
      .where('id', '=', mallory.id)
      .execute();
    expect((await t.inject(mallory, { method: 'GET', url: `/api/data/avatar/${storedName}` })).statusCode).toBe(404);
    expect((await uploadAvatar(t, mallory, { filename: 'm.png', type: 'image/png', data: PNG })).statusCode).toBe(200);
    expect(uploadedFiles(t)).toContain(storedName);
  });
});
