import { expect, it } from 'vitest';
import { seedBoard } from '../../../../test/factories.js';
import { eachDialect, type TestUser } from '../../../../test/harness.js';
import { Viewer } from '../../../../test/realtime-client.js';

eachDialect('notifications', (t) => {
  const list = async (user: TestUser, query = '') => {
    const res = await t.inject(user, { method: 'GET', url: `/api/data/notifications${query}` });
    expect(res.statusCode).toBe(200);
    return res.json();
  };
  /** Notifications written straight into the table, for paging without a hundred operations. */
  const seed = async (user: TestUser, boardId: number, cards: Array<number | null>, names?: string[]) => {
    for (const [i, cardId] of cards.entries()) {
      const message = names?.[i] ?? `n${cardId}`;
      await t.db
        .insertInto('notifications')
        .values({
          userId: user.id,
          type: cardId ? 'card_created' : 'invitation',
          boardId,
          cardId,
          message,
          actorId: null,
          createdAt: new Date().toISOString(),
        })
        .execute();
    }
  };
  const numbered = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => `n${from + i}`);

  it('notifies an existing account invited to a board, with the actor, and pushes it live', async () => {
    const owner = await t.signUp('Olivia');
    const friend = await t.signUp('Felix');
    const live = await Viewer.connect(await t.listen(), { cookie: friend.cookie });
    const { board } = await seedBoard(t, owner, { A: [] }, { name: 'Garden' });
    await t.inject(owner, {
      method: 'POST',
      url: '/api/data/invite',
      payload: { boardId: board.id, userId: friend.id, permission: 'read' },
    });
    const page = await list(friend);
    expect(page).toEqual({
      notifications: [
        {
          id: expect.any(Number),
          type: 'invitation',
          boardId: board.id,
          cardId: null,
          message: 'Olivia shared the board “Garden” with you',
          isRead: false,
          createdAt: expect.stringMatching(/Z$/),
          actorName: 'Olivia',
          actorImage: null,
          actorType: 'human',
        },
      ],
      hasMore: false,
      unreadCount: 1,
    });
    const pushed = await live.next('notification');
    expect(pushed.notification).toMatchObject({
      id: page.notifications[0].id,
      type: 'invitation',
      message: page.notifications[0].message,
    });
    live.close();
    // The actor hears nothing of their own act.
    expect((await list(owner)).notifications).toEqual([]);
  });

  it('notifies everyone on the board but the actor of cards created, moved, done, commented; the assignee of an assignment', async () => {
    const owner = await t.signUp('Owner');
    const editor = await t.signUp('Editor');
    const reader = await t.signUp('Reader');
    const former = await t.signUp('Former');
    const stranger = await t.signUp('Stranger');
    const { board, areas } = await seedBoard(t, owner, { Todo: [], Done: [] }, { name: 'Ops', status: 'public' });
    for (const [user, permission] of [
      [editor, 'edit'],
      [reader, 'read'],
      [former, 'read'],
    ] as const) {
      await t.inject(owner, {
        method: 'POST',
        url: '/api/data/invite',
        payload: { boardId: board.id, userId: user.id, permission },
      });
    }
    await t.inject(owner, { method: 'DELETE', url: `/api/data/invite?boardId=${board.id}&userId=${former.id}` });
    const card = (
      await t.inject(editor, {
        method: 'POST',
        url: '/api/data/card',
        payload: { areaId: areas.Todo!.id, name: 'Patch servers' },
      })
    ).json().card;
    await t.inject(editor, {
      method: 'POST',
      url: '/api/data/cardMove',
      payload: { cardId: card.id, fromAreaId: areas.Todo!.id, toAreaId: areas.Done!.id, newIndex: 0 },
    });
    await t.inject(owner, {
      method: 'PUT',
      url: '/api/data/card',
      payload: { cardID: card.id, status: 1, assignees: [editor.id, owner.id] },
    });
    await t.inject(editor, {
      method: 'POST',
      url: '/api/data/comment',
      payload: { cardId: card.id, content: 'Done on   all\nhosts' },
    });

    const types = async (user: TestUser): Promise<Array<[string, string, number]>> =>
      (await list(user)).notifications
        .filter((n: { type: string }) => n.type !== 'invitation')
        .map((n: { type: string; message: string; cardId: number }) => [n.type, n.message, n.cardId])
        .reverse();
    expect(await types(reader)).toEqual([
      ['card_created', 'Editor created the card “Patch servers” on “Ops”', card.id],
      ['card_moved', 'Editor moved the card “Patch servers” from “Todo” to “Done”', card.id],
      ['card_status_changed', 'Owner marked the card “Patch servers” as done', card.id],
      ['comment', 'Editor commented on “Patch servers”: Done on all hosts', card.id],
    ]);
    expect((await types(owner)).map((x) => x[0])).toEqual(['card_created', 'card_moved', 'comment']);
    expect((await types(editor)).map((x) => x[0])).toEqual(['card_assigned', 'card_status_changed']);
    expect((await types(editor))[0]![1]).toBe('Owner assigned you the card “Patch servers”');
    // Gone from the board, or never on it (a public board is readable, not followed): nothing.
    expect(await types(former)).toEqual([]);
    expect(await types(stranger)).toEqual([]);
  });

  it('pages newest first anchored on an id, stable while new ones arrive', async () => {
    const owner = await t.signUp();
    const user = await t.signUp();
    const { board } = await seedBoard(t, owner, { A: [] });
    await seed(user, board.id, Array(7).fill(null), numbered(1, 7));
    const first = await list(user, '?limit=3');
    expect(first.notifications.map((n: { message: string }) => n.message)).toEqual(['n7', 'n6', 'n5']);
    expect(first.hasMore).toBe(true);
    // Two arrive meanwhile: the next page is not shifted by them.
    await seed(user, board.id, [null, null], numbered(8, 9));
    const second = await list(user, `?limit=3&before=${first.notifications[2].id}`);
    expect(second.notifications.map((n: { message: string }) => n.message)).toEqual(['n4', 'n3', 'n2']);
    expect(second.hasMore).toBe(true);
    const last = await list(user, `?limit=3&before=${second.notifications[2].id}`);
    expect(last.notifications.map((n: { message: string }) => n.message)).toEqual(['n1']);
    expect(last.hasMore).toBe(false);
    expect(last.unreadCount).toBe(9);
    const all = await list(user);
    expect(all.notifications).toHaveLength(9);
    expect(all.hasMore).toBe(false);
    // `before` is ignored without a limit.
    expect((await list(user, `?before=${first.notifications[0].id}`)).notifications).toHaveLength(9);
  });

  it('answers the cards with unread notifications, for one board or all, and marks read in three ways', async () => {
    const owner = await t.signUp();
    const user = await t.signUp();
    const a = await seedBoard(t, owner, { A: ['x', 'y'] });
    const b = await seedBoard(t, owner, { A: ['z'] });
    const [x, y, z] = [a.cards.x!.id, a.cards.y!.id, b.cards.z!.id];
    await seed(user, a.board.id, [x, x, y, null]);
    await seed(user, b.board.id, [z]);
    expect(await list(user, '?unreadCards')).toEqual({ cardIds: [x, y, z].sort((p, q) => p - q) });
    expect(await list(user, `?unreadCards=1&boardId=${b.board.id}`)).toEqual({ cardIds: [z] });

    const patch = (query: string) => t.inject(user, { method: 'PATCH', url: `/api/data/notifications${query}` });
    expect((await patch(`?cardId=${x}`)).json()).toEqual({ success: true });
    expect((await list(user, '?unreadCards')).cardIds).toEqual([y, z].sort((p, q) => p - q));
    // A board-level read leaves the card notifications of that board unread.
    await patch(`?boardId=${a.board.id}`);
    expect((await list(user)).unreadCount).toBe(2);
    expect((await list(user, '?unreadCards')).cardIds).toEqual([y, z].sort((p, q) => p - q));
    const zNote = (await list(user)).notifications.find((n: { cardId: number }) => n.cardId === z);
    await patch(`?id=${zNote.id}`);
    expect((await list(user)).unreadCount).toBe(1);
  });

  it('answers the boards with anything unread, board-level ones included, and only the caller’s', async () => {
    const owner = await t.signUp();
    const user = await t.signUp();
    const other = await t.signUp();
    const a = await seedBoard(t, owner, { A: ['x'] });
    const b = await seedBoard(t, owner, { A: [] });
    const c = await seedBoard(t, owner, { A: [] });
    const x = a.cards.x!.id;
    await seed(user, a.board.id, [x]);
    await seed(user, b.board.id, [null]); // an invitation, say: about the board, no card
    await seed(other, c.board.id, [null]);
    const boards = async (as: typeof user) => (await list(as, '?unreadBoards')).boardIds as number[];
    expect(await boards(user)).toEqual([a.board.id, b.board.id].sort((p, q) => p - q));
    await t.inject(user, { method: 'PATCH', url: `/api/data/notifications?cardId=${x}` });
    expect(await boards(user)).toEqual([b.board.id]);
    await t.inject(user, { method: 'PATCH', url: `/api/data/notifications?boardId=${b.board.id}` });
    expect(await boards(user)).toEqual([]);
    expect(await boards(other)).toEqual([c.board.id]);
    expect((await t.inject(null, { method: 'GET', url: '/api/data/notifications?unreadBoards' })).statusCode).toBe(403);
  });

  it('refuses bad paging and marking, and never shows another account’s notifications', async () => {
    const owner = await t.signUp();
    const user = await t.signUp();
    const other = await t.signUp();
    const { board } = await seedBoard(t, owner, { A: [] });
    await seed(user, board.id, [null, null]);
    await seed(other, board.id, [null]);
    for (const query of ['?limit=0', '?limit=101', '?limit=x', '?limit=1.5', '?before=abc']) {
      const res = await t.inject(user, { method: 'GET', url: `/api/data/notifications${query}` });
      expect(res.statusCode, query).toBe(400);
    }
    const before = await t.db.selectFrom('notifications').selectAll().orderBy('id').execute();
    for (const query of ['', '?cardId=1&boardId=1', '?id=1&cardId=1', '?id=x']) {
      expect((await t.inject(user, { method: 'PATCH', url: `/api/data/notifications${query}` })).statusCode, query).toBe(400);
    }
    const theirs = (await list(other)).notifications[0];
    expect((await t.inject(user, { method: 'PATCH', url: `/api/data/notifications?id=${theirs.id}` })).statusCode).toBe(200);
    expect(await t.db.selectFrom('notifications').selectAll().orderBy('id').execute()).toEqual(before);
    // `before` of someone else's notification: a page of my own older ones, never theirs.
    const page = await list(user, `?limit=10&before=${theirs.id}`);
    expect(page.notifications.every((n: { id: number }) => n.id < theirs.id)).toBe(true);
    expect(page.notifications.map((n: { id: number }) => n.id)).not.toContain(theirs.id);
    expect((await t.inject(null, { method: 'GET', url: '/api/data/notifications' })).statusCode).toBe(403);
  });
});
