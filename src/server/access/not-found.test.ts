import type { InjectOptions } from 'fastify';
import { expect, it } from 'vitest';
import { seedBoard, snapshot, uploadedFiles } from '../../../test/factories.js';
import { eachDialect } from '../../../test/harness.js';
import { multipart } from '../../../test/multipart.js';

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(32)]);
const MISSING = 987_654;

/**
 * Ids cannot be probed: for every route that takes an id, an id that does not
 * exist and one on a board the caller cannot read get the same status and body.
 */
eachDialect('missing and unreadable ids', (t) => {
  it('answer alike on every route that takes an id, and change nothing', async () => {
    const owner = await t.signUp('Owner');
    const helper = await t.signUp('Helper');
    const outsider = await t.signUp('Outsider');
    const hidden = await seedBoard(t, owner, { Todo: ['secret'] });
    const own = await seedBoard(t, outsider, { Mine: ['mine'] });
    await t.inject(owner, {
      method: 'POST',
      url: '/api/data/invite',
      payload: { boardId: hidden.board.id, userId: helper.id, permission: 'edit' },
    });

    const card = hidden.cards.secret!.id as number;
    const area = hidden.areas.Todo!.id as number;
    const board = hidden.board.id;
    const myBoard = own.board.id;
    const myArea = own.areas.Mine!.id as number;
    const myCard = own.cards.mine!.id as number;
    const comment = (
      await t.inject(helper, { method: 'POST', url: '/api/data/comment', payload: { cardId: card, content: 'hi' } })
    ).json().comment.id as number;
    const attachment = (
      await t.inject(owner, {
        method: 'POST',
        url: '/api/data/attachment',
        ...multipart([
          { name: 'cardId', value: String(card) },
          { name: 'file', filename: 'a.txt', type: 'text/plain', data: 'text' },
        ]),
      })
    ).json().attachment.id as number;
    const image = (
      await t.inject(owner, {
        method: 'POST',
        url: '/api/data/image',
        ...multipart([
          { name: 'boardId', value: String(board) },
          { name: 'file', filename: 'a.png', type: 'image/png', data: PNG },
        ]),
      })
    ).json().url as string;
    const imageName = image.split('/').pop()!;
    const missingImage = imageName.replace(/^./, (c) => (c === 'a' ? 'b' : 'a'));
    const label = (
      await t.inject(owner, { method: 'POST', url: '/api/data/labels', payload: { boardId: board, name: 'x' } })
    ).json().label.id as number;
    const notification = (await t.db.selectFrom('notifications').select('id').where('userId', '=', owner.id).executeTakeFirst())!
      .id;

    const upload = (field: string, id: number) =>
      multipart([
        { name: field, value: String(id) },
        { name: 'file', filename: 'b.txt', type: 'text/plain', data: 'text' },
      ]);
    type Route = [string, (id: number) => InjectOptions];
    const byKind: Record<string, { hidden: number; routes: Route[] }> = {
      card: {
        hidden: card,
        routes: [
          ['GET card', (id) => ({ method: 'GET', url: `/api/data/card?cardID=${id}` })],
          ['PUT card', (id) => ({ method: 'PUT', url: '/api/data/card', payload: { cardID: id, name: 'x' } })],
          ['DELETE card', (id) => ({ method: 'DELETE', url: '/api/data/card', payload: { cardID: id } })],
          [
            'DELETE card permanent',
            (id) => ({ method: 'DELETE', url: '/api/data/card', payload: { cardID: id, permanent: true } }),
          ],
          ['POST card-duplicate', (id) => ({ method: 'POST', url: '/api/data/card-duplicate', payload: { cardID: id } })],
          [
            'POST cardMove',
            (id) => ({
              method: 'POST',
              url: '/api/data/cardMove',
              payload: { cardId: id, fromAreaId: myArea, toAreaId: myArea, newIndex: 0 },
            }),
          ],
          [
            'POST cardOrder',
            (id) => ({ method: 'POST', url: '/api/data/cardOrder', payload: { cardId: id, areaId: myArea, newIndex: 0 } }),
          ],
          ['GET comment', (id) => ({ method: 'GET', url: `/api/data/comment?cardId=${id}` })],
          ['POST comment', (id) => ({ method: 'POST', url: '/api/data/comment', payload: { cardId: id, content: 'x' } })],
          ['GET card-activity', (id) => ({ method: 'GET', url: `/api/data/card-activity?cardID=${id}` })],
          ['POST attachment', (id) => ({ method: 'POST', url: '/api/data/attachment', ...upload('cardId', id) })],
          ['POST archive card', (id) => ({ method: 'POST', url: '/api/data/archive', payload: { type: 'card', id } })],
          ['PATCH notifications cardId', (id) => ({ method: 'PATCH', url: `/api/data/notifications?cardId=${id}` })],
        ],
      },
      area: {
        hidden: area,
        routes: [
          ['GET cards', (id) => ({ method: 'GET', url: `/api/data/cards?areaId=${id}` })],
          ['GET cards filtered', (id) => ({ method: 'GET', url: `/api/data/cards?areaId=${id}&unassigned=true` })],
          ['POST card', (id) => ({ method: 'POST', url: '/api/data/card', payload: { areaId: id, name: 'x' } })],
          ['POST area', (id) => ({ method: 'POST', url: '/api/data/area', payload: { id, boardId: myBoard, name: 'x' } })],
          ['DELETE area', (id) => ({ method: 'DELETE', url: `/api/data/area?id=${id}&boardId=${myBoard}` })],
          ['POST archive area', (id) => ({ method: 'POST', url: '/api/data/archive', payload: { type: 'area', id } })],
        ],
      },
      board: {
        hidden: board,
        routes: [
          ['GET board', (id) => ({ method: 'GET', url: `/api/data/board?id=${id}&userId=${outsider.id}` })],
          ['POST board', (id) => ({ method: 'POST', url: '/api/data/board', payload: { id, name: 'x' } })],
          ['GET areas', (id) => ({ method: 'GET', url: `/api/data/areas?boardId=${id}` })],
          ['POST area new', (id) => ({ method: 'POST', url: '/api/data/area', payload: { boardId: id, name: 'x' } })],
          ['GET labels', (id) => ({ method: 'GET', url: `/api/data/labels?boardId=${id}` })],
          ['POST labels', (id) => ({ method: 'POST', url: '/api/data/labels', payload: { boardId: id, name: 'y' } })],
          ['GET archive', (id) => ({ method: 'GET', url: `/api/data/archive?boardId=${id}` })],
          ['GET members', (id) => ({ method: 'GET', url: `/api/data/members?boardId=${id}` })],
          ['POST image', (id) => ({ method: 'POST', url: '/api/data/image', ...upload('boardId', id) })],
        ],
      },
      comment: {
        hidden: comment,
        routes: [
          ['PUT comment', (id) => ({ method: 'PUT', url: '/api/data/comment', payload: { id, content: 'x' } })],
          ['DELETE comment', (id) => ({ method: 'DELETE', url: `/api/data/comment?id=${id}` })],
        ],
      },
      attachment: {
        hidden: attachment,
        routes: [
          ['GET attachment', (id) => ({ method: 'GET', url: `/api/data/attachment?id=${id}` })],
          ['DELETE attachment', (id) => ({ method: 'DELETE', url: `/api/data/attachment?id=${id}` })],
        ],
      },
      label: {
        hidden: label,
        routes: [
          ['PUT card labelIds', (id) => ({ method: 'PUT', url: '/api/data/card', payload: { cardID: myCard, labelIds: [id] } })],
        ],
      },
      notification: {
        hidden: notification,
        routes: [['PATCH notifications id', (id) => ({ method: 'PATCH', url: `/api/data/notifications?id=${id}` })]],
      },
    };

    const before = { rows: await snapshot(t), files: uploadedFiles(t), unread: await unread() };
    const differing: string[] = [];
    for (const [kind, { hidden: hiddenId, routes }] of Object.entries(byKind)) {
      for (const [name, request] of routes) {
        const absent = await t.inject(outsider, request(MISSING));
        const unreadable = await t.inject(outsider, request(hiddenId));
        const seen = (r: typeof absent) => `${r.statusCode} ${r.body}`;
        if (seen(absent) !== seen(unreadable)) differing.push(`${kind} ${name}: ${seen(absent)} / ${seen(unreadable)}`);
      }
    }
    const absentImage = await t.inject(outsider, { method: 'GET', url: `/api/data/image/${missingImage}` });
    const unreadableImage = await t.inject(outsider, { method: 'GET', url: `/api/data/image/${imageName}` });
    if (absentImage.body !== unreadableImage.body || absentImage.statusCode !== unreadableImage.statusCode)
      differing.push(`image GET: ${absentImage.body} / ${unreadableImage.body}`);
    expect(differing).toEqual([]);

    // One message per kind of thing.
    const get = (url: string) => t.inject(outsider, { method: 'GET', url }).then((r) => [r.statusCode, r.json()]);
    expect(await get(`/api/data/card?cardID=${card}`)).toEqual([404, { error: 'Card not found' }]);
    expect(await get(`/api/data/comment?cardId=${card}`)).toEqual([404, { error: 'Card not found' }]);
    expect(await get(`/api/data/card-activity?cardID=${card}`)).toEqual([404, { error: 'Card not found' }]);
    expect(await get(`/api/data/cards?areaId=${area}`)).toEqual([404, { error: 'Area not found' }]);
    expect(await get(`/api/data/areas?boardId=${board}`)).toEqual([404, { error: 'Board not found' }]);
    expect(await get(`/api/data/attachment?id=${attachment}`)).toEqual([404, { error: 'Attachment not found' }]);

    expect({ rows: await snapshot(t), files: uploadedFiles(t), unread: await unread() }).toEqual(before);

    /** What the snapshot does not cover: notifications, comments, attachments and pictures. */
    async function unread() {
      const rows = (table: 'notifications' | 'comments' | 'attachments' | 'images') =>
        t.db
          .selectFrom(table)
          .selectAll()
          .execute()
          .then((all) => all.map((r) => JSON.stringify(r)).sort());
      return Promise.all([rows('notifications'), rows('comments'), rows('attachments'), rows('images')]);
    }
  });
});
