import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmdirSync, unlinkSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { assertStoredOrder, cardNames, seedBoard, share, snapshot, updateCard } from '../../../../test/factories.js';
import { eachDialect, type As, type TestContext, type TestUser } from '../../../../test/harness.js';
import { multipart } from '../../../../test/multipart.js';

/** Attaches a file through the upload route. */
async function attach(t: TestContext, user: TestUser, cardId: number, filename: string, data: Buffer): Promise<number> {
  const body = multipart([
    { name: 'cardId', value: String(cardId) },
    { name: 'file', filename, type: 'text/plain', data },
  ]);
  const res = await t.inject(user, { method: 'POST', url: '/api/data/attachment', ...body });
  if (res.statusCode !== 200) throw new Error(`upload: ${res.statusCode} ${res.body}`);
  return res.json().attachment.id as number;
}

function uploadsDir(t: TestContext): string {
  return path.join(t.config.dataDir, 'uploads');
}

function uploadedFiles(t: TestContext): string[] {
  const root = uploadsDir(t);
  if (!existsSync(root)) return [];
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(root, path.join(e.parentPath, e.name)))
    .sort();
}

function duplicate(t: TestContext, as: As, cardID: unknown) {
  return t.inject(as, { method: 'POST', url: '/api/data/card-duplicate', payload: { cardID } });
}

