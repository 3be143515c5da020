import { afterEach, expect, it } from 'vitest';
import { createArea, createCard, seedBoard } from '../../../test/factories.js';
import { eachDialect, type TestUser } from '../../../test/harness.js';
import { Viewer } from '../../../test/realtime-client.js';

eachDialect('realtime: replay is bounded by access', (t) => {
  const open: Viewer[] = [];
  afterEach(() => {
    for (const v of open.splice(0)) v.close();
  });
  /** Subscribes with `since` and answers what came back: `resync`, or the replayed events' names. */
  const replay = async (user: TestUser, boardId: number, since: number) => {
    const viewer = await Viewer.connect(await t.listen(), { cookie: user.cookie });
    open.push(viewer);
    viewer.send({ type: 'subscribe', boardId, since });
    // Subscribing again queues behind the first one's replay: once it answers, the replay is all here.
    viewer.send({ type: 'subscribe', boardId });
    await viewer.next('subscribed');
    await viewer.next('subscribed');
    const events = viewer.messages.filter((m) => m.type === 'event');
    if (viewer.messages.some((m) => m.type === 'resync')) {
      expect(events).toEqual([]);
      return 'resync';
    }
    return events.map((e) => e.name);
  };
  const versionOf = async (boardId: number, name: string) =>
    (
      await t.db
        .selectFrom('board_events')
        .select('version')
        .where('boardId', '=', boardId)
        .where('name', '=', name)
        .orderBy('version', 'desc')
        .executeTakeFirstOrThrow()
    ).version;
  const logText = async (boardId: number) =>
    (await t.db.selectFrom('board_events').select('data').where('boardId', '=', boardId).execute()).map((r) => r.data).join('\n');

  it('replays to a member added later only what came after, and tells an older `since` to reload', async () => {
    const owner = await t.signUp();
    const member = await t.signUp();
    const { board, areas } = await seedBoard(t, owner, { A: [] });
    await createCard(t, owner, areas.A!.id, 'Before you came');
    await t.inject(owner, {
      method: 'POST',
      url: '/api/data/invite',
      payload: { boardId: board.id, userId: member.id, permission: 'read' },
    });
    await createCard(t, owner, areas.A!.id, 'After you came');
    const added = await versionOf(board.id, 'member.added');

    expect(await replay(member, board.id, 0)).toBe('resync');
    expect(await replay(member, board.id, added - 2)).toBe('resync');
    expect(await replay(member, board.id, added - 1)).toEqual(['member.added', 'card.created']);
    // The owner could always read it.
    expect((await replay(owner, board.id, 0)).length).toBe(added + 1);
  });

  it('replays a public board to a non-member only from when it became public', async () => {
    const owner = await t.signUp();
    const passer = await t.signUp();
    const { board, areas } = await seedBoard(t, owner, { A: [] });
    await createCard(t, owner, areas.A!.id, 'While private');
    const settings = { id: board.id, userId: owner.id, name: 'Open', style: 'kanban' };
    await t.inject(owner, { method: 'POST', url: '/api/data/board', payload: { ...settings, status: 'public' } });
    const opened = await versionOf(board.id, 'board.updated');
    await createCard(t, owner, areas.A!.id, 'While public');

    expect(await replay(passer, board.id, 0)).toBe('resync');
    expect(await replay(passer, board.id, opened - 1)).toEqual(['board.updated', 'card.created']);
  });

  it('leaves the text of a deleted comment, card or area nowhere in the event log, versions kept', async () => {
    const owner = await t.signUp();
    const { board, areas } = await seedBoard(t, owner, { A: [], B: [] });
    const card = await createCard(t, owner, areas.A!.id, 'Card kept', { content: 'kept description' });
    const comment = (
      await t.inject(owner, {
        method: 'POST',
        url: '/api/data/comment',
        payload: { cardId: card.id, content: 'comment to forget' },
      })
    ).json<{ comment: { id: number } }>().comment;
    await t.inject(owner, {
      method: 'PUT',
      url: '/api/data/comment',
      payload: { id: comment.id, content: 'edited, also to forget' },
    });
    const doomed = await createCard(t, owner, areas.A!.id, 'Card to forget', { content: 'secret description' });
    await t.inject(owner, {
      method: 'POST',
      url: '/api/data/comment',
      payload: { cardId: doomed.id, content: 'its comment too' },
    });
    const area = await createArea(t, owner, board.id, 'Area to forget');
    await createCard(t, owner, area.id as number, 'Card in the area');
    const before = await logText(board.id);
    for (const text of [
      'comment to forget',
      'also to forget',
      'Card to forget',
      'secret description',
      'its comment',
      'Card in the area',
    ])
      expect(before).toContain(text);

    const deletions = [
      await t.inject(owner, { method: 'DELETE', url: `/api/data/comment?id=${comment.id}` }),
      await t.inject(owner, { method: 'DELETE', url: '/api/data/card', payload: { cardID: doomed.id, permanent: true } }),
      await t.inject(owner, { method: 'DELETE', url: `/api/data/area?id=${area.id}&boardId=${board.id}&permanent=true` }),
    ];
    expect(deletions.map((r) => r.statusCode)).toEqual([200, 200, 200]);

    const after = await logText(board.id);
    for (const text of [
      'comment to forget',
      'also to forget',
      'Card to forget',
      'secret description',
      'its comment',
      'Card in the area',
    ])
      expect(after).not.toContain(text);
    expect(after).toContain('kept description');
    const versions = (await t.db.selectFrom('board_events').select('version').where('boardId', '=', board.id).execute())
      .map((r) => r.version)
      .sort((a, b) => a - b);
    expect(versions).toEqual(versions.map((_, i) => i + 1));
    // A replay across what was erased reloads instead.
    expect(await replay(owner, board.id, 0)).toBe('resync');
  });
});
