import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLOSE_LINK_GONE, type PublicBoard } from '../../../shared/api/public-links.js';
import { createTestDatabase, dialects, type TestDatabase } from '../../../../test/databases.js';
import { createArea, seedBoard, updateCard } from '../../../../test/factories.js';
import { eachDialect, startApp, type TestContext, type TestUser } from '../../../../test/harness.js';
import { multipart } from '../../../../test/multipart.js';
import { PublicViewerClient } from '../../../../test/public-viewer-client.js';

const PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), randomBytes(64)]);

type App = Pick<TestContext, 'inject'>;

async function makeLink(t: App, owner: TestUser, boardId: number): Promise<string> {
  const made = await t.inject(owner, { method: 'POST', url: '/api/data/public-link', payload: { boardId } });
  expect(made.statusCode).toBe(200);
  return made.json<{ link: { url: string } }>().link.url.split('/p/')[1]!;
}

async function uploadImage(t: TestContext, owner: TestUser, boardId: number): Promise<string> {
  const body = multipart([
    { name: 'boardId', value: String(boardId) },
    { name: 'file', filename: 'shot.png', type: 'image/png', data: PNG },
  ]);
  const res = await t.inject(owner, { method: 'POST', url: '/api/data/image', ...body });
  expect(res.statusCode).toBe(200);
  return res.json<{ url: string }>().url;
}

