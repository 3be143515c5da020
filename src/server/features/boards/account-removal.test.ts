import { existsSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { seedBoard, snapshot, uploadedFiles } from '../../../../test/factories.js';
import { eachDialect } from '../../../../test/harness.js';
import { multipart } from '../../../../test/multipart.js';

const PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), Buffer.alloc(64, 7)]);

eachDialect('deleting an account', (t) => {
  const uploads = () => uploadedFiles(t);

  it("removes the account's boards with their files and its picture; its memberships elsewhere simply end", async () => {
    const admin = await t.signUp('Admin');
    const leaving = await t.signUp('Leaving');
    const staying = await t.signUp('Staying');
    const own = await seedBoard(t, leaving, { A: ['with a file'] });
    await t.inject(leaving, {
      method: 'POST',
      url: '/api/data/invite',
      payload: { boardId: own.board.id, userId: staying.id, permission: 'edit' },
    });
    const upload = await t.inject(leaving, {
      method: 'POST',
      url: '/api/data/attachment',
      ...multipart([
        { name: 'cardId', value: String(own.cards['with a file']!.id) },
        { name: 'file', filename: 'notes.txt', type: 'text/plain', data: 'kept nowhere after' },
      ]),
    });
    expect(upload.statusCode).toBe(200);
    const other = await seedBoard(t, staying, { B: ['theirs'] });
    await t.inject(staying, {
      method: 'POST',
      url: '/api/data/invite',
      payload: { boardId: other.board.id, userId: leaving.id, permission: 'edit' },
    });
    const attachmentFile = uploads();
    expect(attachmentFile).toHaveLength(1);
    const picture = await t.inject(leaving, {
      method: 'POST',
      url: '/api/data/avatar',
      ...multipart([{ name: 'file', filename: 'me.png', type: 'image/png', data: PNG }]),
    });
    expect(picture.statusCode).toBe(200);
    expect(uploads()).toHaveLength(2);

    const res = await t.inject(
      { cookie: admin.cookie },
      { method: 'POST', url: '/api/auth/admin/remove-user', payload: { userId: leaving.id } },
    );
    expect(res.statusCode).toBe(200);

    expect(await t.db.selectFrom('user').select('id').where('id', '=', leaving.id).execute()).toEqual([]);
    expect(await t.db.selectFrom('boards').select('id').where('id', '=', own.board.id).execute()).toEqual([]);
    expect(await t.db.selectFrom('cards').select('id').where('boardId', '=', own.board.id).execute()).toEqual([]);
    expect(existsSync(path.join(t.config.dataDir, 'uploads', attachmentFile[0]!))).toBe(false);
    expect(uploads()).toEqual([]); // the profile picture went too
    const shared = await t.inject(staying, { method: 'POST', url: '/api/data/boards', payload: { shared: true } });
    expect(shared.json()).toEqual({ boards: [] });
    // The board they were a member of is untouched.
    const theirs = await t.inject(staying, { method: 'GET', url: `/api/data/board?id=${other.board.id}&userId=${staying.id}` });
    expect(theirs.statusCode).toBe(200);
  });

  it('refuses a non-administrator, changing nothing', async () => {
    const someone = await t.signUp('Someone');
    const target = await t.signUp('Target');
    await seedBoard(t, target, { A: ['x'] });
    const before = await snapshot(t);
    const res = await t.inject(
      { cookie: someone.cookie },
      { method: 'POST', url: '/api/auth/admin/remove-user', payload: { userId: target.id } },
    );
    expect(res.statusCode).toBe(403);
    expect(await snapshot(t)).toEqual(before);
  });
});
