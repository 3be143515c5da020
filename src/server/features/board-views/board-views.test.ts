import { expect, it } from 'vitest';
import { share } from '../../../../test/factories.js';
import { eachDialect, type As, type TestUser } from '../../../../test/harness.js';

eachDialect('board views (swimlanes per person)', (t) => {
  const get = (as: As, boardId: unknown) =>
    t.inject(as, { method: 'GET', url: `/api/data/board-view?boardId=${String(boardId)}` });
  const put = (as: As, payload: Record<string, unknown>) => t.inject(as, { method: 'PUT', url: '/api/data/board-view', payload });
  const lanesOf = async (as: As, boardId: number) => {
    const res = await get(as, boardId);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ view: { lanes: string | null } }>().view.lanes;
  };
  const field = async (user: TestUser, boardId: number, type: string, name: string) => {
    const res = await t.inject(user, {
      method: 'POST',
      url: '/api/data/field',
      payload: { boardId, name, type, ...(type === 'select' ? { options: ['Low', 'High'] } : {}) },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ field: { id: number } }>().field.id;
  };
  const rows = (boardId: number) => t.db.selectFrom('board_views').selectAll().where('boardId', '=', boardId).execute();

  it('keeps each person’s lanes per board, a reader’s too, without touching the board', async () => {
    const owner = await t.signUp('Owner');
    const reader = await t.signUp('Reader');
    const board = await t.createBoard(owner);
    const other = await t.createBoard(owner);
    await share(t, board.id, reader, 'read');
    const priority = await field(owner, board.id, 'select', 'Priority');
    const before = await t.db.selectFrom('boards').select('version').where('id', '=', board.id).executeTakeFirstOrThrow();

    expect(await lanesOf(owner, board.id)).toBeNull();
    expect((await put(owner, { boardId: board.id, lanes: 'assignee' })).json()).toEqual({ view: { lanes: 'assignee' } });
    expect((await put(reader, { boardId: board.id, lanes: `field:${priority}` })).json()).toEqual({
      view: { lanes: `field:${priority}` },
    });
    expect(await lanesOf(owner, board.id)).toBe('assignee');
    expect(await lanesOf(reader, board.id)).toBe(`field:${priority}`);
    // Per board: the other board has none.
    expect(await lanesOf(owner, other.id)).toBeNull();
    // Changed, then cleared.
    expect((await put(owner, { boardId: board.id, lanes: 'label' })).statusCode).toBe(200);
    expect(await lanesOf(owner, board.id)).toBe('label');
    expect((await put(owner, { boardId: board.id, lanes: null })).json()).toEqual({ view: { lanes: null } });
    expect(await lanesOf(owner, board.id)).toBeNull();

    // A view is nobody else's business: no event, no new version.
    const after = await t.db.selectFrom('boards').select('version').where('id', '=', board.id).executeTakeFirstOrThrow();
    expect(after.version).toBe(before.version);
  });

  it('answers no lanes once the lane field is gone', async () => {
    const owner = await t.signUp();
    const board = await t.createBoard(owner);
    const priority = await field(owner, board.id, 'select', 'Priority');
    await put(owner, { boardId: board.id, lanes: `field:${priority}` });
    expect(await lanesOf(owner, board.id)).toBe(`field:${priority}`);
    const removed = await t.inject(owner, { method: 'DELETE', url: `/api/data/field?id=${priority}` });
    expect(removed.statusCode).toBe(200);
    expect(await lanesOf(owner, board.id)).toBeNull();
  });

  it('refuses a lanes value the board does not offer (400) and changes nothing', async () => {
    const owner = await t.signUp();
    const board = await t.createBoard(owner);
    const elsewhere = await t.createBoard(owner);
    const text = await field(owner, board.id, 'text', 'Notes');
    const foreign = await field(owner, elsewhere.id, 'select', 'Priority');
    await put(owner, { boardId: board.id, lanes: 'assignee' });
    for (const lanes of ['status', 'field:', 'field:0', `field:${text}`, `field:${foreign}`, 'field:99999', 42, '', 'Assignee']) {
      const res = await put(owner, { boardId: board.id, lanes });
      expect(res.statusCode, `${String(lanes)}: ${res.body}`).toBe(400);
      expect(res.json()).toEqual({ error: expect.any(String) });
    }
    expect((await put(owner, { boardId: board.id })).statusCode).toBe(400);
    expect((await put(owner, { lanes: 'label' })).statusCode).toBe(400);
    expect((await get(owner, 'x')).statusCode).toBe(400);
    expect(await lanesOf(owner, board.id)).toBe('assignee');
  });

  it('is 404 for a board the caller cannot read or that does not exist, 403 without credentials or with a read-only key', async () => {
    const owner = await t.signUp();
    const stranger = await t.signUp();
    const board = await t.createBoard(owner);
    await put(owner, { boardId: board.id, lanes: 'label' });

    expect((await get(stranger, board.id)).statusCode).toBe(404);
    expect((await put(stranger, { boardId: board.id, lanes: 'assignee' })).statusCode).toBe(404);
    expect((await get(owner, 999999)).statusCode).toBe(404);
    expect((await put(owner, { boardId: 999999, lanes: 'assignee' })).statusCode).toBe(404);
    expect((await get(null, board.id)).statusCode).toBe(403);
    expect((await put(null, { boardId: board.id, lanes: 'assignee' })).statusCode).toBe(403);
    const readOnly = await t.createKey(owner, true);
    expect((await get({ key: readOnly }, board.id)).statusCode).toBe(200);
    expect((await put({ key: readOnly }, { boardId: board.id, lanes: 'assignee' })).statusCode).toBe(403);

    // Nothing changed by the refusals: the owner's choice alone is stored.
    expect((await rows(board.id)).map((r) => [r.userId, r.boardId, r.lanes])).toEqual([[owner.id, board.id, 'label']]);
  });

  it('is in the OpenAPI document', async () => {
    const doc = (await t.inject(null, { method: 'GET', url: '/api/docs/json' })).json<{ paths: Record<string, object> }>();
    expect(Object.keys(doc.paths['/api/data/board-view']!).sort()).toEqual(['get', 'put']);
  });
});