eachDialect('public link live view', (t) => {
  let base: string;
  beforeAll(async () => {
    base = await t.listen();
  });

  it('sends a card move and a rename live, with nobody’s name, address or id in any frame', async () => {
    const owner = await t.signUp('Olga Owner');
    const { board, areas, cards } = await seedBoard(t, owner, { Todo: ['Card', 'Other'], Done: [] });
    const cardId = cards.Card!.id as number;
    await updateCard(t, owner, cardId, { assignees: [owner.id] });
    const viewer = await PublicViewerClient.connect(base, await makeLink(t, owner, board.id));
    const { version } = await viewer.next('ready');

    const moved = await t.inject(owner, {
      method: 'POST',
      url: '/api/data/cardMove',
      payload: { cardId, fromAreaId: areas.Todo!.id, toAreaId: areas.Done!.id, newIndex: 0 },
    });
    expect(moved.statusCode).toBe(200);
    const move = await viewer.next('change');
    expect(move.version).toBeGreaterThan(version);
    expect(move.change).toEqual({ name: 'card.moved', cardId, toAreaId: areas.Done!.id, newIndex: 0 });

    await t.inject(owner, { method: 'POST', url: '/api/data/comment', payload: { cardId, content: 'a private remark' } });
    await updateCard(t, owner, cardId, { name: 'Renamed' });
    const rename = await viewer.next('change');
    expect(rename.version).toBeGreaterThan(move.version + 1); // the comment's version went by unsent
    expect(rename.change).toMatchObject({ name: 'card.changed', areaId: areas.Done!.id, index: 0 });
    expect(rename.change.name === 'card.changed' && rename.change.card).toEqual({
      id: cardId,
      name: 'Renamed',
      html: '',
      status: 0,
      dueDate: null,
      labels: [],
      checklist: { done: 0, total: 0 },
      fields: {},
    });

    // A new area's place is not in a change: the page is told to read the board again.
    await createArea(t, owner, board.id, 'Later');
    expect((await viewer.next('reload')).version).toBeGreaterThan(rename.version);

    const frames = viewer.frames.join('\n');
    for (const secret of [owner.id, owner.name, owner.email, 'a private remark']) expect(frames).not.toContain(secret);
    viewer.close();
  });

  it('closes open viewers at once when the link is revoked or replaced, or the board archived', async () => {
    const owner = await t.signUp();
    const board = await t.createBoard(owner);
    const first = await PublicViewerClient.connect(base, await makeLink(t, owner, board.id));
    await first.next('ready');
    const replacement = await makeLink(t, owner, board.id);
    expect((await first.waitClosed()).code).toBe(CLOSE_LINK_GONE);

    const second = await PublicViewerClient.connect(base, replacement);
    await second.next('ready');
    expect((await t.inject(owner, { method: 'DELETE', url: `/api/data/public-link?boardId=${board.id}` })).statusCode).toBe(200);
    expect((await second.waitClosed()).code).toBe(CLOSE_LINK_GONE);

    const third = await PublicViewerClient.connect(base, await makeLink(t, owner, board.id));
    await third.next('ready');
    const archived = await t.inject(owner, { method: 'DELETE', url: `/api/data/board?id=${board.id}&userId=${owner.id}` });
    expect(archived.statusCode).toBe(200);
    expect((await third.waitClosed()).code).toBe(CLOSE_LINK_GONE);
  });

  it('refuses the upgrade for an unknown, a malformed or a revoked token, and a stranger’s revoke attempt closes nothing', async () => {
    const owner = await t.signUp();
    const stranger = await t.signUp();
    const board = await t.createBoard(owner);
    await expect(PublicViewerClient.connect(base, 'f'.repeat(64))).rejects.toThrow('HTTP 404');
    await expect(PublicViewerClient.connect(base, 'nope')).rejects.toThrow(/HTTP 40[04]/);

    const token = await makeLink(t, owner, board.id);
    const viewer = await PublicViewerClient.connect(base, token);
    await viewer.next('ready');
    const refused = await t.inject(stranger, { method: 'DELETE', url: `/api/data/public-link?boardId=${board.id}` });
    expect([403, 404]).toContain(refused.statusCode);
    // The refusal changed nothing: the socket is still open and still served.
    await createArea(t, owner, board.id, 'Still live');
    await viewer.next('reload');
    expect(viewer.closed).toBeNull();

    await t.inject(owner, { method: 'DELETE', url: `/api/data/public-link?boardId=${board.id}` });
    await viewer.waitClosed();
    await expect(PublicViewerClient.connect(base, token)).rejects.toThrow('HTTP 404');
  });

  it('serves the board’s pasted pictures through the link only: another board’s is 404, and so is any once revoked', async () => {
    const owner = await t.signUp();
    const { board, cards } = await seedBoard(t, owner, { Todo: ['Pictured'] });
    const other = await t.createBoard(owner);
    const mine = await uploadImage(t, owner, board.id);
    const theirs = await uploadImage(t, owner, other.id);
    const name = (url: string) => url.split('/').at(-1)!;
    await updateCard(t, owner, cards.Pictured!.id as number, { content: `![shot](${mine})` });
    const token = await makeLink(t, owner, board.id);
    const look = (url: string) => t.inject(null, { method: 'GET', url });

    const view = (await look(`/api/public/${token}`)).json<PublicBoard>();
    const html = view.areas[0]!.cards[0]!.html;
    expect(html).toContain(`src="/api/public/${token}/image/${name(mine)}"`);
    expect(html).not.toContain('/api/data/image/');

    const picture = await look(`/api/public/${token}/image/${name(mine)}`);
    expect(picture.statusCode).toBe(200);
    expect(picture.rawPayload.equals(PNG)).toBe(true);
    expect(picture.headers['content-type']).toBe('image/png');
    expect(picture.headers['x-content-type-options']).toBe('nosniff');
    expect(picture.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
    expect(picture.headers['cache-control']).toBe('no-store');

    expect((await look(`/api/public/${token}/image/${name(theirs)}`)).statusCode).toBe(404);
    expect((await look(`/api/public/${token}/image/..%2F..%2Fetc%2Fpasswd`)).statusCode).toBe(404);
    expect((await look(`/api/public/${'0'.repeat(64)}/image/${name(mine)}`)).statusCode).toBe(404);
    await t.inject(owner, { method: 'DELETE', url: `/api/data/public-link?boardId=${board.id}` });
    expect((await look(`/api/public/${token}/image/${name(mine)}`)).statusCode).toBe(404);
  });

  it('is in the OpenAPI document without a credential', async () => {
    const doc = (await t.inject(null, { method: 'GET', url: '/api/docs/json' })).json<{
      paths: Record<string, Record<string, { security?: unknown[] }>>;
    }>();
    expect(doc.paths['/api/public/{token}/realtime']!.get!.security).toEqual([]);
    expect(doc.paths['/api/public/{token}/image/{name}']!.get!.security).toEqual([]);
  });
});

for (const dialect of dialects.filter((d) => d === 'postgres')) {
  describe(`public link live view across instances [${dialect}]`, () => {
    let database: TestDatabase;
    let one: Awaited<ReturnType<typeof startApp>>;
    let other: Awaited<ReturnType<typeof startApp>>;

    beforeAll(async () => {
      database = await createTestDatabase(dialect);
      one = await startApp(dialect, database.url, database.dataDir);
      other = await startApp(dialect, database.url, database.dataDir);
    }, 60_000);

    afterAll(async () => {
      for (const app of [one, other]) {
        await app?.app.close();
        await app?.database.close();
      }
      await database?.drop();
    });

    it('shows a move made on one instance to a socket on the other, and a revoke on the first closes it at once', async () => {
      const owner = await one.signUp();
      const { board, areas, cards } = await seedBoard(one, owner, { Todo: ['Card'], Done: [] });
      const viewer = await PublicViewerClient.connect(await other.listen(), await makeLink(one, owner, board.id));
      await viewer.next('ready');

      const cardId = cards.Card!.id as number;
      await one.inject(owner, {
        method: 'POST',
        url: '/api/data/cardMove',
        payload: { cardId, fromAreaId: areas.Todo!.id, toAreaId: areas.Done!.id, newIndex: 0 },
      });
      expect((await viewer.next('change')).change).toEqual({ name: 'card.moved', cardId, toAreaId: areas.Done!.id, newIndex: 0 });

      expect((await one.inject(owner, { method: 'DELETE', url: `/api/data/public-link?boardId=${board.id}` })).statusCode).toBe(
        200,
      );
      // Well within the 5 s sweep: the NOTIFY closes it, not the sweep.
      expect((await viewer.waitClosed(2000)).code).toBe(CLOSE_LINK_GONE);
    });
  });
}