eachDialect('card duplicate', (t) => {
  it('copies the card right under the original with everything but its comments', async () => {
    const owner = await t.signUp('Olga');
    const member = await t.signUp('Mika');
    const { board, areas, cards } = await seedBoard(t, owner, { A: ['one', 'two', 'three'], B: ['b'] });
    await share(t, board.id, member, 'edit');
    const labels = await t.inject(owner, {
      method: 'POST',
      url: '/api/data/labels',
      payload: { boardId: board.id, name: 'urgent' },
    });
    expect(labels.statusCode, labels.body).toBe(200);
    const labelId = labels.json().label.id as number;
    await updateCard(t, owner, cards.two!.id, {
      content: 'Steps\n- [x] first\n- [ ] second',
      dueDate: '2026-08-01T09:00:00Z',
      repeatEvery: 'week',
      assignees: [member.id, owner.id],
      reminders: [60, 15],
      labelIds: [labelId],
    });
    const first = randomBytes(5000);
    const second = randomBytes(7000);
    const a1 = await attach(t, owner, cards.two!.id, 'first.bin', first);
    const a2 = await attach(t, owner, cards.two!.id, 'second.txt', second);
    await t.db
      .insertInto('attachments')
      .values({
        cardId: cards.two!.id,
        filename: 'Linked',
        filetype: 'text/html',
        filesize: 0,
        storedName: null,
        url: 'https://example.com/doc',
        userId: owner.id,
        createdAt: new Date().toISOString(),
      })
      .execute();
    const now = new Date().toISOString();
    await t.db
      .insertInto('comments')
      .values({ cardId: cards.two!.id, userId: owner.id, authorName: null, content: 'a comment', createdAt: now, updatedAt: now })
      .execute();
    // An archived card in the area keeps its own place.
    await t.inject(owner, { method: 'DELETE', url: '/api/data/card', payload: { cardID: cards.three!.id } });
    const original = (await t.inject(owner, { method: 'GET', url: `/api/data/card?cardID=${cards.two!.id}` })).json().card;
    const filesBefore = uploadedFiles(t);

    const res = await duplicate(t, member, cards.two!.id);
    expect(res.statusCode, res.body).toBe(200);
    const { card } = res.json();
    expect(card.id).not.toBe(original.id);
    const { id: _id, sort: _sort, ...same } = original;
    expect(card).toMatchObject({ ...same, sort: 2 });
    expect(card).toMatchObject({
      area: areas.A!.id,
      boardId: board.id,
      name: 'two',
      content: 'Steps\n- [x] first\n- [ ] second',
      status: 0,
      dueDate: '2026-08-01T09:00:00.000Z',
      repeatEvery: 'week',
      reminders: [15, 60],
      archivedAt: null,
      assignees: [expect.objectContaining({ id: member.id }), expect.objectContaining({ id: owner.id })],
      labels: [{ id: labelId, name: 'urgent' }],
    });
    expect(await cardNames(t, owner, areas.A!.id)).toEqual(['one', 'two', 'two']);
    expect(await cardNames(t, owner, areas.B!.id)).toEqual(['b']);
    await assertStoredOrder(t, board.id);
    const rows = await t.db
      .selectFrom('cards')
      .select(['id', 'sort'])
      .where('areaId', '=', areas.A!.id)
      .orderBy('sort')
      .execute();
    expect(rows.map((r) => r.id)).toEqual([cards.one!.id, cards.two!.id, card.id, cards.three!.id]);
    const repeat = await t.db
      .selectFrom('cards')
      .select(['repeatAnchor', 'repeatAreaId'])
      .where('id', 'in', [original.id, card.id])
      .orderBy('id')
      .execute();
    expect(repeat[1]).toEqual(repeat[0]);

    // Attachments: rows copied, stored files copied to new names with the same bytes, links as they are.
    const copied = await t.db.selectFrom('attachments').selectAll().where('cardId', '=', card.id).orderBy('id').execute();
    const originals = await t.db.selectFrom('attachments').selectAll().where('cardId', '=', original.id).orderBy('id').execute();
    expect(copied.map((a) => [a.filename, a.filetype, a.filesize, a.url])).toEqual(
      originals.map((a) => [a.filename, a.filetype, a.filesize, a.url]),
    );
    expect(copied[2]).toMatchObject({ storedName: null, url: 'https://example.com/doc' });
    for (const [i, bytes] of [first, second].entries()) {
      const copy = copied[i]!.storedName!;
      expect(copy).not.toBe(originals[i]!.storedName);
      expect(readFileSync(path.join(uploadsDir(t), copy)).equals(bytes)).toBe(true);
    }
    expect(uploadedFiles(t)).toEqual([...filesBefore, copied[0]!.storedName!, copied[1]!.storedName!].sort());
    const download = await t.inject(owner, { method: 'GET', url: `/api/data/attachment?id=${copied[0]!.id}` });
    expect(download.rawPayload.equals(first)).toBe(true);

    // The copy's files are its own: removing the original's attachments leaves them.
    for (const id of [a1, a2]) await t.inject(owner, { method: 'DELETE', url: `/api/data/attachment?id=${id}` });
    expect(readFileSync(path.join(uploadsDir(t), copied[1]!.storedName!)).equals(second)).toBe(true);

    // No comments; history starts with `created`.
    expect(await t.db.selectFrom('comments').select('id').where('cardId', '=', card.id).execute()).toEqual([]);
    const activity = (await t.inject(owner, { method: 'GET', url: `/api/data/card-activity?cardID=${card.id}` })).json().activity;
    expect(activity).toEqual([expect.objectContaining({ type: 'created', data: { duplicatedFrom: original.id } })]);
    const event = await t.db
      .selectFrom('board_events')
      .select('data')
      .where('boardId', '=', board.id)
      .where('name', '=', 'card.created')
      .orderBy('version', 'desc')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(event.data)).toEqual({ card });
  });

  it('duplicates the bottom card to the bottom, a done card as done, and the copy of a copy under the copy', async () => {
    const user = await t.signUp();
    const { board, areas, cards } = await seedBoard(t, user, { A: ['a', 'b'] });
    await updateCard(t, user, cards.b!.id, { status: 1 });
    const copy = (await duplicate(t, user, cards.b!.id)).json().card;
    expect(copy).toMatchObject({ sort: 2, status: 1, labels: [], assignees: [], reminders: [], dueDate: null });
    await updateCard(t, user, copy.id, { name: 'b2' });
    const again = (await duplicate(t, user, cards.a!.id)).json().card;
    expect(again.sort).toBe(1);
    expect((await duplicate(t, user, copy.id)).json().card).toMatchObject({ name: 'b2', sort: 4 });
    expect(await cardNames(t, user, areas.A!.id)).toEqual(['a', 'a', 'b', 'b2', 'b2']);
    await assertStoredOrder(t, board.id);
  });

  it('skips an attachment whose file is missing', async () => {
    const user = await t.signUp();
    const { cards } = await seedBoard(t, user, { A: ['x'] });
    const kept = await attach(t, user, cards.x!.id, 'kept.txt', Buffer.from('kept'));
    const lost = await attach(t, user, cards.x!.id, 'lost.txt', Buffer.from('lost'));
    const row = await t.db.selectFrom('attachments').select('storedName').where('id', '=', lost).executeTakeFirstOrThrow();
    unlinkSync(path.join(uploadsDir(t), row.storedName!));
    const res = await duplicate(t, user, cards.x!.id);
    expect(res.statusCode).toBe(200);
    const copied = await t.db.selectFrom('attachments').selectAll().where('cardId', '=', res.json().card.id).execute();
    expect(copied.map((a) => a.filename)).toEqual(['kept.txt']);
    expect(kept).toBeGreaterThan(0);
  });

  it('fails as a whole when a file cannot be copied, removing the copies already made', async () => {
    const user = await t.signUp();
    const { areas, cards } = await seedBoard(t, user, { A: ['x'] });
    await attach(t, user, cards.x!.id, 'fine.txt', Buffer.from('fine'));
    // A stored name that is a folder: copying it fails with something other than "missing".
    const broken = `${randomBytes(16).toString('hex')}.txt`;
    mkdirSync(path.join(uploadsDir(t), broken));
    await t.db
      .insertInto('attachments')
      .values({
        cardId: cards.x!.id,
        filename: 'broken.txt',
        filetype: 'text/plain',
        filesize: 1,
        storedName: broken,
        url: null,
        userId: user.id,
        createdAt: new Date().toISOString(),
      })
      .execute();
    const before = { rows: await snapshot(t), files: uploadedFiles(t) };
    const res = await duplicate(t, user, cards.x!.id);
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ error: 'Internal server error' });
    expect({ rows: await snapshot(t), files: uploadedFiles(t) }).toEqual(before);
    expect(await cardNames(t, user, areas.A!.id)).toEqual(['x']);
    rmdirSync(path.join(uploadsDir(t), broken));
  });

  it('refuses readers, strangers, archived cards, areas and boards, and bad input, changing nothing', async () => {
    const owner = await t.signUp();
    const reader = await t.signUp();
    const stranger = await t.signUp();
    const { board, areas, cards } = await seedBoard(t, owner, { A: ['x', 'gone'], B: ['y'] });
    await share(t, board.id, reader, 'read');
    await attach(t, owner, cards.x!.id, 'a.txt', Buffer.from('abc'));
    await t.inject(owner, { method: 'DELETE', url: '/api/data/card', payload: { cardID: cards.gone!.id } });
    await t.inject(owner, { method: 'DELETE', url: `/api/data/area?id=${areas.B!.id}&boardId=${board.id}` });
    const before = { rows: await snapshot(t), files: uploadedFiles(t) };
    const after = async () => ({ rows: await snapshot(t), files: uploadedFiles(t) });

    expect((await duplicate(t, reader, cards.x!.id)).statusCode).toBe(403);
    expect((await duplicate(t, stranger, cards.x!.id)).statusCode).toBe(404);
    expect((await duplicate(t, null, cards.x!.id)).statusCode).toBe(403);
    expect((await duplicate(t, owner, 999999)).statusCode).toBe(404);
    expect((await duplicate(t, owner, 'x')).statusCode).toBe(400);
    expect((await t.inject(owner, { method: 'POST', url: '/api/data/card-duplicate', payload: {} })).statusCode).toBe(400);
    expect((await t.inject(owner, { method: 'GET', url: '/api/data/card-duplicate' })).statusCode).toBe(405);
    const archivedCard = await duplicate(t, owner, cards.gone!.id);
    expect(archivedCard.statusCode).toBe(409);
    expect(archivedCard.json()).toEqual({ error: expect.any(String) });
    expect((await duplicate(t, owner, cards.y!.id)).statusCode).toBe(409);
    expect(await after()).toEqual(before);

    await t.inject(owner, { method: 'DELETE', url: `/api/data/board?id=${board.id}&userId=${owner.id}` });
    const archived = await after();
    expect((await duplicate(t, owner, cards.x!.id)).statusCode).toBe(409);
    expect(await after()).toEqual(archived);
  });
});
