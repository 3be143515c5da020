import { expect, it } from 'vitest';
import { renderMarkdown } from '../../../shared/markdown.js';
import { seedBoard, snapshot, updateCard } from '../../../../test/factories.js';
import { eachDialect, type TestContext, type TestUser } from '../../../../test/harness.js';

const ISO = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

async function invite(t: TestContext, owner: TestUser, boardId: number, user: TestUser, permission: 'read' | 'edit') {
  const res = await t.inject(owner, {
    method: 'POST',
    url: '/api/data/invite',
    payload: { boardId, userId: user.id, permission },
  });
  expect(res.statusCode).toBe(200);
}

function post(t: TestContext, user: TestUser | null, cardId: number, content: unknown) {
  return t.inject(user, { method: 'POST', url: '/api/data/comment', payload: { cardId, content } });
}

function put(t: TestContext, user: TestUser | null, id: number, content: unknown) {
  return t.inject(user, { method: 'PUT', url: '/api/data/comment', payload: { id, content } });
}

function remove(t: TestContext, user: TestUser | null, id: number) {
  return t.inject(user, { method: 'DELETE', url: `/api/data/comment?id=${id}` });
}

async function list(t: TestContext, user: TestUser, cardId: number) {
  const res = await t.inject(user, { method: 'GET', url: `/api/data/comment?cardId=${cardId}` });
  expect(res.statusCode).toBe(200);
  return res.json().comments as Array<Record<string, any>>; // eslint-disable-line @typescript-eslint/no-explicit-any
}

async function comment(t: TestContext, user: TestUser, cardId: number, content: string) {
  const res = await post(t, user, cardId, content);
  expect(res.statusCode).toBe(200);
  return res.json().comment as { id: number; content: string; html: string };
}

/** Rows a refusal must leave alone: the board model, its events, comments and card history. */
async function everything(t: TestContext) {
  const rows = (table: 'comments' | 'card_activity') =>
    t.db
      .selectFrom(table)
      .selectAll()
      .execute()
      .then((all) => all.map((r) => JSON.stringify(r)).sort());
  return { ...(await snapshot(t)), comments: await rows('comments'), activity: await rows('card_activity') };
}

