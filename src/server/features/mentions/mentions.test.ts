import { expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import { seedBoard, share, snapshot } from '../../../../test/factories.js';
import { eachDialect, type TestUser } from '../../../../test/harness.js';

const form = (user: TestUser) => `@[${user.name}](${user.id})`;

eachDialect('mentions', (t) => {
  /** The stored `mention` notifications, as recipient and parameters. */
  const mentions = async (boardId: number) =>
    (
      await t.db
        .selectFrom('notifications')
        .select(['userId', 'params', 'cardId', 'boardId'])
        .where('type', '=', 'mention')
        .where('boardId', '=', boardId)
        .orderBy('id')
        .execute()
    ).map((n) => ({ userId: n.userId, cardId: n.cardId, boardId: n.boardId, params: JSON.parse(n.params!) as object }));
  const comment = (user: TestUser, cardId: number, content: string) =>
    t.inject(user, { method: 'POST', url: '/api/data/comment', payload: { cardId, content } });

  it('lists up to ten readers of the board by name prefix, case and accents aside, and nobody else', async () => {
    const ann = await t.signUp('Ann Owner');
    const elodie = await t.signUp('Élodie Martin');
    const elo = await t.signUp('eloise reader');
    const stranger = await t.signUp('Elon Stranger');
    const { board } = await seedBoard(t, ann, { Todo: [] });
    await share(t, board.id, elodie, 'edit');
    await share(t, board.id, elo, 'read');
    const others: TestUser[] = [];
    for (let i = 0; i < 11; i++) others.push(await t.signUp(`Member ${String(i).padStart(2, '0')}`));
    for (const other of others) await share(t, board.id, other, 'read');
    const list = async (as: TestUser, q?: string) => {
      const url = `/api/data/mentionable?boardId=${board.id}${q === undefined ? '' : `&q=${encodeURIComponent(q)}`}`;
      const res = await t.inject(as, { method: 'GET', url });
      expect(res.statusCode).toBe(200);
      return res.json().people as Array<{ id: string; name: string; image: string | null }>;
    };
    for (const q of ['elo', 'ÉLO', 'Elo', 'élo'])
      expect((await list(ann, q)).map((p) => p.name)).toEqual(['Élodie Martin', 'eloise reader']);
    expect(await list(elo, 'élod')).toEqual([{ id: elodie.id, name: 'Élodie Martin', image: null }]);
    // A prefix of the name, not any part of it; the stranger is never listed.
    expect(await list(ann, 'martin')).toEqual([]);
    expect(await list(ann, 'Elon')).toEqual([]);
    const all = await list(ann);
    expect(all).toHaveLength(10);
    expect(all.map((p) => p.id)).not.toContain(stranger.id);
    expect((await list(ann, 'member')).map((p) => p.name)).toEqual(others.slice(0, 10).map((o) => o.name));

    const get = (as: TestUser | null, query: string) => t.inject(as, { method: 'GET', url: `/api/data/mentionable${query}` });
    expect((await get(ann, '')).statusCode).toBe(400);
    expect((await get(ann, '?boardId=x')).statusCode).toBe(400);
    expect((await get(ann, `?boardId=${board.id}&q=${'a'.repeat(256)}`)).statusCode).toBe(400);
    expect((await get(stranger, `?boardId=${board.id}`)).statusCode).toBe(404);
    expect((await get(ann, '?boardId=999999')).statusCode).toBe(404);
    expect((await get(null, `?boardId=${board.id}`)).statusCode).toBe(403);
  });

  it('renders a mention as a chip, and as @Name in CSV and notification texts', async () => {
    const ann = await t.signUp('Ann');
    const bob = await t.signUp('Bob Builder');
    const { board, cards } = await seedBoard(t, ann, { Todo: ['Plan'] });
    await share(t, board.id, bob, 'edit');
    const put = await t.inject(ann, {
      method: 'PUT',
      url: '/api/data/card',
      payload: { cardID: cards.Plan!.id, content: `Ask ${form(bob)} <b>now</b>` },
    });
    expect(put.statusCode).toBe(200);
    const card = (await t.inject(ann, { method: 'GET', url: `/api/data/card?cardID=${cards.Plan!.id}` })).json().card;
    expect(card.content).toBe(`Ask ${form(bob)} <b>now</b>`);
    expect(card.html).toBe(
      `<p>Ask <span class="mention" data-user-id="${bob.id}">@Bob Builder</span> &lt;b&gt;now&lt;/b&gt;</p>\n`,
    );
    const created = await comment(ann, cards.Plan!.id, `Thanks ${form(bob)}!`);
    expect(created.json().comment.html).toContain(`<span class="mention" data-user-id="${bob.id}">@Bob Builder</span>!`);
    const csv = await t.inject(ann, { method: 'GET', url: `/api/data/board-export?boardId=${board.id}&format=csv` });
    const rows: string[][] = parse(csv.body.replace(/^\uFEFF/, ''), { delimiter: [',', ';'] });
    expect(rows.flat()).toContain('Ask @Bob Builder <b>now</b>');
    expect(csv.body).not.toContain(bob.id);
    const texts = (await t.inject(bob, { method: 'GET', url: '/api/data/notifications' }))
      .json()
      .notifications.map((n: { type: string; message: string }) => `${n.type}: ${n.message}`);
    expect(texts).toContain('mention: Ann mentioned you in a comment on “Plan”');
    expect(texts).toContain('mention: Ann mentioned you in the card “Plan”');
    const german = (await t.inject(bob, { method: 'GET', url: '/api/data/notifications', headers: { 'accept-language': 'de' } }))
      .json()
      .notifications.map((n: { message: string }) => n.message);
    expect(german).toContain('Ann hat dich in einem Kommentar zu “Plan” erwähnt');
  });

  it('notifies whom a comment newly mentions, once: never the author, never someone who cannot read the board', async () => {
    const ann = await t.signUp('Ann');
    const bob = await t.signUp('Bob');
    const cleo = await t.signUp('Cleo');
    const stranger = await t.signUp('Stranger');
    const { board, cards } = await seedBoard(t, ann, { Todo: ['Plan'] });
    await share(t, board.id, bob, 'read');
    await share(t, board.id, cleo, 'edit');
    const cardId = cards.Plan!.id;
    const first = await comment(ann, cardId, `${form(ann)} ${form(bob)} ${form(stranger)} and ${form(bob)} again`);
    expect(first.statusCode).toBe(200);
    const commentId = first.json().comment.id as number;
    expect(await mentions(board.id)).toEqual([
      { userId: bob.id, boardId: board.id, cardId, params: { actor: 'Ann', card: 'Plan', boardId: board.id, cardId, commentId } },
    ]);
    // Bob hears of this comment once, as a mention; Cleo, not mentioned, gets the usual comment notification.
    const ofComment = await t.db.selectFrom('notifications').select(['userId', 'type']).where('cardId', '=', cardId).execute();
    expect(ofComment.filter((n) => n.userId === bob.id)).toEqual([{ userId: bob.id, type: 'mention' }]);
    expect(ofComment.filter((n) => n.userId === cleo.id)).toEqual([{ userId: cleo.id, type: 'comment' }]);
    expect(ofComment.filter((n) => n.userId === ann.id || n.userId === stranger.id)).toEqual([]);

    // An edit that adds Cleo tells Cleo alone; the same edit again, or one keeping them, tells nobody.
    const edit = (content: string) =>
      t.inject(ann, { method: 'PUT', url: '/api/data/comment', payload: { id: commentId, content } });
    expect((await edit(`${form(bob)} and ${form(cleo)}`)).statusCode).toBe(200);
    expect((await mentions(board.id)).map((m) => [m.userId, (m.params as { commentId: number }).commentId])).toEqual([
      [bob.id, commentId],
      [cleo.id, commentId],
    ]);
    expect((await edit(`${form(bob)} and ${form(cleo)}`)).statusCode).toBe(200);
    expect((await edit(`${form(cleo)}, ${form(bob)}: more words`)).statusCode).toBe(200);
    expect(await mentions(board.id)).toHaveLength(2);
    // Someone else's comment mentioning Ann tells Ann.
    await comment(cleo, cardId, `over to ${form(ann)}`);
    expect((await mentions(board.id)).at(-1)).toMatchObject({ userId: ann.id, params: { actor: 'Cleo' } });
  });

  it('notifies whom a card description newly mentions, once per edit that adds them', async () => {
    const ann = await t.signUp('Ann');
    const bob = await t.signUp('Bob');
    const outsider = await t.signUp('Outsider');
    const { board, areas, cards } = await seedBoard(t, ann, { Todo: ['Plan'] });
    await share(t, board.id, bob, 'edit');
    const cardId = cards.Plan!.id;
    const put = (as: TestUser, content: string) =>
      t.inject(as, { method: 'PUT', url: '/api/data/card', payload: { cardID: cardId, content } });
    expect((await put(ann, `for ${form(outsider)} and ${form(ann)}`)).statusCode).toBe(200);
    expect(await mentions(board.id)).toEqual([]);
    expect((await put(ann, `for ${form(bob)}`)).statusCode).toBe(200);
    expect(await mentions(board.id)).toEqual([
      { userId: bob.id, boardId: board.id, cardId, params: { actor: 'Ann', card: 'Plan', boardId: board.id, cardId } },
    ]);
    expect((await put(ann, `for ${form(bob)}`)).statusCode).toBe(200);
    expect((await put(ann, `still for ${form(bob)}, with more`)).statusCode).toBe(200);
    await t.inject(ann, { method: 'PUT', url: '/api/data/card', payload: { cardID: cardId, name: 'Renamed' } });
    expect(await mentions(board.id)).toHaveLength(1);
    // Taken out and put back: that edit adds the mention again.
    await put(ann, 'nobody');
    await put(bob, `back to ${form(ann)} and ${form(bob)}`);
    expect((await mentions(board.id)).map((m) => m.userId)).toEqual([bob.id, ann.id]);
    // A new card's description counts too.
    const created = await t.inject(bob, {
      method: 'POST',
      url: '/api/data/card',
      payload: { areaId: areas.Todo!.id, name: 'New', content: `hi ${form(ann)}` },
    });
    expect(created.statusCode).toBe(200);
    expect((await mentions(board.id)).at(-1)).toEqual({
      userId: ann.id,
      boardId: board.id,
      cardId: created.json().card.id,
      params: { actor: 'Bob', card: 'New', boardId: board.id, cardId: created.json().card.id },
    });
  });

  it('refuses writes with mentions from readers and strangers, changing and notifying nothing', async () => {
    const ann = await t.signUp('Ann');
    const reader = await t.signUp('Reader');
    const stranger = await t.signUp('Stranger');
    const { board, cards } = await seedBoard(t, ann, { Todo: ['Plan'] });
    await share(t, board.id, reader, 'read');
    const cardId = cards.Plan!.id;
    const before = await snapshot(t);
    const text = `hey ${form(ann)}`;
    expect((await comment(reader, cardId, text)).statusCode).toBe(403);
    expect((await comment(stranger, cardId, text)).statusCode).toBe(404);
    expect((await comment(ann, 999999, text)).statusCode).toBe(404);
    expect((await comment(ann, cardId, '   ')).statusCode).toBe(400);
    for (const as of [reader, stranger]) {
      const res = await t.inject(as, { method: 'PUT', url: '/api/data/card', payload: { cardID: cardId, content: text } });
      expect(res.statusCode).toBe(as === reader ? 403 : 404);
    }
    expect(await snapshot(t)).toEqual(before);
    expect(await t.db.selectFrom('comments').select('id').where('cardId', '=', cardId).execute()).toEqual([]);
    expect(await t.db.selectFrom('notifications').select('id').where('boardId', '=', board.id).execute()).toEqual([]);
  });
});