eachDialect('comments', (t) => {
  it('creates, lists oldest first, edits and deletes comments, with Markdown rendered beside it', async () => {
    const owner = await t.signUp('Olga');
    const editor = await t.signUp('Eddie');
    const { board, cards } = await seedBoard(t, owner, { Todo: ['task', 'other'] });
    await invite(t, owner, board.id, editor, 'edit');
    const cardId = cards.task!.id as number;

    const created = await post(t, owner, cardId, '  **Hello** [docs](https://example.org)\n- [x] done  \n');
    expect(created.statusCode).toBe(200);
    const first = created.json().comment;
    expect(first).toEqual({
      id: expect.any(Number),
      author: { id: owner.id, name: 'Olga', image: null },
      authorName: 'Olga',
      content: '**Hello** [docs](https://example.org)\n- [x] done',
      html:
        '<p><strong>Hello</strong> <a href="https://example.org" rel="noopener noreferrer nofollow" target="_blank">docs</a></p>\n' +
        '<ul>\n<li class="task-list-item"><input type="checkbox" disabled checked> done</li>\n</ul>\n',
      createdAt: ISO,
      updatedAt: ISO,
    });
    const second = await comment(t, editor, cardId, 'Second');
    await comment(t, editor, cards.other!.id, 'elsewhere');

    const listed = await list(t, editor, cardId);
    expect(listed).toEqual([first, { ...second, author: { id: editor.id, name: 'Eddie', image: null }, authorName: 'Eddie' }]);

    const edited = await put(t, owner, first.id, 'Changed _text_');
    expect(edited.statusCode).toBe(200);
    expect(edited.json().comment).toEqual({
      ...first,
      content: 'Changed _text_',
      html: '<p>Changed <em>text</em></p>\n',
      updatedAt: ISO,
    });
    expect(Date.parse(edited.json().comment.updatedAt)).toBeGreaterThanOrEqual(Date.parse(first.updatedAt));

    const deleted = await remove(t, editor, second.id);
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json()).toEqual({ success: true });
    expect((await list(t, owner, cardId)).map((c) => c.content)).toEqual(['Changed _text_']);
    expect((await list(t, owner, cards.other!.id)).map((c) => c.content)).toEqual(['elsewhere']);
  });

  it('records card activity on create only and writes an event per change', async () => {
    const owner = await t.signUp('Olga');
    const { board, cards } = await seedBoard(t, owner, { Todo: ['task'] });
    const cardId = cards.task!.id as number;
    const { version: before } = await t.db
      .selectFrom('boards')
      .select('version')
      .where('id', '=', board.id)
      .executeTakeFirstOrThrow();

    const created = await comment(t, owner, cardId, 'first');
    expect((await put(t, owner, created.id, 'edited')).statusCode).toBe(200);
    const written = await t.db
      .selectFrom('board_events')
      .select(['name', 'data'])
      .where('boardId', '=', board.id)
      .where('version', '>', before)
      .orderBy('version')
      .execute();
    expect(written.map((e) => e.name)).toEqual(['comment.created', 'comment.updated']);
    const [c, u] = written.map((e) => JSON.parse(e.data));
    expect(c).toEqual({ cardId, comment: created });
    expect(u).toMatchObject({ cardId, comment: { id: created.id, content: 'edited', html: '<p>edited</p>\n' } });
    expect((await remove(t, owner, created.id)).statusCode).toBe(200);

    const activity = (await t.inject(owner, { method: 'GET', url: `/api/data/card-activity?cardID=${cardId}` })).json().activity;
    expect(activity.map((a: { type: string }) => a.type)).toEqual(['created', 'comment']);
    expect(activity[1]).toEqual({
      type: 'comment',
      actor: { id: owner.id, name: 'Olga', image: null, type: 'human' },
      data: { commentId: created.id },
      createdAt: ISO,
    });

    const events = await t.db
      .selectFrom('board_events')
      .select(['version', 'name', 'data', 'actorId'])
      .where('boardId', '=', board.id)
      .where('version', '>', before)
      .orderBy('version')
      .execute();
    // The deleted comment's own events keep their versions but lose their content.
    expect(events.map((e) => [e.version, e.name, e.actorId, JSON.parse(e.data)])).toEqual([
      [before + 1, 'redacted', owner.id, {}],
      [before + 2, 'redacted', owner.id, {}],
      [before + 3, 'comment.deleted', owner.id, { cardId, commentId: created.id }],
    ]);
    const { version: after } = await t.db
      .selectFrom('boards')
      .select('version')
      .where('id', '=', board.id)
      .executeTakeFirstOrThrow();
    expect(after).toBe(before + 3);
  });

  it('keeps the author name of comments whose account is gone or that were imported', async () => {
    const owner = await t.signUp('Olga');
    const gone = await t.signUp('Gone Gus');
    const { board, cards } = await seedBoard(t, owner, { Todo: ['task'] });
    await invite(t, owner, board.id, gone, 'edit');
    const cardId = cards.task!.id as number;
    const left = await comment(t, gone, cardId, 'bye');
    await t.db.deleteFrom('user').where('id', '=', gone.id).execute();
    const now = new Date().toISOString();
    await t.db
      .insertInto('comments')
      .values([
        { cardId, userId: null, authorName: 'Imported Ida', content: 'from *elsewhere*', createdAt: now, updatedAt: now },
        { cardId, userId: null, authorName: null, content: 'anonymous', createdAt: now, updatedAt: now },
      ])
      .execute();

    const listed = await list(t, owner, cardId);
    expect(listed.map((c) => [c.author, c.authorName, c.html])).toEqual([
      [null, 'Gone Gus', '<p>bye</p>\n'],
      [null, 'Imported Ida', '<p>from <em>elsewhere</em></p>\n'],
      [null, null, '<p>anonymous</p>\n'],
    ]);
    // Nobody is their author now: not even the board's owner may change them.
    const orphan = listed[1]!.id as number;
    expect((await put(t, owner, left.id, 'mine now')).statusCode).toBe(403);
    expect((await put(t, owner, orphan, 'mine now')).statusCode).toBe(403);
    expect((await remove(t, owner, orphan)).statusCode).toBe(403);
    expect((await list(t, owner, cardId)).length).toBe(3);
  });

  it('refuses read members on every write (403) and changes nothing', async () => {
    const owner = await t.signUp();
    const reader = await t.signUp();
    const demoted = await t.signUp();
    const { board, cards } = await seedBoard(t, owner, { Todo: ['task'] });
    const cardId = cards.task!.id as number;
    await invite(t, owner, board.id, reader, 'read');
    await invite(t, owner, board.id, demoted, 'edit');
    const mine = await comment(t, owner, cardId, 'owner says');
    const own = await comment(t, demoted, cardId, 'written while an editor');
    await invite(t, owner, board.id, demoted, 'read');

    const before = await everything(t);
    expect((await post(t, reader, cardId, 'hi')).statusCode).toBe(403);
    expect((await put(t, reader, mine.id, 'hijacked')).statusCode).toBe(403);
    expect((await remove(t, reader, mine.id)).statusCode).toBe(403);
    expect((await put(t, demoted, own.id, 'still mine?')).statusCode).toBe(403);
    expect((await remove(t, demoted, own.id)).statusCode).toBe(403);
    expect(await everything(t)).toEqual(before);
    expect((await list(t, reader, cardId)).map((c) => c.content)).toEqual(['owner says', 'written while an editor']);
  });

  it("refuses changes to someone else's comment (403), even by the board's owner", async () => {
    const owner = await t.signUp();
    const editor = await t.signUp();
    const { board, cards } = await seedBoard(t, owner, { Todo: ['task'] });
    await invite(t, owner, board.id, editor, 'edit');
    const theirs = await comment(t, editor, cards.task!.id, 'editor says');
    const ours = await comment(t, owner, cards.task!.id, 'owner says');

    const before = await everything(t);
    expect((await put(t, owner, theirs.id, 'rewritten')).statusCode).toBe(403);
    expect((await remove(t, owner, theirs.id)).statusCode).toBe(403);
    expect((await put(t, editor, ours.id, 'rewritten')).json()).toEqual({ error: expect.any(String) });
    expect((await remove(t, editor, ours.id)).statusCode).toBe(403);
    expect(await everything(t)).toEqual(before);
  });

  it('hides comments from strangers (404), lets anyone read a public board but not write (403)', async () => {
    const owner = await t.signUp();
    const stranger = await t.signUp();
    const { cards } = await seedBoard(t, owner, { Todo: ['task'] });
    const cardId = cards.task!.id as number;
    const mine = await comment(t, owner, cardId, 'private');

    const before = await everything(t);
    expect((await t.inject(stranger, { method: 'GET', url: `/api/data/comment?cardId=${cardId}` })).statusCode).toBe(404);
    expect((await post(t, stranger, cardId, 'hello')).statusCode).toBe(404);
    expect((await put(t, stranger, mine.id, 'hello')).statusCode).toBe(404);
    expect((await remove(t, stranger, mine.id)).statusCode).toBe(404);
    expect((await post(t, null, cardId, 'hello')).statusCode).toBe(403);
    expect((await t.inject(null, { method: 'GET', url: `/api/data/comment?cardId=${cardId}` })).statusCode).toBe(403);
    expect(await everything(t)).toEqual(before);

    const open = await seedBoard(t, owner, { Todo: ['shown'] }, { status: 'public' });
    const shown = open.cards.shown!.id as number;
    const note = await comment(t, owner, shown, 'public note');
    expect((await list(t, stranger, shown)).map((c) => c.content)).toEqual(['public note']);
    expect((await post(t, stranger, shown, 'me too')).statusCode).toBe(403);
    expect((await put(t, stranger, note.id, 'me too')).statusCode).toBe(403);
    expect((await remove(t, stranger, note.id)).statusCode).toBe(403);
  });

  it('refuses missing, blank, ill-typed and too long content (400), counting characters after trimming', async () => {
    const owner = await t.signUp();
    const { cards } = await seedBoard(t, owner, { Todo: ['task'] });
    const cardId = cards.task!.id as number;
    const mine = await comment(t, owner, cardId, 'original');
    const before = await everything(t);

    const refusals = [
      await t.inject(owner, { method: 'POST', url: '/api/data/comment', payload: { cardId } }),
      await t.inject(owner, { method: 'POST', url: '/api/data/comment', payload: { content: 'no card' } }),
      await post(t, owner, cardId, ''),
      await post(t, owner, cardId, ' \n\t '),
      await post(t, owner, cardId, 42),
      await post(t, owner, cardId, null),
      await post(t, owner, cardId, 'x'.repeat(20_001)),
      await t.inject(owner, { method: 'POST', url: '/api/data/comment', payload: { cardId: 'one', content: 'x' } }),
      await t.inject(owner, { method: 'PUT', url: '/api/data/comment', payload: { id: mine.id } }),
      await put(t, owner, mine.id, '   '),
      await put(t, owner, mine.id, '😀'.repeat(20_001)),
      await t.inject(owner, { method: 'DELETE', url: '/api/data/comment' }),
      await t.inject(owner, { method: 'GET', url: '/api/data/comment' }),
      await t.inject(owner, { method: 'GET', url: '/api/data/comment?cardId=abc' }),
    ];
    expect(refusals.map((r) => r.statusCode)).toEqual(refusals.map(() => 400));
    for (const res of refusals) expect(res.json()).toEqual({ error: expect.any(String) });
    expect(await everything(t)).toEqual(before);

    expect((await post(t, owner, cardId, 'x'.repeat(20_001))).json().error).toBe(
      'body: content must be at most 20000 characters',
    );

    // The limit is 20,000 characters of the trimmed text (an emoji is one character).
    expect((await post(t, owner, cardId, `  ${'x'.repeat(20_000)}\n`)).json().comment.content).toHaveLength(20_000);
    expect((await put(t, owner, mine.id, '😀'.repeat(20_000))).statusCode).toBe(200);
  });

  it('pages comments: the newest 100 by default, oldest first; before and limit reach the older ones', async () => {
    const owner = await t.signUp();
    const { cards } = await seedBoard(t, owner, { Todo: ['task'] });
    const cardId = cards.task!.id as number;
    const now = new Date().toISOString();
    await t.db
      .insertInto('comments')
      .values(
        Array.from({ length: 105 }, (_, i) => ({
          cardId,
          userId: owner.id,
          authorName: owner.name,
          content: `c${i}`,
          createdAt: now,
          updatedAt: now,
        })),
      )
      .execute();
    const page = async (query: string) => {
      const res = await t.inject(owner, { method: 'GET', url: `/api/data/comment?cardId=${cardId}${query}` });
      expect(res.statusCode).toBe(200);
      return res.json().comments as Array<{ id: number; content: string }>;
    };
    const names = (comments: Array<{ content: string }>) => comments.map((c) => c.content);
    const first = await page('');
    expect(names(first)).toEqual(Array.from({ length: 100 }, (_, i) => `c${i + 5}`));
    expect(names(await page(`&before=${first[0]!.id}`))).toEqual(['c0', 'c1', 'c2', 'c3', 'c4']);
    expect(names(await page(`&limit=2&before=${first[0]!.id}`))).toEqual(['c3', 'c4']);
    expect(names(await page('&limit=3'))).toEqual(['c102', 'c103', 'c104']);
    expect(await page(`&before=${first[0]!.id - 5}`)).toEqual([]);

    for (const query of ['&limit=0', '&limit=101', '&limit=x', '&before=0', '&before=x']) {
      const res = await t.inject(owner, { method: 'GET', url: `/api/data/comment?cardId=${cardId}${query}` });
      expect([res.statusCode, res.json()]).toEqual([400, { error: expect.stringMatching(/^query: (limit|before) /) }]);
    }
  });

  it('answers 404 for unknown cards and comments', async () => {
    const owner = await t.signUp();
    await seedBoard(t, owner, { Todo: ['task'] });
    expect((await t.inject(owner, { method: 'GET', url: '/api/data/comment?cardId=999999' })).statusCode).toBe(404);
    expect((await post(t, owner, 999_999, 'x')).statusCode).toBe(404);
    expect((await put(t, owner, 999_999, 'x')).statusCode).toBe(404);
    expect((await remove(t, owner, 999_999)).statusCode).toBe(404);
  });

  it('refuses writes on an archived card, area or board (409) while reads still work', async () => {
    const owner = await t.signUp();
    const { board, areas, cards } = await seedBoard(t, owner, { Todo: ['task'] });
    const cardId = cards.task!.id as number;
    const areaId = areas.Todo!.id as number;
    const mine = await comment(t, owner, cardId, 'before archiving');
    const refusedWhileArchived = async () => {
      const before = await everything(t);
      expect((await post(t, owner, cardId, 'new')).statusCode).toBe(409);
      expect((await put(t, owner, mine.id, 'changed')).statusCode).toBe(409);
      expect((await remove(t, owner, mine.id)).statusCode).toBe(409);
      expect(await everything(t)).toEqual(before);
      expect((await list(t, owner, cardId)).map((c) => c.content)).toEqual(['before archiving']);
    };
    const restore = async (type: string, id: number) =>
      expect((await t.inject(owner, { method: 'POST', url: '/api/data/archive', payload: { type, id } })).statusCode).toBe(200);

    expect((await t.inject(owner, { method: 'DELETE', url: '/api/data/card', payload: { cardID: cardId } })).statusCode).toBe(
      200,
    );
    await refusedWhileArchived();
    await restore('card', cardId);

    const area = await t.inject(owner, { method: 'DELETE', url: `/api/data/area?id=${areaId}&boardId=${board.id}` });
    expect(area.statusCode).toBe(200);
    await refusedWhileArchived();
    await restore('area', areaId);

    const archived = await t.inject(owner, { method: 'DELETE', url: `/api/data/board?id=${board.id}&userId=${owner.id}` });
    expect(archived.statusCode).toBe(200);
    await refusedWhileArchived();
    await restore('board', board.id);

    expect((await put(t, owner, mine.id, 'after restoring')).statusCode).toBe(200);
  });

  it('renders XSS payloads inert in comments and in card content, end to end', async () => {
    const owner = await t.signUp();
    const { areas, cards } = await seedBoard(t, owner, { Todo: ['task'] });
    const cardId = cards.task!.id as number;
    const payloads = [
      '<script>alert(1)</script>',
      '<img src=x onerror=alert(1)>',
      '<iframe src="javascript:alert(1)"></iframe>',
      '<svg onload=alert(1)>',
      '[x](javascript:alert(1))',
      '[x](JAVASCRIPT:alert(1))',
      '[x](java&#x09;script:alert(1))',
      '![x](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+)',
      '<javascript:alert(1)>',
      '[x](https://example.org "a\\" onmouseover=\\"alert(1)")',
      '- [ ] <img src=x onerror=alert(1)>\n- [x] [y](vbscript:msgbox(1))',
    ];
    const inert = (html: string) => {
      expect(html).not.toMatch(/<\s*\/?\s*(script|iframe|svg|object|embed|style|math|form|meta|base)\b/i);
      expect(html.replace(/"[^"]*"/g, '""')).not.toMatch(/<[^>]*\son[a-z]*\s*=/i);
      for (const [, url] of html.matchAll(/\s(?:href|src)="([^"]*)"/g)) expect(url).toMatch(/^(?:https?:|mailto:|\/|#)/i);
    };

    for (const payload of payloads) await comment(t, owner, cardId, payload);
    const listed = await list(t, owner, cardId);
    expect(listed.map((c) => c.content)).toEqual(payloads);
    for (const c of listed) {
      expect(c.html).toBe(renderMarkdown(c.content as string));
      inert(c.html as string);
    }

    for (const payload of payloads) {
      const updated = await updateCard(t, owner, cardId, { content: payload });
      expect(updated.card.html).toBe(renderMarkdown(payload));
      const res = await t.inject(owner, { method: 'GET', url: `/api/data/card?cardID=${cardId}` });
      expect(res.json().card).toMatchObject({ content: payload, html: renderMarkdown(payload) });
      inert(res.json().card.html);
    }
    // The list shape stays lean: no rendered HTML there.
    const listedCards = (await t.inject(owner, { method: 'GET', url: `/api/data/cards?areaId=${areas.Todo!.id}` })).json().cards;
    expect(listedCards[0]).not.toHaveProperty('html');
  });
});
